package org.phos.workbench.trace.core;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;

/**
 * A trace's observed accesses indexed by launch event. A record is used only when it names a {@link EventKind#LAUNCH}
 * event of the trace: records naming another kind of event or an index past the end (a side file of another run, a
 * defect of the observer) are left out and counted, with the first of them described in {@link #invalidWarning()},
 * so they never count as observed launches. A launch without any record is not observed: the index cannot tell
 * "touched nothing" from "not seen" (the sanitizer tool writes nothing for the kernel nodes of a multi-node graph
 * launch), and treats both as unobserved.
 */
public final class ObservedIndex {

    /** The distinct launch events with records, ascending. */
    private final int[] events;
    /** Records of {@code events[i]} are {@code sorted[starts[i]] .. sorted[starts[i + 1]]}, in the trace's order. */
    private final int[] starts;
    private final List<ObservedAccess> sorted;
    /** Which events have records: most launches of a large trace have none, and they are answered from here. */
    private final java.util.BitSet observed;
    private final long records;
    private final long invalid;
    private final @Nullable String firstInvalid;
    private final List<String> tools;

    private ObservedIndex(int[] events, int[] starts, List<ObservedAccess> sorted, java.util.BitSet observed,
            long records, long invalid, @Nullable String firstInvalid, List<String> tools) {
        this.events = events;
        this.starts = starts;
        this.sorted = sorted;
        this.observed = observed;
        this.records = records;
        this.invalid = invalid;
        this.firstInvalid = firstInvalid;
        this.tools = tools;
    }

    /**
     * @param trace the trace
     * @param tool index only records of this tool, or null for all
     * @return the index
     */
    public static ObservedIndex of(Trace trace, @Nullable String tool) {
        LinkedHashSet<String> tools = new LinkedHashSet<>();
        long invalid = 0;
        String first = null;
        long position = 0;
        List<ObservedAccess> all = trace.observedAccesses();
        String lastTool = null;
        // (event << 32 | position) of every valid record: sorting them groups each launch's records in trace order
        long[] keys = new long[Math.min(all.size(), Integer.MAX_VALUE - 8)];
        ObservedAccess[] valid = new ObservedAccess[keys.length];
        int n = 0;
        for (ObservedAccess a : all) {
            long at = position++;
            if (tool != null && !tool.equals(a.tool())) {
                continue;
            }
            long e = a.launchEvent();
            boolean inside = e >= 0 && e < trace.eventCount();
            if (!inside || trace.kind((int) e) != EventKind.LAUNCH) {
                if (invalid++ == 0) {
                    first = "observed record " + at + " (tool " + a.tool() + ") names event " + Long.toUnsignedString(e)
                            + (inside ? ", a " + trace.kind((int) e) + " event, not a launch"
                                    : ", past the trace's " + trace.eventCount() + " events");
                }
                continue;
            }
            if (!a.tool().equals(lastTool)) { // runs of one tool: hash its name (a string per record) once a run
                tools.add(a.tool());
                lastTool = a.tool();
            }
            keys[n] = e << 32 | n;
            valid[n] = a;
            n++;
        }
        boolean ordered = true; // observers write launches in order: then there is nothing to sort
        for (int i = 1; i < n && ordered; i++) {
            ordered = keys[i - 1] < keys[i];
        }
        if (!ordered) {
            Arrays.sort(keys, 0, n);
        }
        ObservedAccess[] sorted = new ObservedAccess[n];
        int[] events = new int[n];
        int[] starts = new int[n + 1];
        java.util.BitSet observed = new java.util.BitSet();
        int launches = 0;
        for (int i = 0; i < n; i++) {
            int e = (int) (keys[i] >>> 32);
            sorted[i] = valid[(int) keys[i]];
            if (launches == 0 || events[launches - 1] != e) {
                events[launches] = e;
                starts[launches] = i;
                launches++;
                observed.set(e);
            }
        }
        starts[launches] = n;
        return new ObservedIndex(Arrays.copyOf(events, launches), Arrays.copyOf(starts, launches + 1),
                Collections.unmodifiableList(Arrays.asList(sorted)), observed, n, invalid, first, List.copyOf(tools));
    }

    /** @return the launch events with at least one record, ascending */
    public java.util.Set<Integer> launches() {
        return new java.util.AbstractSet<>() {
            @Override
            public java.util.Iterator<Integer> iterator() {
                return Arrays.stream(events).iterator();
            }

            @Override
            public boolean contains(Object o) {
                return o instanceof Integer i && i >= 0 && observed.get(i);
            }

            @Override
            public int size() {
                return events.length;
            }
        };
    }

    /** @return the number of launches with at least one record */
    public int launchCount() {
        return events.length;
    }

    /** @return the records of launch event {@code event}, empty when it was not observed */
    public List<ObservedAccess> records(int event) {
        if (event < 0 || !observed.get(event)) {
            return List.of();
        }
        int i = Arrays.binarySearch(events, event);
        return sorted.subList(starts[i], starts[i + 1]);
    }

    /**
     * @return every record used, grouped by launch in ascending order of launch event and in the trace's order
     *         within a launch (random access): one pass over all of them without a look-up per launch
     */
    public List<ObservedAccess> records() {
        return sorted;
    }

    /** @return the records used (naming launches) */
    public long recordCount() {
        return records;
    }

    /** @return records left out because they name no launch of the trace */
    public long invalidCount() {
        return invalid;
    }

    /** @return the tools of the records used, in order of first appearance */
    public List<String> tools() {
        return tools;
    }

    /**
     * @return one line saying how many records were left out and which was the first, or null when none was
     */
    public @Nullable String invalidWarning() {
        return invalid == 0 ? null
                : invalid + " observed-access record" + (invalid == 1 ? " names" : "s name")
                        + " no launch of the trace and " + (invalid == 1 ? "is" : "are") + " ignored (first: "
                        + firstInvalid + "); was a side file of another run merged?";
    }
}
