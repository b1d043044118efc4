package org.phos.workbench.internal.trace.core.format;

import org.phos.workbench.internal.trace.core.model.EventSink;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.StreamGap;
import org.phos.workbench.trace.core.StreamStart;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * Decodes the payloads of a live attach stream's chunks one at a time (the attach package reads chunks from a socket,
 * not from a file). Keeps the stream's event position: EventGap chunks advance it like the file loader's.
 */
public final class StreamChunkDecoder {
    private final EventCodec codec = new EventCodec();
    private long held;

    public TraceHeader header(byte[] payload) throws WireFormatException {
        return Messages.decodeHeader(new ProtoReader(payload, 0, payload.length));
    }

    public FunctionInfo function(byte[] payload) throws WireFormatException {
        return Messages.decodeFunction(new ProtoReader(payload, 0, payload.length));
    }

    public StreamStart streamStart(byte[] payload) throws WireFormatException {
        return Messages.decodeStreamStart(new ProtoReader(payload, 0, payload.length));
    }

    public TraceEnd end(byte[] payload) throws WireFormatException {
        return Messages.decodeEnd(new ProtoReader(payload, 0, payload.length));
    }

    /** An EventGap: checked against the events so far, then counted. */
    public StreamGap gap(byte[] payload) throws WireFormatException {
        StreamGap g = Messages.decodeGap(new ProtoReader(payload, 0, payload.length));
        if (g.firstIndex() != held + codec.skipped()) {
            throw new WireFormatException("EventGap first_index is " + Long.toUnsignedString(g.firstIndex()) + " but "
                    + (held + codec.skipped()) + " events precede it");
        }
        codec.addGap(g);
        return g;
    }

    /** An EventBatch into {@code sink}; returns the number of events. */
    public int events(byte[] payload, EventSink sink) throws WireFormatException {
        int n = codec.decodeBatch(payload, 0, payload.length, sink, held + codec.skipped());
        held += n;
        return n;
    }

    // i14-liveacc: begin
    /** The highest launch index (the process's) an ObservedBatch names; -1 for none. */
    public long observedLastLaunch(byte[] payload) throws WireFormatException {
        return Messages.observedBatchLastLaunch(payload);
    }

    /** The launches an ObservedGap chunk says this reader missed the observations of. */
    public long observedGap(byte[] payload) throws WireFormatException {
        return Messages.observedGapLaunches(payload);
    }
    // i14-liveacc: end

    /** Events received so far. */
    public long held() {
        return held;
    }

    /** Events of the process the stream did not carry so far (its gaps). */
    public long skipped() {
        return codec.skipped();
    }
}
