package org.phos.workbench.trace.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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

    private final Map<Integer, List<ObservedAccess>> byLaunch;
    private final long records;
    private final long invalid;
    private final @Nullable String firstInvalid;
    private final List<String> tools;

    private ObservedIndex(Map<Integer, List<ObservedAccess>> byLaunch, long records, long invalid,
            @Nullable String firstInvalid, List<String> tools) {
        this.byLaunch = byLaunch;
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
        Map<Integer, List<ObservedAccess>> byLaunch = new TreeMap<>();
        LinkedHashSet<String> tools = new LinkedHashSet<>();
        long records = 0;
        long invalid = 0;
        String first = null;
        long position = 0;
        for (ObservedAccess a : trace.observedAccesses()) {
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
            records++;
            tools.add(a.tool());
            byLaunch.computeIfAbsent((int) e, k -> new ArrayList<>()).add(a);
        }
        return new ObservedIndex(Collections.unmodifiableMap(byLaunch), records, invalid, first, List.copyOf(tools));
    }

    /** @return the launch events with at least one record, ascending */
    public java.util.Set<Integer> launches() {
        return byLaunch.keySet();
    }

    /** @return the number of launches with at least one record */
    public int launchCount() {
        return byLaunch.size();
    }

    /** @return the records of launch event {@code event}, empty when it was not observed */
    public List<ObservedAccess> records(int event) {
        List<ObservedAccess> r = byLaunch.get(event);
        return r == null ? List.of() : Collections.unmodifiableList(r);
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
