package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CopierOrder;
import org.phos.workbench.cr.core.CoordinatedTransferPolicy;
import org.phos.workbench.cr.core.CrPolicies;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.SoftCopyOnWritePolicy;
import org.phos.workbench.cr.core.SoftOnDemandRestorePolicy;
import org.phos.workbench.cr.core.Staging;

class CrPoliciesTest {

    @Test
    void everyNameBuildsItsPolicy() {
        for (String n : CrPolicies.NAMES) {
            String name = CrPolicies.parse(n).name();
            assertTrue(n.equals(name) || n.equals("on-demand-restore") && name.equals("soft-on-demand-restore"),
                    n + " -> " + name);
        }
    }

    @Test
    void parametersReachTheOptions() {
        SoftCopyOnWritePolicy p = (SoftCopyOnWritePolicy) CrPolicies
                .parse("soft-cow:at=launch:1000,order=first-use,chunk=4MiB,budget=2GiB,staging=pinned,cow=false");
        assertEquals(new SoftCheckpointOptions(CheckpointInstant.atLaunch(1000), CopierOrder.FIRST_USE, 4L << 20,
                2L << 30, Staging.PINNED, false), p.options());
        CoordinatedTransferPolicy c = (CoordinatedTransferPolicy) CrPolicies.parse("coordinated:at=200ms");
        assertEquals(SoftCheckpointOptions.COORDINATED_CHUNK, c.options().chunkBytes());
        assertEquals(Staging.PAGEABLE, c.options().staging(), "PhOS's staging by default");
        assertInstanceOf(SoftOnDemandRestorePolicy.class, CrPolicies.parse("on-demand-restore:prefetch=on,pool=off"));
    }

    @Test
    void mistakesAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CrPolicies.parse("magic"));
        assertTrue(e.getMessage().contains("magic") && e.getMessage().contains("soft-cow"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CrPolicies.parse("soft-cow:colour=red"));
        assertTrue(e.getMessage().contains("colour"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CrPolicies.parse("soft-cow:order=random"));
        assertTrue(e.getMessage().contains("random"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CrPolicies.parse("repeated:interval=0"));
        assertTrue(e.getMessage().contains("interval"), e.getMessage());
    }
}
