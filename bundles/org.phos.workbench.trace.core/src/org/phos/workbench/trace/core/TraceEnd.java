package org.phos.workbench.trace.core;

import java.util.List;

/**
 * What the recorder wrote on a clean close (the v1 {@code TraceEnd} message). A trace without it was not closed
 * cleanly ({@link Trace#end()} is {@code null}).
 *
 * @param eventCount    events the recorder wrote
 * @param droppedEvents events the recorder lost (its buffer overflowed)
 * @param endNs         host time of the close, ns in the header's clock domain since the trace start
 * @param unrecorded    calls that can change device memory and that the recorder passed through without an event,
 *                      counted per entry point (native-hooks/README.md "Entry points that can write device memory");
 *                      empty in traces of older recorders
 * @param timingGaps    intervals whose GPU times came from CUDA events although the trace is timed by CUPTI (the
 *                      recorder let go of CUPTI for a driver checkpoint, i14-cupti); empty when there were none
 */
public record TraceEnd(long eventCount, long droppedEvents, long endNs, List<UnrecordedCalls> unrecorded,
        List<TimingGap> timingGaps) {

    /** {@code count} successful calls of {@code call} changed memory without an event in the trace. */
    public record UnrecordedCalls(String call, long count) {
    }

    // i14-cupti: begin
    /**
     * From {@code startNs} to {@code endNs} (host ns since the trace start) the operations issued were timed by
     * {@code source} ("events"), for {@code reason} ("checkpoint": between the workbench's checkpoint-prepare and
     * checkpoint-done); operations whose CUPTI records had not come at the start are without GPU times.
     */
    public record TimingGap(long startNs, long endNs, String source, String reason) {
    }

    /** The timing gaps in one phrase for the GPU-timing figures ("" when there are none). */
    public String timingGapsText() {
        if (timingGaps.isEmpty()) {
            return "";
        }
        double ms = timingGaps.stream().mapToLong(g -> g.endNs() - g.startNs()).sum() / 1e6;
        return String.format(java.util.Locale.ROOT, "CUDA events instead of CUPTI in %d interval%s (%.1f ms, %s)",
                timingGaps.size(), timingGaps.size() == 1 ? "" : "s", ms, timingGaps.get(0).reason());
    }

    /** A TraceEnd without timing gaps. */
    public TraceEnd(long eventCount, long droppedEvents, long endNs, List<UnrecordedCalls> unrecorded) {
        this(eventCount, droppedEvents, endNs, unrecorded, List.of());
    }
    // i14-cupti: end

    public TraceEnd {
        unrecorded = List.copyOf(unrecorded);
        timingGaps = List.copyOf(timingGaps);
    }

    /** A TraceEnd without unrecorded calls (what recorders before issue 16 wrote). */
    public TraceEnd(long eventCount, long droppedEvents, long endNs) {
        this(eventCount, droppedEvents, endNs, List.of());
    }

    /** All unrecorded calls together (saturating at 2^64 - 1, unsigned). */
    public long unrecordedTotal() {
        long t = 0;
        for (UnrecordedCalls u : unrecorded) {
            t = Unsigned.add(t, u.count());
        }
        return t;
    }

    /**
     * One line per entry point: "trace may be incomplete: N calls to X that change memory were not recorded";
     * empty when every such call was recorded.
     */
    public List<String> incompleteWarnings() {
        return unrecorded.stream().filter(u -> u.count() != 0)
                .map(u -> "trace may be incomplete: " + Long.toUnsignedString(u.count()) + " calls to " + u.call()
                        + " that change memory were not recorded")
                .toList();
    }
}
