package org.phos.workbench.trace.core;

import java.util.List;

/**
 * What instrumentation saw one launch do to one allocation: the byte ranges it read and wrote, and how many
 * accesses it counted (the v1 {@code ObservedAccess} message). This is the ground truth speculation is judged by.
 *
 * @param launchEvent event index of the {@link EventKind#LAUNCH} event
 * @param allocation  base address of the allocation touched, 0 when outside any allocation
 * @param read        ranges read, {@code [begin, end)}
 * @param written     ranges written
 * @param readCount   read accesses counted (per thread and instruction)
 * @param writeCount  write accesses counted
 * @param tool        who observed, e.g. {@code ptx-instrument} (a replay) or {@code sanitizer} (the real process)
 * @param flags       {@link #INPUTS_UNKNOWN} and future bits (v1 field 8; 0 in files written before it existed)
 */
public record ObservedAccess(long launchEvent, long allocation, List<AddressRange> read, List<AddressRange> written,
        long readCount, long writeCount, String tool, int flags) {

    /**
     * The observer did not know all the bytes this launch read (a replay whose host-to-device copies lacked their
     * payload, or memory written by launches it could not replay): addresses that depend on data may differ from
     * the real run's, so these ranges are not ground truth.
     */
    public static final int INPUTS_UNKNOWN = 1;

    public ObservedAccess {
        read = List.copyOf(read);
        written = List.copyOf(written);
    }

    /** A record without flags. */
    public ObservedAccess(long launchEvent, long allocation, List<AddressRange> read, List<AddressRange> written,
            long readCount, long writeCount, String tool) {
        this(launchEvent, allocation, read, written, readCount, writeCount, tool, 0);
    }

    /** @return whether the observer marked this record {@link #INPUTS_UNKNOWN} */
    public boolean inputsUnknown() {
        return (flags & INPUTS_UNKNOWN) != 0;
    }

    /** @return this record with {@code flag} set */
    public ObservedAccess withFlag(int flag) {
        return (flags & flag) == flag ? this
                : new ObservedAccess(launchEvent, allocation, read, written, readCount, writeCount, tool, flags | flag);
    }
}
