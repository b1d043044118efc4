package org.phos.workbench.internal.ui.trace;

import org.eclipse.core.runtime.jobs.ISchedulingRule;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * Scheduling rules about one opened trace. {@link #opening} orders the work done right after a trace loaded: the
 * Launches view's first listing takes it, and the editor's overview (a walk over every event) takes it too, so on a
 * two-core machine the overview waits until the first table is there instead of competing with it.
 */
public final class TraceJobs {
    private TraceJobs() {
    }

    /** The rule of the work that follows the load of {@code trace}; rules of two traces do not conflict. */
    public static ISchedulingRule opening(LoadedTrace trace) {
        return new Opening(trace);
    }

    private record Opening(LoadedTrace trace) implements ISchedulingRule {
        @Override
        public boolean contains(ISchedulingRule rule) {
            return isConflicting(rule);
        }

        @Override
        public boolean isConflicting(ISchedulingRule rule) {
            return rule instanceof Opening o && o.trace == trace;
        }
    }
}
