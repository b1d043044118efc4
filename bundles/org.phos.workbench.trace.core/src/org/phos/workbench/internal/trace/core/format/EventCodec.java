package org.phos.workbench.internal.trace.core.format;

import org.phos.workbench.internal.trace.core.model.EventSink;
import org.phos.workbench.trace.core.TraceEvent;

/**
 * Events on the wire. Encoding writes {@code Event} messages into an {@code EventBatch}; decoding walks an
 * {@code EventBatch} payload and hands each event to an {@link EventSink} (the columns, or the reader's look-ahead
 * buffer), holding the fields of the event being decoded in a reused scratch array (no object per event). Protobuf rules are kept: unknown fields are
 * skipped, the last value of a scalar wins, a repeated oneof member merges, a different one replaces it.
 */
public final class EventCodec {
    // Event fields
    private static final int HOST_NS = 1, THREAD = 2;
    static final int ALLOC = 10, FREE = 11, MEMCPY = 12, MEMSET = 13, LAUNCH = 14, SYNC = 15, GRAPH_LAUNCH = 16;
    static final int ARRAY = 17, TENSOR_MAP = 18; // i16-rec
    static final int ALLOCATOR_BLOCK = 19; // i15-alloc
    private static final int LAST_BODY = ALLOCATOR_BLOCK;

    private final ProtoWriter body = new ProtoWriter(256);
    private final ProtoWriter event = new ProtoWriter(256);

    // decoding scratch: v[f] is the varint field f of the current body when bit f of touched is set, else 0
    // (a mask instead of clearing the array for every event)
    private final long[] v = new long[17];
    // i16-rec: the repeated fields of a TensorMap body (dims 5, strides 6, box 7, element strides 8)
    private final long[][] rep = new long[9][5];
    private final int[] repN = new int[9];
    private int touched;
    private int bytesOffset;
    private int bytesLength;
    private final ProtoReader r = new ProtoReader(new byte[0], 0, 0);

    /** Appends {@code e} as field 2 (an Event) of the batch being built in {@code batch}. */
    void encode(TraceEvent e, ProtoWriter batch) {
        ProtoWriter b = body;
        b.reset();
        int field;
        switch (e) {
            case TraceEvent.Alloc a -> {
                field = ALLOC;
                b.uint64(1, a.address());
                b.uint64(2, a.size());
                b.uint64(3, code(a.allocKind().code(), a));
                b.uint64(4, a.stream());
            }
            case TraceEvent.Free f -> {
                field = FREE;
                b.uint64(1, f.address());
                b.uint64(2, code(f.allocKind().code(), f));
                b.uint64(3, f.stream());
            }
            case TraceEvent.Memcpy m -> {
                field = MEMCPY;
                b.uint64(1, code(m.copyKind().code(), m));
                b.uint64(2, m.src());
                b.uint64(3, m.dst());
                b.uint64(4, m.bytes());
                b.uint64(5, m.stream());
                b.bool(6, m.async());
                b.bytes(7, m.payload(), 0, m.payload().length);
                b.uint64(8, m.gpuStartNs());
                b.uint64(9, m.gpuEndNs());
            }
            case TraceEvent.Memset s -> {
                field = MEMSET;
                b.uint64(1, s.dst());
                b.uint64(2, s.bytes());
                b.uint32(3, s.value());
                b.uint32(4, s.elementSize());
                b.uint64(5, s.stream());
                b.bool(6, s.async());
                b.uint64(8, s.gpuStartNs());
                b.uint64(9, s.gpuEndNs());
            }
            case TraceEvent.Launch l -> {
                field = LAUNCH;
                b.uint32(1, l.function());
                b.uint32(2, l.grid().x());
                b.uint32(3, l.grid().y());
                b.uint32(4, l.grid().z());
                b.uint32(5, l.block().x());
                b.uint32(6, l.block().y());
                b.uint32(7, l.block().z());
                b.uint32(8, l.sharedMem());
                b.uint64(9, l.stream());
                b.bytes(10, l.params(), 0, l.params().length);
                b.uint64(11, l.gpuStartNs());
                b.uint64(12, l.gpuEndNs());
                b.uint64(13, code(l.launchKind().code(), l));
                b.uint64(14, l.graphLaunch());
            }
            case TraceEvent.Sync s -> {
                field = SYNC;
                b.uint64(1, code(s.syncKind().code(), s));
                b.uint64(2, s.stream());
                b.uint64(3, s.event());
                b.uint32(4, s.flags());
            }
            case TraceEvent.GraphLaunch g -> {
                field = GRAPH_LAUNCH;
                b.uint64(1, g.graphExec());
                b.uint64(2, g.stream());
                b.uint32(3, g.kernelNodes());
            }
            case TraceEvent.Unknown u -> throw new IllegalArgumentException(
                    "an event of unknown kind cannot be written: " + u);
            // i16-rec: begin
            case TraceEvent.CudaArray a -> {
                field = ARRAY;
                b.uint64(1, code(a.op().code(), a));
                b.uint64(2, a.handle());
                b.uint64(3, a.bytes());
                b.uint32(4, a.format());
                b.uint32(5, a.channels());
                b.uint64(6, a.width());
                b.uint64(7, a.height());
                b.uint64(8, a.depth());
                b.uint32(9, a.flags());
            }
            case TraceEvent.TensorMap t -> {
                field = TENSOR_MAP;
                b.uint64(1, code(t.mapKind().code(), t));
                b.uint64(2, t.address());
                b.uint32(3, t.dataType());
                b.uint32(4, t.rank());
                for (long d : t.dims()) {
                    b.tag(5, ProtoReader.VARINT);
                    b.rawVarint(d);
                }
                for (long d : t.strides()) {
                    b.tag(6, ProtoReader.VARINT);
                    b.rawVarint(d);
                }
                for (int d : t.box()) {
                    b.tag(7, ProtoReader.VARINT);
                    b.rawVarint(Integer.toUnsignedLong(d));
                }
                for (int d : t.elementStrides()) {
                    b.tag(8, ProtoReader.VARINT);
                    b.rawVarint(Integer.toUnsignedLong(d));
                }
                b.uint32(9, t.interleave());
                b.uint32(10, t.swizzle());
                b.uint32(11, t.l2Promotion());
                b.uint32(12, t.oobFill());
                b.bytes(13, t.map(), 0, t.map().length);
                b.uint64(14, t.extent());
            }
            // i16-rec: end
            case TraceEvent.AllocatorBlock a -> { // i15-alloc
                field = ALLOCATOR_BLOCK;
                b.uint64(1, code(a.action().code(), a));
                b.uint64(2, a.address());
                b.uint64(3, a.size());
                b.uint64(4, a.stream());
                b.uint32(5, a.device());
            }
        }
        ProtoWriter ev = event;
        ev.reset();
        ev.uint64(HOST_NS, e.hostNs());
        ev.uint32(THREAD, e.thread());
        ev.message(field, b);
        batch.message(2, ev);
    }

    private static int code(int code, TraceEvent e) {
        if (code < 0) {
            throw new IllegalArgumentException("an UNRECOGNIZED enum value cannot be written: " + e);
        }
        return code;
    }

    /**
     * Decodes the EventBatch in {@code buf[off, off + len)} into {@code out}; returns the number of events. On a
     * {@link WireFormatException} some events may have been appended: the caller rolls them back.
     *
     * @param expectedFirst index the batch's first event must have (events already loaded)
     */
    public int decodeBatch(byte[] buf, int off, int len, EventSink out, long expectedFirst)
            throws WireFormatException {
        ProtoReader r = this.r;
        r.reset(buf, off, off + len);
        long firstIndex = 0;
        int count = 0;
        while (r.more()) {
            int t = r.tag();
            if (t == (2 << 3 | ProtoReader.LEN)) {
                int n = r.length();
                int end = r.pos + n;
                decodeEvent(r, end, out);
                count++;
                r.pos = end;
                r.limit = off + len;
            } else if (t == (1 << 3)) {
                firstIndex = r.varint();
            } else {
                r.skip(t);
            }
        }
        if (firstIndex != expectedFirst) {
            throw new WireFormatException("batch first_index is " + Long.toUnsignedString(firstIndex)
                    + " but " + expectedFirst + " events precede it (a batch is missing or repeated)");
        }
        return count;
    }

    private void decodeEvent(ProtoReader r, int end, EventSink out) throws WireFormatException {
        int outer = r.limit;
        r.limit = end;
        long host = 0;
        int thread = 0;
        int kind = 0;
        touched = 0;
        while (r.pos < end) {
            int t = r.tag();
            int f = t >>> 3;
            if (t == (HOST_NS << 3)) {
                host = r.varint();
            } else if (t == (THREAD << 3)) {
                thread = (int) r.varint();
            } else if (f >= ALLOC && f <= LAST_BODY && (t & 7) == ProtoReader.LEN) {
                if (f != kind) {
                    touched = 0;
                    bytesOffset = 0;
                    bytesLength = 0;
                    java.util.Arrays.fill(repN, 0);
                    kind = f;
                }
                int n = r.length();
                decodeBody(r, r.pos + n, f);
                r.limit = end;
            } else {
                r.skip(t);
            }
        }
        r.limit = outer;
        switch (kind) {
            case ALLOC -> out.addAlloc(host, thread, val(1), val(2), (int) val(3), val(4));
            case FREE -> out.addFree(host, thread, val(1), (int) val(2), val(3));
            case MEMCPY -> out.addMemcpy(host, thread, (int) val(1), val(2), val(3), val(4), val(5), val(6) != 0, r.buf,
                    bytesOffset, bytesLength, val(8), val(9));
            case MEMSET -> out.addMemset(host, thread, val(1), val(2), (int) val(3), (int) val(4), val(5), val(6) != 0, val(8),
                    val(9));
            case LAUNCH -> out.addLaunch(host, thread, (int) val(1), (int) val(2), (int) val(3), (int) val(4), (int) val(5),
                    (int) val(6), (int) val(7), (int) val(8), val(9), r.buf, bytesOffset, bytesLength, val(11), val(12),
                    (int) val(13), gaps.isEmpty() ? val(14) : localIndex(val(14)));
            case SYNC -> out.addSync(host, thread, (int) val(1), val(2), val(3), (int) val(4));
            case GRAPH_LAUNCH -> out.addGraphLaunch(host, thread, val(1), val(2), (int) val(3));
            // i16-rec: begin
            case ARRAY -> out.addArray(new TraceEvent.CudaArray(host, thread,
                    org.phos.workbench.trace.core.ArrayOp.ofCode((int) val(1)), val(2), val(3), (int) val(4),
                    (int) val(5), val(6), val(7), val(8), (int) val(9)));
            case TENSOR_MAP -> out.addTensorMap(new TraceEvent.TensorMap(host, thread,
                    org.phos.workbench.trace.core.TensorMapKind.ofCode((int) val(1)), val(2), (int) val(3),
                    (int) val(4), java.util.Arrays.copyOf(rep[5], repN[5]), java.util.Arrays.copyOf(rep[6], repN[6]),
                    ints(7), ints(8), (int) val(9), (int) val(10), (int) val(11), (int) val(12),
                    java.util.Arrays.copyOfRange(r.buf, bytesOffset, bytesOffset + bytesLength), val(14)));
            // i16-rec: end
            case ALLOCATOR_BLOCK -> out.addAllocatorBlock(new TraceEvent.AllocatorBlock(host, thread, // i15-alloc
                    org.phos.workbench.trace.core.BlockAction.ofCode((int) val(1)), val(2), val(3), val(4),
                    (int) val(5)));
            default -> out.addUnknown(host, thread);
        }
    }

    /**
     * The gaps of a live attach stream read so far (docs/trace-format.md "Live attach"): a graph node's link (the
     * process's index of its GraphLaunch) becomes the index of that event among those held, -1 when it is in a gap.
     */
    private final java.util.List<org.phos.workbench.trace.core.StreamGap> gaps = new java.util.ArrayList<>();

    /** Events of the stream not held, from its gaps so far (the next batch starts at held + this). */
    private long skipped;

    void addGap(org.phos.workbench.trace.core.StreamGap gap) {
        gaps.add(gap);
        skipped += gap.count();
    }

    long skipped() {
        return skipped;
    }

    private long localIndex(long processIndex) {
        long before = 0;
        for (org.phos.workbench.trace.core.StreamGap g : gaps) {
            if (Long.compareUnsigned(processIndex, g.firstIndex()) < 0) {
                break;
            }
            if (Long.compareUnsigned(processIndex - g.firstIndex(), g.count()) < 0) {
                return -1;
            }
            before += g.count();
        }
        return processIndex - before;
    }

    private void repeated(int f, long x) {
        if (repN[f] < rep[f].length) {
            rep[f][repN[f]++] = x;
        }
    }

    private int[] ints(int f) {
        int[] a = new int[repN[f]];
        for (int i = 0; i < a.length; i++) {
            a[i] = (int) rep[f][i];
        }
        return a;
    }

    private long val(int f) {
        return (touched & (1 << f)) != 0 ? v[f] : 0;
    }

    private void decodeBody(ProtoReader r, int end, int kind) throws WireFormatException {
        r.limit = end;
        long[] v = this.v;
        int bytesField = kind == LAUNCH ? 10 : kind == MEMCPY ? 7 : kind == TENSOR_MAP ? 13 : -1;
        while (r.pos < end) {
            int t = r.tag();
            int f = t >>> 3;
            int wt = t & 7;
            if (kind == TENSOR_MAP && f >= 5 && f <= 8 && (wt == ProtoReader.VARINT || wt == ProtoReader.LEN)) {
                // i16-rec: repeated dims/strides/box/element strides, unpacked or packed; at most 5 (rank <= 5) kept
                if (wt == ProtoReader.LEN) {
                    int n = r.length();
                    int stop = r.pos + n;
                    while (r.pos < stop) {
                        repeated(f, r.varint());
                    }
                } else {
                    repeated(f, r.varint());
                }
            } else if (wt == ProtoReader.VARINT && f <= 16) {
                v[f] = r.varint();
                touched |= 1 << f;
            } else if (wt == ProtoReader.LEN && f == bytesField) {
                int n = r.length();
                bytesOffset = r.pos;
                bytesLength = n;
                r.pos += n;
            } else {
                r.skip(t);
            }
        }
    }
}
