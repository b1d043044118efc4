package org.phos.workbench.trace.core;

/**
 * Something strange in a well-formed trace: every chunk decoded, but what the events say cannot all be true (an
 * allocation overlapping a live one, a stream used that was never created, a GPU end before its start, a time no
 * real trace can have). The trace still loads; analyses built on it may be wrong, so every command reports these.
 * {@link TraceAnomalies#find(Trace)} gives each {@link Kind} at most once, with how often it occurred and where
 * first.
 *
 * @param kind       what is strange
 * @param count      how many times it occurs in the trace
 * @param firstEvent event index of the first occurrence, or -1 when it is not about an event (duplicate ids,
 *                   chunks)
 * @param first      the first occurrence, for a person (values as unsigned decimal)
 */
public record TraceAnomaly(Kind kind, long count, long firstEvent, String first) {

    /** Largest plausible time in ns since the trace start: 2^62 ns, about 146 years. */
    public static final long MAX_PLAUSIBLE_NS = 1L << 62;
    /** Largest plausible size of one allocation, copy or fill: 2^48 bytes (256 TiB), beyond any GPU's memory. */
    public static final long MAX_PLAUSIBLE_BYTES = 1L << 48;

    /** The kinds of anomaly, each with the sentence that describes it. */
    public enum Kind {
        /** A host or GPU time at or beyond {@link #MAX_PLAUSIBLE_NS}. */
        TIME_OUT_OF_RANGE("time beyond any real trace (plausible: 0 .. 2^62 ns, about 146 years, after the start)"),
        /** An allocation, copy or fill size at or beyond {@link #MAX_PLAUSIBLE_BYTES}, or a range past 2^64. */
        SIZE_OUT_OF_RANGE("size beyond any real GPU (plausible: below 2^48 bytes = 256 TiB, range ending by 2^64)"),
        /** Host time of a thread's event earlier than that thread's previous event. */
        HOST_TIME_BACKWARDS("host time going backwards on a thread"),
        /** A timed GPU operation whose GPU end is before its start. */
        GPU_TIME_INVERTED("GPU end time before GPU start time"),
        /** An allocation overlapping an allocation that is still live. */
        OVERLAPPING_ALLOCATIONS("allocation overlapping a live allocation"),
        /** A stream other than the default ones (0, 1, 2) used before any STREAM_CREATE of it. */
        STREAM_NOT_CREATED("stream used without being created (no STREAM_CREATE before)"),
        /** A CUDA event recorded, waited for or destroyed before any EVENT_CREATE of it. */
        CUDA_EVENT_NOT_CREATED("CUDA event used without being created (no EVENT_CREATE before)"),
        /** A graph-node launch whose graph launch is not an earlier GRAPH_LAUNCH event. */
        BROKEN_GRAPH_LINK("graph-node launch naming no earlier graph launch"),
        /** A launch of a function id that no Function chunk defines. */
        UNDEFINED_FUNCTION("launch of a function the trace never defines"),
        /** A function whose module id no Module chunk defines. */
        UNDEFINED_MODULE("function of a module the trace never defines"),
        /** Two Module chunks with the same id (the first is used). */
        DUPLICATE_MODULE_ID("module id defined more than once (the first definition is used)"),
        /** Two Function chunks with the same id (the first is used). */
        DUPLICATE_FUNCTION_ID("function id defined more than once (the first definition is used)"),
        /** More than one TraceEnd chunk (the last is used). */
        SECOND_TRACE_END("more than one TraceEnd chunk (the last is used)"),
        /** More than one TraceHeader chunk (the first is used). */
        SECOND_TRACE_HEADER("more than one TraceHeader chunk (the first is used)"),
        /** The TraceHeader's format version differs from the file header's. */
        FORMAT_VERSION_MISMATCH("TraceHeader claims another format version than the file (read as version 1)");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        /** One sentence for a person. */
        public String description() {
            return description;
        }
    }

    /**
     * One line: what, how often, where first; e.g. {@code "GPU end time before GPU start time: 3 times, first at
     * event 17 (launch GPU time 5000 .. 100 ns)"}.
     */
    public String message() {
        return kind.description + ": " + Long.toUnsignedString(count) + (count == 1 ? " time" : " times")
                + (firstEvent >= 0 ? ", first at event " + firstEvent : "")
                + (first.isEmpty() ? "" : " (" + first + ")");
    }

    @Override
    public String toString() {
        return message();
    }
}
