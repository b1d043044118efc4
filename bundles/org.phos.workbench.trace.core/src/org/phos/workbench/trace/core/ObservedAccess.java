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
 * @param tool        who observed, e.g. {@code ptx-instrument}
 */
public record ObservedAccess(long launchEvent, long allocation, List<AddressRange> read, List<AddressRange> written,
        long readCount, long writeCount, String tool) {
    public ObservedAccess {
        read = List.copyOf(read);
        written = List.copyOf(written);
    }
}
