package org.phos.workbench.trace.core;

/**
 * What an event of a trace is: the body of a v1 {@code Event} message. Every event also has a host timestamp and
 * a thread number ({@link Trace#hostNs(int)}, {@link Trace#thread(int)}).
 */
public enum EventKind {
    /** A device, managed, pool, VMM or pinned host allocation ({@code Alloc}). */
    ALLOC,
    /** The release of an allocation ({@code Free}). */
    FREE,
    /** A memory copy ({@code Memcpy}), possibly carrying the payload of a small host-to-device copy. */
    MEMCPY,
    /** A memory fill ({@code Memset}). */
    MEMSET,
    /** A kernel launch ({@code Launch}), including the kernel nodes a graph launch expands to. */
    LAUNCH,
    /** A stream or CUDA-event operation: create, destroy, record, wait, synchronize, graph capture ({@code Sync}). */
    SYNC,
    /** The launch of an executable graph ({@code GraphLaunch}); its kernel nodes follow as {@link #LAUNCH} events. */
    GRAPH_LAUNCH,
    /**
     * An event whose body this reader does not know (written by a newer recorder). It is kept, with its time and
     * thread, so that event indices stay those of the file.
     */
    UNKNOWN,
    // i16-rec: begin
    /** A CUDA array created or destroyed ({@code Array}): its handle, extent and bytes. */
    ARRAY,
    /**
     * A tensor map (TMA descriptor) encoded by {@code cuTensorMapEncode*} ({@code TensorMap}): the global address,
     * dimensions, strides, the 128 map bytes kernels receive by value, and the byte extent the map can reach.
     */
    TENSOR_MAP,
    // i16-rec: end
    // i15-alloc: begin
    /**
     * A caching allocator's block event ({@code AllocatorBlock}): a block handed out or taken back, a segment taken or
     * given back (PyTorch's allocator, recorded with {@code PHOS_TORCH_ALLOC=1}).
     */
    ALLOCATOR_BLOCK;
    // i15-alloc: end

    private static final EventKind[] VALUES = values();

    /** The kind with the given {@link #ordinal()}, as stored in compact columns. */
    public static EventKind ofOrdinal(int ordinal) {
        return VALUES[ordinal];
    }
}
