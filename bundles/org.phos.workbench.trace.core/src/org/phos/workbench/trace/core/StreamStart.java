package org.phos.workbench.trace.core;

/**
 * Where a live attach stream joined its process (the StreamStart chunk, docs/trace-format.md "Live attach").
 *
 * @param firstLiveIndex  the process's index of the first event the stream carries as it is written
 * @param eventsSoFar     events the recorder had encoded when the reader connected
 * @param droppedSoFar    events the recorder's own ring had dropped by then
 * @param tracePath       the process's trace file (all events, those before the reader too)
 * @param pid             the process
 * @param liveAllocations allocations still live when the reader joined (sent at their own indices)
 * @param attachedNs      when the reader was accepted, ns since the trace start
 */
public record StreamStart(long firstLiveIndex, long eventsSoFar, long droppedSoFar, String tracePath, long pid,
        long liveAllocations, long attachedNs) {
}
