package org.phos.workbench.cr.core.trace;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.Trace;

/**
 * PLACEHOLDER, not a speculation engine: every 8-byte-aligned word of a launch's parameter buffer that points into a
 * live allocation makes that whole allocation read and written (no const analysis, nothing read-only, no pointers
 * inside structs at odd offsets, no pointers stored in device memory). It exists so that simulations run before the
 * speculation engines are wired in; results with it over-approximate writes and can miss any write through an
 * indirect pointer. Use a real engine or {@link ObservedLaunchAccesses} for figures worth reporting.
 */
public final class WholeAllocationParameterPlaceholder implements LaunchAccessSource {

    @Override
    public String name() {
        return "placeholder: whole allocations from parameter words";
    }

    @Override
    public @Nullable LaunchAccesses accesses(Trace trace, int eventIndex, LiveBuffers live) {
        int n = trace.paramLength(eventIndex);
        List<AddressRange> hits = new ArrayList<>(4);
        for (int off = 0; off + 8 <= n; off += 8) {
            long word = trace.paramLong(eventIndex, off);
            int b = live.find(word);
            if (b >= 0) {
                AddressRange r = new AddressRange(live.base(b), live.base(b) + live.size(b));
                if (!hits.contains(r)) {
                    hits.add(r);
                }
            }
        }
        return new LaunchAccesses(hits, hits);
    }
}
