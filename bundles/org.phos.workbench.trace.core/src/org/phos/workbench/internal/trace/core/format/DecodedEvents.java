package org.phos.workbench.internal.trace.core.format;

import java.util.Arrays;

import org.phos.workbench.internal.trace.core.model.EventSink;

/**
 * The events of one EventBatch chunk, decoded on the reader's look-ahead thread and buffered in primitive arrays, so
 * that the loading thread only appends them to the columns ({@link #replayInto}): the protobuf decoding, the larger
 * half of the work, then runs beside the appending on a second core. Byte slices (launch parameters, copy payloads)
 * are kept as offsets into the chunk's payload, which the loader holds until it has replayed them. Reused from chunk
 * to chunk.
 */
final class DecodedEvents implements EventSink {
    private static final byte ALLOC = 1, FREE = 2, MEMCPY = 3, MEMSET = 4, LAUNCH = 5, SYNC = 6, GRAPH_LAUNCH = 7,
            UNKNOWN = 8, RARE = 9;
    /** i16-rec: array and tensor map events, rare, buffered as their records (a RARE entry holds the list index). */
    private final java.util.List<org.phos.workbench.trace.core.TraceEvent> rare = new java.util.ArrayList<>();

    private byte[] kinds = new byte[1024];
    private long[] values = new long[16 * 1024];
    private int count;
    private int size;
    /** Index of the first event, as the batch's first_index gave it. */
    long first;

    void reset() {
        count = 0;
        size = 0;
        rare.clear();
    }

    int count() {
        return count;
    }

    /** Room for one more event of up to 18 values. */
    private long[] begin(byte kind) {
        if (count == kinds.length) {
            kinds = Arrays.copyOf(kinds, count * 2);
        }
        kinds[count++] = kind;
        if (size + 18 > values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        return values;
    }

    @Override
    public void addAlloc(long host, int thr, long address, long size, int kindCode, long stream) {
        long[] v = begin(ALLOC);
        int s = this.size;
        v[s] = host;
        v[s + 1] = thr;
        v[s + 2] = address;
        v[s + 3] = size;
        v[s + 4] = kindCode;
        v[s + 5] = stream;
        this.size = s + 6;
    }

    @Override
    public void addFree(long host, int thr, long address, int kindCode, long stream) {
        long[] v = begin(FREE);
        int s = size;
        v[s] = host;
        v[s + 1] = thr;
        v[s + 2] = address;
        v[s + 3] = kindCode;
        v[s + 4] = stream;
        size = s + 5;
    }

    @Override
    public void addMemcpy(long host, int thr, int kindCode, long src, long dst, long bytes, long stream, boolean async,
            byte[] payload, int payloadOffset, int payloadLength, long gpuStart, long gpuEnd) {
        long[] v = begin(MEMCPY);
        int s = size;
        v[s] = host;
        v[s + 1] = thr;
        v[s + 2] = kindCode;
        v[s + 3] = src;
        v[s + 4] = dst;
        v[s + 5] = bytes;
        v[s + 6] = stream;
        v[s + 7] = async ? 1 : 0;
        v[s + 8] = slice(payloadOffset, payloadLength);
        v[s + 9] = gpuStart;
        v[s + 10] = gpuEnd;
        size = s + 11;
    }

    @Override
    public void addMemset(long host, int thr, long dst, long bytes, int value, int elementSize, long stream,
            boolean async, long gpuStart, long gpuEnd) {
        long[] v = begin(MEMSET);
        int s = size;
        v[s] = host;
        v[s + 1] = thr;
        v[s + 2] = dst;
        v[s + 3] = bytes;
        v[s + 4] = value;
        v[s + 5] = elementSize;
        v[s + 6] = stream;
        v[s + 7] = async ? 1 : 0;
        v[s + 8] = gpuStart;
        v[s + 9] = gpuEnd;
        size = s + 10;
    }

    @Override
    public void addLaunch(long host, int thr, int function, int gx, int gy, int gz, int bx, int by, int bz, int shm,
            long stream, byte[] buf, int paramOffset, int paramLength, long gpuStart, long gpuEnd, int kindCode,
            long graphLaunch) {
        long[] v = begin(LAUNCH);
        int s = size;
        v[s] = host;
        v[s + 1] = (long) thr << 32 | (function & 0xffffffffL);
        v[s + 2] = (long) gx << 32 | (gy & 0xffffffffL);
        v[s + 3] = (long) gz << 32 | (bx & 0xffffffffL);
        v[s + 4] = (long) by << 32 | (bz & 0xffffffffL);
        v[s + 5] = (long) shm << 32 | (kindCode & 0xffffffffL);
        v[s + 6] = stream;
        v[s + 7] = slice(paramOffset, paramLength);
        v[s + 8] = gpuStart;
        v[s + 9] = gpuEnd;
        v[s + 10] = graphLaunch;
        size = s + 11;
    }

    @Override
    public void addSync(long host, int thr, int kindCode, long stream, long cudaEvent, int flags) {
        long[] v = begin(SYNC);
        int s = size;
        v[s] = host;
        v[s + 1] = thr;
        v[s + 2] = kindCode;
        v[s + 3] = stream;
        v[s + 4] = cudaEvent;
        v[s + 5] = flags;
        size = s + 6;
    }

    @Override
    public void addGraphLaunch(long host, int thr, long exec, long stream, int kernelNodes) {
        long[] v = begin(GRAPH_LAUNCH);
        int s = size;
        v[s] = host;
        v[s + 1] = thr;
        v[s + 2] = exec;
        v[s + 3] = stream;
        v[s + 4] = kernelNodes;
        size = s + 5;
    }

    @Override
    public void addUnknown(long host, int thr) {
        long[] v = begin(UNKNOWN);
        int s = size;
        v[s] = host;
        v[s + 1] = thr;
        size = s + 2;
    }

    // i16-rec: begin
    @Override
    public void addArray(org.phos.workbench.trace.core.TraceEvent.CudaArray a) {
        rareEvent(a);
    }

    @Override
    public void addTensorMap(org.phos.workbench.trace.core.TraceEvent.TensorMap t) {
        rareEvent(t);
    }

    @Override
    public void addAllocatorBlock(org.phos.workbench.trace.core.TraceEvent.AllocatorBlock b) { // i15-alloc
        rareEvent(b);
    }

    private void rareEvent(org.phos.workbench.trace.core.TraceEvent e) {
        long[] v = begin(RARE);
        v[size++] = rare.size();
        rare.add(e);
    }
    // i16-rec: end

    private static long slice(int offset, int length) {
        return (long) offset << 32 | (length & 0xffffffffL);
    }

    private static int hi(long v) {
        return (int) (v >> 32);
    }

    private static int lo(long v) {
        return (int) v;
    }

    /**
     * Hands the buffered events to {@code out} in order.
     *
     * @param payload the chunk payload the byte slices point into
     */
    void replayInto(EventSink out, byte[] payload) {
        long[] v = values;
        byte[] k = kinds;
        int s = 0;
        for (int e = 0; e < count; e++) {
            switch (k[e]) {
                case ALLOC -> {
                    out.addAlloc(v[s], (int) v[s + 1], v[s + 2], v[s + 3], (int) v[s + 4], v[s + 5]);
                    s += 6;
                }
                case FREE -> {
                    out.addFree(v[s], (int) v[s + 1], v[s + 2], (int) v[s + 3], v[s + 4]);
                    s += 5;
                }
                case MEMCPY -> {
                    out.addMemcpy(v[s], (int) v[s + 1], (int) v[s + 2], v[s + 3], v[s + 4], v[s + 5], v[s + 6],
                            v[s + 7] != 0, payload, hi(v[s + 8]), lo(v[s + 8]), v[s + 9], v[s + 10]);
                    s += 11;
                }
                case MEMSET -> {
                    out.addMemset(v[s], (int) v[s + 1], v[s + 2], v[s + 3], (int) v[s + 4], (int) v[s + 5], v[s + 6],
                            v[s + 7] != 0, v[s + 8], v[s + 9]);
                    s += 10;
                }
                case LAUNCH -> {
                    out.addLaunch(v[s], hi(v[s + 1]), lo(v[s + 1]), hi(v[s + 2]), lo(v[s + 2]), hi(v[s + 3]),
                            lo(v[s + 3]), hi(v[s + 4]), lo(v[s + 4]), hi(v[s + 5]), v[s + 6], payload, hi(v[s + 7]),
                            lo(v[s + 7]), v[s + 8], v[s + 9], lo(v[s + 5]), v[s + 10]);
                    s += 11;
                }
                case SYNC -> {
                    out.addSync(v[s], (int) v[s + 1], (int) v[s + 2], v[s + 3], v[s + 4], (int) v[s + 5]);
                    s += 6;
                }
                case GRAPH_LAUNCH -> {
                    out.addGraphLaunch(v[s], (int) v[s + 1], v[s + 2], v[s + 3], (int) v[s + 4]);
                    s += 5;
                }
                case RARE -> { // i16-rec
                    org.phos.workbench.trace.core.TraceEvent r = rare.get((int) v[s]);
                    if (r instanceof org.phos.workbench.trace.core.TraceEvent.CudaArray a) {
                        out.addArray(a);
                    } else if (r instanceof org.phos.workbench.trace.core.TraceEvent.TensorMap t) {
                        out.addTensorMap(t);
                    } else if (r instanceof org.phos.workbench.trace.core.TraceEvent.AllocatorBlock b) {
                        out.addAllocatorBlock(b); // i15-alloc
                    }
                    s += 1;
                }
                default -> {
                    out.addUnknown(v[s], (int) v[s + 1]);
                    s += 2;
                }
            }
        }
    }
}
