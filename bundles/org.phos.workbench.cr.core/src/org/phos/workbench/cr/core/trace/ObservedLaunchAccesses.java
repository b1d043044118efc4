package org.phos.workbench.cr.core.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;

/**
 * The observed accesses recorded in a trace (instrumentation's ground truth), indexed by launch. Launches without
 * any observed record are unknown ({@code null}), not "touches nothing".
 */
public final class ObservedLaunchAccesses implements LaunchAccessSource {
    private final Map<Long, LaunchAccesses> byLaunch = new HashMap<>();

    public ObservedLaunchAccesses(Trace trace) {
        Map<Long, List<AddressRange>> reads = new HashMap<>();
        Map<Long, List<AddressRange>> writes = new HashMap<>();
        for (ObservedAccess a : trace.observedAccesses()) {
            reads.computeIfAbsent(a.launchEvent(), k -> new ArrayList<>()).addAll(a.read());
            writes.computeIfAbsent(a.launchEvent(), k -> new ArrayList<>()).addAll(a.written());
        }
        for (Long launch : reads.keySet()) {
            byLaunch.put(launch, new LaunchAccesses(reads.get(launch), writes.getOrDefault(launch, List.of())));
        }
    }

    /** Whether the trace carries any observed access. */
    public boolean isEmpty() {
        return byLaunch.isEmpty();
    }

    @Override
    public String name() {
        return "observed";
    }

    @Override
    public @Nullable LaunchAccesses accesses(Trace trace, int eventIndex, LiveBuffers live) {
        return byLaunch.get((long) eventIndex);
    }
}
