package org.phos.workbench.cr.core;

import java.util.List;

/**
 * The consistency check of a run: every buffer whose image would not equal its state at the image's instant.
 *
 * @param checked whether any launch carried observed (true) accesses; without them nothing can be checked (copies
 *        and sets carry exact sets of their own, which do not count)
 * @param observedLaunches launches with observed accesses; launches without them are not checked
 * @param violations the violations, at most one per buffer and checkpoint, in detection order
 * @param affectedBytes sum of the sizes of the buffers with a violation
 */
public record ConsistencyReport(boolean checked, long observedLaunches, List<ConsistencyViolation> violations,
        long affectedBytes) {
    public ConsistencyReport {
        violations = List.copyOf(violations);
    }

    /** Whether the image is known to be consistent (checked and no violation). */
    public boolean consistent() {
        return checked && violations.isEmpty();
    }
}
