package org.phos.workbench.trace.core;

import java.nio.ByteBuffer;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.trace.core.model.TraceModelBuilder;

/**
 * A recorded GPU process in memory: header, modules, functions, the events in issue order and the observed
 * accesses. Immutable once built and safe to read from many threads.
 * <p>
 * <b>Events</b> are addressed by their <i>event index</i> {@code i} ({@code 0 <= i < eventCount()}), the index
 * they have in the file. Their fields are read with column accessors ({@code kind(i)}, {@code hostNs(i)},
 * {@code functionId(i)}, ...), which cost an array access and allocate nothing; an accessor asked about an
 * event of a kind that lacks the field throws {@link IllegalArgumentException}. Launches also have a dense
 * <i>launch index</i> ({@link #launchEvent(int)}, {@link #launchIndex(int)}) for per-launch arrays.
 * {@link #event(int)} materializes one event as a {@link TraceEvent} record for display and tests.
 * <p>
 * Unsigned protobuf values are held in Java integers of the same width (use {@link Integer#toUnsignedLong}).
 * <p>
 * Obtain one from {@link TraceReader#read}, or build one in memory with {@link #builder(TraceHeader)}.
 */
public interface Trace {

    /** Starts an in-memory trace (for tests and tools): add modules, functions, events, then {@code build()}. */
    static Builder builder(TraceHeader header) {
        return new TraceModelBuilder(header);
    }

    /** Builds a {@link Trace} from values; the checks a reader makes are not repeated. Single use. */
    interface Builder {
        Builder module(ModuleInfo module);

        Builder function(FunctionInfo function);

        /** Appends an event; its index is the number of events added before. {@link TraceEvent.Unknown} is allowed. */
        Builder event(TraceEvent event);

        Builder observed(ObservedAccess access);

        /** Which launches an observer observed (i15-cost). */
        Builder coverage(ObservationCoverage coverage);

        Builder end(TraceEnd end);

        Trace build();
    }

    // ---- whole-trace information ---------------------------------------------------------------------------

    TraceHeader header();

    /** Modules in file order. */
    List<ModuleInfo> modules();

    /** The module with this id, or {@code null}. */
    @Nullable ModuleInfo moduleById(int id);

    /** Functions in file order. */
    List<FunctionInfo> functions();

    /** The function with this id, or {@code null} (a launch may name a function the file lacks). */
    @Nullable FunctionInfo functionById(int id);

    /** Observed accesses in file order. */
    List<ObservedAccess> observedAccesses();

    /**
     * Which launches each observer that says so observed (i15-cost), in file order; empty for traces whose observers
     * wrote no coverage (then a launch without observed accesses is either unobserved or touched nothing).
     */
    default List<ObservationCoverage> observationCoverage() {
        return List.of();
    }

    /** The {@code TraceEnd} record, or {@code null} when the trace was not closed cleanly. */
    @Nullable TraceEnd end();

    /**
     * Estimated heap held by this model in bytes: the capacities of all columns, arenas and tables (module
     * images and observed accesses included). Cheap; meant for benchmarks and status lines.
     */
    long heapFootprintBytes();

    /** Sum of the parameter buffer lengths of all launches. */
    long parameterBytes();

    /** Sum of the captured copy payload lengths. */
    long payloadBytes();

    // ---- events: all kinds ---------------------------------------------------------------------------------

    int eventCount();

    /** Number of events of the given kind. */
    int count(EventKind kind);

    EventKind kind(int i);

    /** Host timestamp of event {@code i}: ns since the trace start. */
    long hostNs(int i);

    /** Recorder's thread number of event {@code i}. */
    int thread(int i);

    /**
     * Stream handle of event {@code i} (every kind but {@link EventKind#UNKNOWN} has one; 0 is the legacy default
     * stream). Returns 0 for {@link EventKind#UNKNOWN}.
     */
    long stream(int i);

    /** GPU start of a {@code LAUNCH}, {@code MEMCPY} or {@code MEMSET}; 0 when not measured or another kind. */
    long gpuStartNs(int i);

    /** GPU end of a {@code LAUNCH}, {@code MEMCPY} or {@code MEMSET}; 0 when not measured or another kind. */
    long gpuEndNs(int i);

    /** Event {@code i} as a record (allocates; not for walking millions of events). */
    TraceEvent event(int i);

    // i16-rec: begin
    /** The CUDA array event {@code i} ({@link EventKind#ARRAY}); another kind is an IllegalArgumentException. */
    TraceEvent.CudaArray cudaArray(int i);

    /** The tensor map event {@code i} ({@link EventKind#TENSOR_MAP}); another kind is an IllegalArgumentException. */
    TraceEvent.TensorMap tensorMap(int i);
    // i16-rec: end

    // i15-alloc: begin
    /**
     * The allocator block event {@code i} ({@link EventKind#ALLOCATOR_BLOCK}); another kind is an
     * IllegalArgumentException.
     */
    TraceEvent.AllocatorBlock allocatorBlock(int i);
    // i15-alloc: end

    // ---- launches --------------------------------------------------------------------------------------------

    /** Number of {@link EventKind#LAUNCH} events. */
    int launchCount();

    /** Event index of the launch with dense launch index {@code launchIndex} (0-based, in event order). */
    int launchEvent(int launchIndex);

    /** Dense launch index of event {@code i}, or -1 when it is not a launch. */
    int launchIndex(int i);

    /** {@link FunctionInfo#id()} named by launch event {@code i}. */
    int functionId(int i);

    Dim3 grid(int i);

    int gridX(int i);

    int gridY(int i);

    int gridZ(int i);

    Dim3 block(int i);

    int blockX(int i);

    int blockY(int i);

    int blockZ(int i);

    /** Dynamic shared memory of launch event {@code i} in bytes. */
    int sharedMem(int i);

    LaunchKind launchKind(int i);

    /** For a {@link LaunchKind#GRAPH_NODE} launch, the event index of its graph launch; else -1. */
    long graphLaunchEvent(int i);

    /** Length of the raw parameter buffer of launch event {@code i}. */
    int paramLength(int i);

    /** The raw parameter buffer of launch event {@code i}: a read-only little-endian view, no copy. */
    ByteBuffer params(int i);

    /** Copies the parameter buffer of launch event {@code i} into {@code dst} at {@code dstOffset}; returns its length. */
    int copyParams(int i, byte[] dst, int dstOffset);

    /**
     * The little-endian 64-bit value at {@code offset} in the parameter buffer of launch event {@code i} (the way a
     * pointer parameter is read); bytes past the end of the buffer read as 0.
     */
    long paramLong(int i, int offset);

    // ---- allocations -----------------------------------------------------------------------------------------

    /** Address of an {@code ALLOC} or {@code FREE} event. */
    long address(int i);

    /** Size in bytes of an {@code ALLOC} event. */
    long size(int i);

    /** Kind of an {@code ALLOC} or {@code FREE} event. */
    AllocKind allocKind(int i);

    // ---- copies and fills ------------------------------------------------------------------------------------

    CopyKind copyKind(int i);

    /** Source address of a {@code MEMCPY}. */
    long src(int i);

    /** Destination address of a {@code MEMCPY} or {@code MEMSET}. */
    long dst(int i);

    /** Bytes of a {@code MEMCPY} or {@code MEMSET}. */
    long bytes(int i);

    /** Whether a {@code MEMCPY} or {@code MEMSET} was asynchronous. */
    boolean async(int i);

    /** Captured payload length of a {@code MEMCPY} (0 when not captured). */
    int payloadLength(int i);

    /** The captured payload of a {@code MEMCPY}: a read-only little-endian view, no copy (empty when none). */
    ByteBuffer payload(int i);

    /** Copies the payload of {@code MEMCPY} event {@code i} into {@code dst}; returns its length. */
    int copyPayload(int i, byte[] dst, int dstOffset);

    /** Fill value of a {@code MEMSET}. */
    int memsetValue(int i);

    /** Element size (1, 2 or 4) of a {@code MEMSET}. */
    int memsetElementSize(int i);

    // ---- stream and event operations, graphs -----------------------------------------------------------------

    SyncKind syncKind(int i);

    /** CUDA event handle of a {@code SYNC} event (0 when the operation has none). */
    long cudaEvent(int i);

    /** Flags of a {@code SYNC} event. */
    int syncFlags(int i);

    /** Executable graph handle of a {@code GRAPH_LAUNCH}. */
    long graphExec(int i);

    /** Number of kernel nodes of a {@code GRAPH_LAUNCH}. */
    int graphKernelNodes(int i);
}
