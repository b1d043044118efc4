package org.phos.workbench.cr.core.trace;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.Trace;

/**
 * Where the read and write sets of launches come from: a speculation engine (wrap it in an implementation of this
 * interface), the observed accesses of an instrumented trace ({@link ObservedLaunchAccesses}), or
 * {@link WholeAllocationParameterPlaceholder}.
 */
public interface LaunchAccessSource {

    /** Name for reports ("observed", "signature engine", ...). */
    String name();

    /**
     * The accesses of the launch at event index {@code eventIndex}, or {@code null} when this source knows nothing
     * about it. {@code live} holds the device allocations live just before the launch (ids are buffer ids).
     */
    @Nullable LaunchAccesses accesses(Trace trace, int eventIndex, LiveBuffers live);
}
