package org.phos.workbench.trace.core;

/**
 * What the recorder wrote on a clean close (the v1 {@code TraceEnd} message). A trace without it was not closed
 * cleanly ({@link Trace#end()} is {@code null}).
 *
 * @param eventCount    events the recorder wrote
 * @param droppedEvents events the recorder lost (its buffer overflowed)
 * @param endNs         host time of the close, ns in the header's clock domain since the trace start
 */
public record TraceEnd(long eventCount, long droppedEvents, long endNs) {
}
