package org.phos.workbench.cr.core;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;

/**
 * One application API call as the simulator sees it, in issue order.
 * <p>
 * {@link #reads()} and {@link #writes()} are the sets a C/R policy acts on: for launches these are a speculation
 * engine's prediction (or observed accesses, when a simulation uses those as its source); for copies and sets they
 * come from the arguments. {@link #observedReads()} and {@link #observedWrites()} are what the launch really touched
 * when the workload has that ground truth ({@code null} when not observed); the consistency check compares them
 * against the policy's sets.
 *
 * @param index position in the workload (event index in the trace, or a running number)
 * @param kind what the call does
 * @param stream stream number (small integer assigned by the adapter; 0 for calls without a stream)
 * @param hostTimeNs host issue time in ns since the workload's start, as recorded
 * @param gpuDurationNs recorded GPU duration in ns, or -1 when unknown (the machine model estimates it)
 * @param bytes bytes moved or set (copies, sets), allocation size (alloc), else 0
 * @param direction copy direction for {@link OperationKind#COPY}, else {@code null}
 * @param blocking whether the host waits for the operation's GPU completion (synchronous copies)
 * @param buffer buffer id for {@link OperationKind#ALLOC}/{@link OperationKind#FREE}, else -1
 * @param address device address for {@link OperationKind#ALLOC} (orders the copier), else 0
 * @param event CUDA event number for event operations, else -1
 * @param reads buffers read, as the policy believes
 * @param writes buffers written, as the policy believes
 * @param observedReads buffers really read, or {@code null} when not observed
 * @param observedWrites buffers really written, or {@code null} when not observed
 * @param label short name for timelines (kernel name, "memcpy HtoD", ...)
 */
public record Operation(long index, OperationKind kind, int stream, long hostTimeNs, long gpuDurationNs, long bytes,
        @Nullable CopyDirection direction, boolean blocking, int buffer, long address, int event,
        List<BufferRange> reads, List<BufferRange> writes, @Nullable List<BufferRange> observedReads,
        @Nullable List<BufferRange> observedWrites, String label) {

    public Operation {
        if (kind == OperationKind.COPY && direction == null) {
            throw new IllegalArgumentException("operation " + index + ": a copy needs a direction");
        }
        if ((kind == OperationKind.ALLOC || kind == OperationKind.FREE) && buffer < 0) {
            throw new IllegalArgumentException("operation " + index + ": " + kind + " needs a buffer id");
        }
        if (kind == OperationKind.ALLOC && bytes <= 0) {
            throw new IllegalArgumentException("operation " + index + ": allocation of " + bytes + " bytes");
        }
        if ((kind == OperationKind.EVENT_RECORD || kind == OperationKind.EVENT_WAIT || kind == OperationKind.EVENT_SYNC)
                && event < 0) {
            throw new IllegalArgumentException("operation " + index + ": " + kind + " needs an event number");
        }
        if (hostTimeNs < 0) {
            throw new IllegalArgumentException("operation " + index + ": negative host time " + hostTimeNs);
        }
    }

    /** A kernel launch whose speculated and observed sets are the same (or unobserved when {@code observed} is false). */
    public static Operation launch(long index, int stream, long hostTimeNs, long gpuDurationNs, List<BufferRange> reads,
            List<BufferRange> writes, String label) {
        return new Operation(index, OperationKind.LAUNCH, stream, hostTimeNs, gpuDurationNs, 0, null, false, -1, 0, -1,
                reads, writes, null, null, label);
    }

    /** A copy; device-side ranges go into the read or write set by direction. */
    public static Operation copy(long index, int stream, long hostTimeNs, long gpuDurationNs, CopyDirection direction,
            long bytes, boolean blocking, List<BufferRange> reads, List<BufferRange> writes) {
        return new Operation(index, OperationKind.COPY, stream, hostTimeNs, gpuDurationNs, bytes, direction, blocking, -1,
                0, -1, reads, writes, reads, writes, "memcpy " + direction);
    }

    public static Operation set(long index, int stream, long hostTimeNs, long gpuDurationNs, BufferRange target) {
        return new Operation(index, OperationKind.SET, stream, hostTimeNs, gpuDurationNs, target.length(), null, false, -1,
                0, -1, List.of(), List.of(target), List.of(), List.of(target), "memset");
    }

    public static Operation alloc(long index, long hostTimeNs, int buffer, long size, long address) {
        return new Operation(index, OperationKind.ALLOC, 0, hostTimeNs, 0, size, null, false, buffer, address, -1,
                List.of(), List.of(), null, null, "alloc");
    }

    public static Operation free(long index, long hostTimeNs, int buffer) {
        return new Operation(index, OperationKind.FREE, 0, hostTimeNs, 0, 0, null, false, buffer, 0, -1, List.of(),
                List.of(), null, null, "free");
    }

    public static Operation sync(long index, OperationKind kind, int stream, long hostTimeNs, int event) {
        return new Operation(index, kind, stream, hostTimeNs, 0, 0, null, false, -1, 0, event, List.of(), List.of(),
                null, null, kind.name().toLowerCase(java.util.Locale.ROOT));
    }

    /** This operation with observed (true) sets attached. */
    public Operation withObserved(@Nullable List<BufferRange> trueReads, @Nullable List<BufferRange> trueWrites) {
        return new Operation(index, kind, stream, hostTimeNs, gpuDurationNs, bytes, direction, blocking, buffer, address,
                event, reads, writes, trueReads, trueWrites, label);
    }

    /** Whether this operation runs on the GPU timeline (launch, copy, set). */
    public boolean isGpuWork() {
        return kind == OperationKind.LAUNCH || kind == OperationKind.COPY || kind == OperationKind.SET;
    }
}
