package org.phos.workbench.internal.ui.buffers;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.AccessAnswer;
import org.phos.workbench.analysis.core.AccessRow;
import org.phos.workbench.trace.core.AddressRange;

/**
 * What the memory map draws for the selected launch: its time marker and, per allocation that the engine or a tool
 * names, the engine's speculated byte ranges (read and written united) and the observed read and written ranges
 * (every tool united), in absolute addresses. Built from the analysis layer's {@link AccessAnswer}, the same answer
 * the {@code accesses} command prints.
 *
 * @param launch the launch (dense index)
 * @param event its event index
 * @param engine the engine whose speculation is drawn
 * @param tools the tools whose records are drawn
 * @param allocations one entry per named allocation, by base address
 * @param note why the truth is not used (unreliable), or null
 */
record LaunchOverlay(int launch, int event, String engine, List<String> tools, List<Named> allocations,
        @Nullable String note) {

    /** One allocation the launch names, with its ranges (absolute addresses, merged, ascending). */
    record Named(long allocatedAt, long base, long size, List<AddressRange> speculated,
            List<AddressRange> observedRead, List<AddressRange> observedWritten) {
    }

    static LaunchOverlay of(AccessAnswer answer, int event) {
        List<Named> named = new ArrayList<>();
        for (AccessRow r : answer.table().rows()) {
            List<AddressRange> speculated = new ArrayList<>(r.engines().get(0).read());
            speculated.addAll(r.engines().get(0).written());
            List<AddressRange> read = new ArrayList<>();
            List<AddressRange> written = new ArrayList<>();
            for (AccessRow.ToolSide t : r.tools()) {
                read.addAll(t.read());
                written.addAll(t.written());
            }
            named.add(new Named(r.allocatedAt(), r.base(), r.size(), merge(speculated), merge(read), merge(written)));
        }
        return new LaunchOverlay(answer.query().launch(), event, answer.query().engines().get(0), answer.tools(),
                List.copyOf(named), answer.unreliable());
    }

    /** @return the ranges sorted and merged where they overlap or touch */
    static List<AddressRange> merge(List<AddressRange> ranges) {
        List<AddressRange> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparing(AddressRange::begin, Long::compareUnsigned));
        List<AddressRange> out = new ArrayList<>();
        for (AddressRange r : sorted) {
            AddressRange last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && Long.compareUnsigned(r.begin(), last.end()) <= 0) {
                if (Long.compareUnsigned(r.end(), last.end()) > 0) {
                    out.set(out.size() - 1, new AddressRange(last.begin(), r.end()));
                }
            } else {
                out.add(r);
            }
        }
        return List.copyOf(out);
    }
}
