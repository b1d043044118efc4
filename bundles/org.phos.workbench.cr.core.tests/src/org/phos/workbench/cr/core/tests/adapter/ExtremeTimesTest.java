package org.phos.workbench.cr.core.tests.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.SoftCopyOnWritePolicy;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.cr.core.trace.WholeAllocationParameterPlaceholder;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * Unsigned 64-bit host and GPU times at the extremes: the simulator computes with those it can (GPU times past 2^63
 * whose difference is small) and refuses the others up front, naming the event, instead of failing inside a run.
 */
class ExtremeTimesTest {
    private static final long A = 0x7f00_0000_0000L;

    private static Trace trace(long host, long gpuStart, long gpuEnd) {
        Dim3 one = new Dim3(1, 1, 1);
        return Trace.builder(TraceHeader.builder("t", "1").build())
                .function(new FunctionInfo(1, 1, "k", "k", List.of()))
                .event(new TraceEvent.Alloc(10, 1, A, 4096, AllocKind.PLAIN, 0))
                .event(new TraceEvent.Launch(20, 1, 1, one, one, 0, 0, new byte[8], 100, 200, LaunchKind.PLAIN, 0))
                .event(new TraceEvent.Launch(host, 1, 1, one, one, 0, 0, new byte[8], gpuStart, gpuEnd,
                        LaunchKind.PLAIN, 0))
                .build();
    }

    private static SimulationMetrics simulate(Trace t) {
        return Simulator.runInMemory(new TraceWorkload(t, "x", new WholeAllocationParameterPlaceholder(), null, true),
                MachineModel.h100(),
                new SoftCopyOnWritePolicy(SoftCheckpointOptions.phosDefaults(CheckpointInstant.atLaunch(1)))).metrics();
    }

    @Test
    void gpuTimesBeyondTwoToThe63WithASmallDifferenceAreSimulated() {
        Trace t = trace(30, Long.MIN_VALUE, Long.MIN_VALUE + 5_000); // GPU 2^63 .. 2^63 + 5000 ns
        assertNull(TraceWorkload.outOfRange(t));
        SimulationMetrics m = simulate(t);
        assertTrue(m.appEndNs() > 0 && m.appEndNs() < 1_000_000_000L, m.toString());
    }

    @Test
    void hostTimeTwoToThe64MinusOneIsRefusedNamingTheEvent() {
        Trace t = trace(-1L, 0, 0);
        assertEquals("event 2: host time 18446744073709551615 ns is beyond what the simulator computes with (below "
                + "2^62 ns, about 146 years after the start)", TraceWorkload.outOfRange(t));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> simulate(t));
        assertTrue(e.getMessage().startsWith("event 2: host time 18446744073709551615 ns"), e.getMessage());
    }

    @Test
    void gpuDurationsTooLongToAddUpAreRefused() {
        Trace t = trace(30, 1, -1L); // 2^64 - 2 ns of GPU time
        assertTrue(TraceWorkload.outOfRange(t).startsWith("event 2: GPU time 1 .. 18446744073709551615 ns brings"),
                TraceWorkload.outOfRange(t));
    }
}
