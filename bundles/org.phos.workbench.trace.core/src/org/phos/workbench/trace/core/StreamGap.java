package org.phos.workbench.trace.core;

/**
 * Events of a recording process that a live attach stream does not hold (an EventGap chunk, docs/trace-format.md
 * "Live attach"): {@code count} events from the process's event index {@code firstIndex} on. They are in the
 * process's own trace file. A trace loaded from a stream numbers the events it holds densely from 0; the process's
 * index of a held event is its index plus the events of the gaps before it ({@link #processIndex}).
 *
 * @param firstIndex the process's index of the first missing event
 * @param count      how many events are missing
 * @param reason     why
 */
public record StreamGap(long firstIndex, long count, Reason reason) {
    /** Why a stream lacks events. */
    public enum Reason {
        /** Before the reader connected (except the allocations still live then, which it got). */
        ATTACHED_LATE(1),
        /** The reader fell behind: its queue in the recorder was full and the batch was dropped for it. */
        READER_BEHIND(2),
        /** A reason this reader does not know (a newer recorder). */
        UNRECOGNIZED(-1);

        private final int code;

        Reason(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        public static Reason ofCode(long code) {
            return code == 1 ? ATTACHED_LATE : code == 2 ? READER_BEHIND : UNRECOGNIZED;
        }
    }

    /**
     * The process's event index of event {@code localIndex} of a trace loaded with these gaps (in stream order).
     */
    public static long processIndex(java.util.List<StreamGap> gaps, long localIndex) {
        long skipped = 0;
        for (StreamGap g : gaps) {
            if (g.firstIndex() - skipped > localIndex) {
                break;
            }
            skipped += g.count();
        }
        return localIndex + skipped;
    }
}
