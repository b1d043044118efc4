package org.phos.workbench.trace.core;

import java.util.Arrays;

/**
 * One event as a value: what {@link TraceWriter#write(TraceEvent)} takes and {@link Trace#event(int)} returns.
 * The model itself stores events in columns (read them with the column accessors of {@link Trace}); these records
 * are for writing, tests and showing one event, not for walking millions.
 * <p>
 * Every event has {@code hostNs} (ns since the trace start) and {@code thread} (a small number the recorder gave
 * the calling thread). Addresses, sizes, handles and times are unsigned 64-bit values in {@code long}s; stream
 * handles: 0 is the legacy default stream, 2 the per-thread default stream. GPU times are 0 when not measured.
 * Records holding byte arrays compare them by content.
 */
public sealed interface TraceEvent {
    /** Host timestamp, ns since the trace start. */
    long hostNs();

    /** Recorder's thread number. */
    int thread();

    /** Which kind of event this is. */
    EventKind kind();

    /** An allocation of {@code size} bytes at {@code address}. */
    record Alloc(long hostNs, int thread, long address, long size, AllocKind allocKind, long stream)
            implements TraceEvent {
        @Override public EventKind kind() { return EventKind.ALLOC; }
    }

    /** The release of the allocation at {@code address}. */
    record Free(long hostNs, int thread, long address, AllocKind allocKind, long stream) implements TraceEvent {
        @Override public EventKind kind() { return EventKind.FREE; }
    }

    /**
     * A copy of {@code bytes} bytes from {@code src} to {@code dst}; {@code payload} holds the source bytes of a
     * small host-to-device copy (empty when not captured).
     */
    record Memcpy(long hostNs, int thread, CopyKind copyKind, long src, long dst, long bytes, long stream,
            boolean async, byte[] payload, long gpuStartNs, long gpuEndNs) implements TraceEvent {
        @Override public EventKind kind() { return EventKind.MEMCPY; }

        @Override
        public boolean equals(Object o) {
            return o instanceof Memcpy m && hostNs == m.hostNs && thread == m.thread && copyKind == m.copyKind
                    && src == m.src && dst == m.dst && bytes == m.bytes && stream == m.stream && async == m.async
                    && Arrays.equals(payload, m.payload) && gpuStartNs == m.gpuStartNs && gpuEndNs == m.gpuEndNs;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(hostNs) * 31 + Long.hashCode(dst) * 7 + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return "Memcpy[hostNs=" + Long.toUnsignedString(hostNs) + ", thread=" + thread + ", " + copyKind
                    + ", src=0x" + Long.toHexString(src) + ", dst=0x" + Long.toHexString(dst) + ", bytes="
                    + Long.toUnsignedString(bytes) + ", stream=" + Long.toUnsignedString(stream) + ", async=" + async
                    + ", payload=" + payload.length + " bytes, gpu=" + Long.toUnsignedString(gpuStartNs) + ".."
                    + Long.toUnsignedString(gpuEndNs) + "]";
        }
    }

    /** A fill of {@code bytes} bytes at {@code dst} with {@code value} in elements of {@code elementSize} bytes. */
    record Memset(long hostNs, int thread, long dst, long bytes, int value, int elementSize, long stream,
            boolean async, long gpuStartNs, long gpuEndNs) implements TraceEvent {
        @Override public EventKind kind() { return EventKind.MEMSET; }
    }

    /**
     * A kernel launch. {@code params} is the raw parameter buffer laid out by the function's
     * {@link FunctionInfo#params()}; {@code graphLaunch} is, for {@link LaunchKind#GRAPH_NODE}, the event index of
     * the {@link GraphLaunch} it expands (else 0).
     */
    record Launch(long hostNs, int thread, int function, Dim3 grid, Dim3 block, int sharedMem, long stream,
            byte[] params, long gpuStartNs, long gpuEndNs, LaunchKind launchKind, long graphLaunch)
            implements TraceEvent {
        @Override public EventKind kind() { return EventKind.LAUNCH; }

        @Override
        public boolean equals(Object o) {
            return o instanceof Launch l && hostNs == l.hostNs && thread == l.thread && function == l.function
                    && grid.equals(l.grid) && block.equals(l.block) && sharedMem == l.sharedMem
                    && stream == l.stream && Arrays.equals(params, l.params) && gpuStartNs == l.gpuStartNs
                    && gpuEndNs == l.gpuEndNs && launchKind == l.launchKind && graphLaunch == l.graphLaunch;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(hostNs) * 31 + function * 7 + Arrays.hashCode(params);
        }

        @Override
        public String toString() {
            return "Launch[hostNs=" + Long.toUnsignedString(hostNs) + ", thread=" + thread + ", function="
                    + function + ", grid=" + grid + ", block=" + block + ", sharedMem=" + sharedMem + ", stream="
                    + Long.toUnsignedString(stream) + ", params=" + java.util.HexFormat.of().formatHex(params)
                    + ", gpu=" + Long.toUnsignedString(gpuStartNs) + ".." + Long.toUnsignedString(gpuEndNs) + ", "
                    + launchKind + ", graphLaunch=" + Long.toUnsignedString(graphLaunch) + "]";
        }
    }

    /** A stream or CUDA-event operation; {@code event} is the CUDA event handle (0 when none). */
    record Sync(long hostNs, int thread, SyncKind syncKind, long stream, long event, int flags) implements TraceEvent {
        @Override public EventKind kind() { return EventKind.SYNC; }
    }

    /** The launch of executable graph {@code graphExec}; its {@code kernelNodes} kernel nodes follow as launches. */
    record GraphLaunch(long hostNs, int thread, long graphExec, long stream, int kernelNodes) implements TraceEvent {
        @Override public EventKind kind() { return EventKind.GRAPH_LAUNCH; }
    }

    // i15-alloc: begin
    /**
     * A caching allocator's block event: {@code action} on {@code [address, address + size)} of {@code stream} on
     * {@code device} (for {@link BlockAction#ALLOC} the requested size, which may be less than the block the allocator
     * set aside; for {@link BlockAction#OOM} {@code address} is the free bytes the driver reported).
     */
    record AllocatorBlock(long hostNs, int thread, BlockAction action, long address, long size, long stream,
            int device) implements TraceEvent {
        @Override public EventKind kind() { return EventKind.ALLOCATOR_BLOCK; }
    }
    // i15-alloc: end

    // i16-rec: begin
    /**
     * A CUDA array created or destroyed. {@code bytes} is width x max(height, 1) x max(depth, 1) x channels x the
     * element size of {@code format} ({@code CUarray_format}), 0 when the format's size is not known (block-compressed
     * or planar formats) and for {@link ArrayOp#DESTROY}. Copies to and from arrays are {@link Memcpy} events of the
     * array copy kinds ({@link CopyKind#H2A} ...) whose array side holds the handle.
     */
    record CudaArray(long hostNs, int thread, ArrayOp op, long handle, long bytes, int format, int channels, long width,
            long height, long depth, int flags) implements TraceEvent {
        @Override public EventKind kind() { return EventKind.ARRAY; }
    }

    /**
     * A tensor map (TMA descriptor) as {@code cuTensorMapEncode*} encoded it: {@code address} (globalAddress),
     * {@code dataType} ({@code CUtensorMapDataType}), {@code dims} (innermost first), {@code strides} (bytes, of
     * dimensions 1..rank-1), {@code box} (tiled maps only) and {@code elementStrides}, the layout options, the 128
     * {@code map} bytes a kernel receives when it takes the map by value, and {@code extent}: one past the last byte
     * the map can reach, counted from {@code address} (0 when the element type is unknown).
     */
    record TensorMap(long hostNs, int thread, TensorMapKind mapKind, long address, int dataType, int rank, long[] dims,
            long[] strides, int[] box, int[] elementStrides, int interleave, int swizzle, int l2Promotion, int oobFill,
            byte[] map, long extent) implements TraceEvent {
        @Override public EventKind kind() { return EventKind.TENSOR_MAP; }

        @Override
        public boolean equals(Object o) {
            return o instanceof TensorMap t && hostNs == t.hostNs && thread == t.thread && mapKind == t.mapKind
                    && address == t.address && dataType == t.dataType && rank == t.rank && Arrays.equals(dims, t.dims)
                    && Arrays.equals(strides, t.strides) && Arrays.equals(box, t.box)
                    && Arrays.equals(elementStrides, t.elementStrides) && interleave == t.interleave
                    && swizzle == t.swizzle && l2Promotion == t.l2Promotion && oobFill == t.oobFill
                    && Arrays.equals(map, t.map) && extent == t.extent;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(address) * 31 + Arrays.hashCode(map);
        }

        @Override
        public String toString() {
            return "TensorMap[hostNs=" + Long.toUnsignedString(hostNs) + ", thread=" + thread + ", " + mapKind
                    + ", address=0x" + Long.toHexString(address) + ", type=" + dataType + ", dims="
                    + Arrays.toString(dims) + ", strides=" + Arrays.toString(strides) + ", extent="
                    + Long.toUnsignedString(extent) + "]";
        }
    }
    // i16-rec: end

    /** An event with a body this reader does not know; only read, never written. */
    record Unknown(long hostNs, int thread) implements TraceEvent {
        @Override public EventKind kind() { return EventKind.UNKNOWN; }
    }
}
