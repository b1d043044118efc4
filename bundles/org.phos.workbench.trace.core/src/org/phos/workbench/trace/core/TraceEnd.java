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
 */
public record TraceEnd(long eventCount, long droppedEvents, long endNs, List<UnrecordedCalls> unrecorded) {

    /** {@code count} successful calls of {@code call} changed memory without an event in the trace. */
    public record UnrecordedCalls(String call, long count) {
    }

    public TraceEnd {
        unrecorded = List.copyOf(unrecorded);
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
