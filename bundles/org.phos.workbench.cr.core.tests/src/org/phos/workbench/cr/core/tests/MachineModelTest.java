package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CopyDirection;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.Staging;
import org.phos.workbench.cr.core.Units;

class MachineModelTest {

    @Test
    void presetsCarryTheMeasuredFigures() {
        MachineModel h = MachineModel.h100();
        assertEquals(55e9, h.d2hBytesPerSec());
        assertEquals(55e9, h.h2dBytesPerSec());
        assertEquals(1.4e12, h.d2dBytesPerSec());
        assertEquals(3_100_000_000L, h.contextCreationNs());
        MachineModel a = MachineModel.preset("a800-pcie4");
        assertTrue(a.d2hBytesPerSec() >= 21e9 && a.d2hBytesPerSec() <= 25e9);
        assertTrue(a.h2dBytesPerSec() >= 21e9 && a.h2dBytesPerSec() <= 25e9);
    }

    @Test
    void everyKnobCanBeOverridden() {
        MachineModel m = MachineModel.parse("a800,d2h=25GB/s,h2d=20e9,d2d=1TB/s,ctx=2.5s,ctx-pool=0,cpu-state=1GiB,"
                + "pageable-factor=0.25,copy-latency=3us,launch-latency=0,default-kernel=50us,memset=1TB/s,"
                + "host-copy=8GB/s");
        assertEquals("a800-pcie4*", m.name());
        assertEquals(25e9, m.d2hBytesPerSec());
        assertEquals(20e9, m.h2dBytesPerSec());
        assertEquals(1e12, m.d2dBytesPerSec());
        assertEquals(2_500_000_000L, m.contextCreationNs());
        assertEquals(0, m.contextPoolNs());
        assertEquals(1L << 30, m.cpuStateBytes());
        assertEquals(25e9 * 0.25, m.bandwidth(CopyDirection.DEVICE_TO_HOST, Staging.PAGEABLE));
        assertEquals(3_000, m.copyLatencyNs());
        assertEquals(50_000, m.defaultKernelNs());
        assertEquals(8e9, m.hostCopyBytesPerSec());
    }

    @Test
    void badSpecsNameTheProblem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MachineModel.parse("v100"));
        assertTrue(e.getMessage().contains("v100") && e.getMessage().contains("h100"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MachineModel.parse("h100,warp=3"));
        assertTrue(e.getMessage().contains("warp"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MachineModel.parse("h100,d2h=fast"));
        assertTrue(e.getMessage().contains("fast"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MachineModel.parse("h100,d2h=0"));
        assertTrue(e.getMessage().contains("d2h"), e.getMessage());
    }

    @Test
    void unitsAndInstants() {
        assertEquals(10_000_000L, Units.transferNs(550_000_000L, 55e9), "exact figures stay exact");
        assertEquals(1_500_000_000L, Units.parseDurationNs("1.5s"));
        assertEquals(4L << 20, Units.parseBytes("4MiB"));
        assertEquals(CheckpointInstant.atLaunch(1000), CheckpointInstant.parse("launch:1000"));
        assertEquals(CheckpointInstant.atLaunch(7), CheckpointInstant.parse("7"));
        assertEquals(CheckpointInstant.atTimeNs(200_000_000L), CheckpointInstant.parse("200ms"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CheckpointInstant.parse("soon"));
        assertTrue(e.getMessage().contains("soon"), e.getMessage());
    }
}
