package org.phos.workbench.cr.core.trace;

import java.util.Arrays;

import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;

/**
 * The simulation's buffers of a trace mapped back to the trace: buffer {@code b} of a {@link TraceWorkload} (the id in
 * {@code ConsistencyViolation.buffer()}, {@code BufferRange.buffer()}, ...) is the allocation whose Alloc event is
 * {@code allocationEvent(b)}. Buffer ids are dense in allocation order over the device allocations the workload
 * accepts; this class replays the allocations and frees exactly as the workload's pass does ({@link LiveBuffers}:
 * pinned host memory, empty and overlapping allocations are not buffers), so the two numberings cannot drift apart.
 * One pass over the events' kinds; launches are not looked at.
 */
public final class TraceBuffers {
    private final int[] allocationEvents;

    private TraceBuffers(int[] allocationEvents) {
        this.allocationEvents = allocationEvents;
    }

    /** The buffers of {@code trace} as a {@link TraceWorkload} over it numbers them. */
    public static TraceBuffers of(Trace trace) {
        LiveBuffers live = new LiveBuffers();
        int[] events = new int[64];
        int count = 0;
        for (int e = 0; e < trace.eventCount(); e++) {
            EventKind kind = trace.kind(e);
            if (kind == EventKind.ALLOC) {
                if (trace.allocKind(e) == AllocKind.HOST_PINNED) {
                    continue;
                }
                int id = live.add(trace.address(e), trace.size(e));
                if (id >= 0) {
                    if (id >= events.length) {
                        events = Arrays.copyOf(events, Math.max(id + 1, events.length * 2));
                    }
                    events[id] = e;
                    count = id + 1;
                }
            } else if (kind == EventKind.FREE) {
                live.remove(trace.address(e));
            }
        }
        return new TraceBuffers(Arrays.copyOf(events, count));
    }

    /** How many buffers the workload has. */
    public int count() {
        return allocationEvents.length;
    }

    /** The Alloc event index of buffer {@code buffer}, or -1 when the workload has no such buffer. */
    public int allocationEvent(int buffer) {
        return buffer >= 0 && buffer < allocationEvents.length ? allocationEvents[buffer] : -1;
    }
}
