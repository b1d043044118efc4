package org.phos.workbench.cr.core.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cr.core.BufferRange;
import org.phos.workbench.cr.core.CopyDirection;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationWorkload;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.GpuTimeEstimate;
import org.phos.workbench.trace.core.TraceAnomaly;

/**
 * A {@link Trace} as a simulation workload. Each pass replays the allocation history (device allocations only: plain,
 * async/pool, managed, VMM, pitched; pinned host memory is not a buffer) so that the address ranges of copies, sets
 * and launches map onto buffers (ids: allocation order, dense from 0). Stream and CUDA-event handles become small
 * numbers in order of appearance. Launch sets come from {@code policySource}; when {@code truthSource} is given its
 * sets are attached as the observed (true) sets for the consistency check. Copies and sets carry their own exact
 * sets. Durations: recorded GPU start/end when measured; for a trace recorded with sampled GPU timing, an untimed
 * launch takes the mean of the timed launches of its launch shape ({@link GpuTimeEstimate}); otherwise, with
 * calibration on, the mean measured duration of the same function in this trace; otherwise -1 (the machine model's
 * default).
 * <p>
 * Not simulated: graph launch events themselves (their kernel nodes are), stream/event create/destroy, graph
 * capture markers, unknown events; the legacy default stream's implicit synchronisation.
 * <p>
 * Trace times and sizes are unsigned 64-bit values; the simulator computes in signed 64-bit nanoseconds. A trace it
 * cannot compute with exactly (a host time at or beyond 2^62 ns, GPU durations summing to 2^61 ns or more, a size
 * of 2^48 bytes or more: nothing a real trace holds) is refused when the workload is made, with one line naming the
 * first event concerned ({@link #outOfRange(Trace)}), instead of failing somewhere inside a run.
 */
public final class TraceWorkload implements SimulationWorkload {
    private final Trace trace;
    private final String name;
    private final LaunchAccessSource policySource;
    private final @Nullable LaunchAccessSource truthSource;
    private final Map<Integer, Long> calibrated = new HashMap<>();
    /** i15-cost: for a trace recorded with sampled GPU timing, the estimate of the untimed launches; else null. */
    private final @Nullable GpuTimeEstimate sampledEstimate;

    /**
     * @param trace the trace
     * @param name name for reports (file name)
     * @param policySource where the policy's launch sets come from
     * @param truthSource observed sets for the consistency check, or null
     * @param calibrate whether launches without GPU timing get their function's mean measured duration
     */
    public TraceWorkload(Trace trace, String name, LaunchAccessSource policySource,
            @Nullable LaunchAccessSource truthSource, boolean calibrate) {
        String refused = outOfRange(trace);
        if (refused != null) {
            throw new IllegalArgumentException(refused);
        }
        this.trace = trace;
        this.name = name;
        this.policySource = policySource;
        this.truthSource = truthSource;
        this.sampledEstimate = trace.header().timingSampling().sampled() ? GpuTimeEstimate.of(trace) : null;
        if (calibrate) {
            calibrate();
        }
    }

    /** Observed accesses as both the policy's and the true sets, when the trace has them; else the placeholder. */
    public static TraceWorkload withBestAvailableSets(Trace trace, String name) {
        ObservedLaunchAccesses observed = new ObservedLaunchAccesses(trace);
        if (observed.isEmpty()) {
            return new TraceWorkload(trace, name, new WholeAllocationParameterPlaceholder(), null, true);
        }
        return new TraceWorkload(trace, name, observed, observed, true);
    }

    /** Largest GPU duration sum the simulator takes: with host times below 2^62 ns, no time reaches 2^63 ns. */
    static final long MAX_GPU_NS_SUM = 1L << 61;

    /**
     * Why the simulator cannot compute with this trace, naming the first event concerned, or {@code null} when it
     * can: host times must lie below 2^62 ns, the recorded GPU durations sum to less than 2^61 ns, allocation,
     * copy and fill sizes below 2^48 bytes (the plausible ranges of {@link TraceAnomaly}). One pass over the
     * events.
     */
    public static @Nullable String outOfRange(Trace trace) {
        long gpuSum = 0;
        for (int i = 0; i < trace.eventCount(); i++) {
            long host = trace.hostNs(i);
            if (Long.compareUnsigned(host, TraceAnomaly.MAX_PLAUSIBLE_NS) >= 0) {
                return "event " + i + ": host time " + Long.toUnsignedString(host) + " ns is beyond what the simulator "
                        + "computes with (below 2^62 ns, about 146 years after the start)";
            }
            EventKind kind = trace.kind(i);
            long bytes = switch (kind) {
                case ALLOC -> trace.size(i);
                case MEMCPY, MEMSET -> trace.bytes(i);
                case ARRAY -> trace.cudaArray(i).bytes(); // i16-rec
                default -> 0;
            };
            if (Long.compareUnsigned(bytes, TraceAnomaly.MAX_PLAUSIBLE_BYTES) >= 0) {
                return "event " + i + ": " + kind.name().toLowerCase(java.util.Locale.ROOT) + " of "
                        + Long.toUnsignedString(bytes) + " bytes is beyond what the simulator computes with (below "
                        + "2^48 bytes = 256 TiB)";
            }
            if (kind == EventKind.LAUNCH || kind == EventKind.MEMCPY || kind == EventKind.MEMSET) {
                long s = trace.gpuStartNs(i);
                long e = trace.gpuEndNs(i);
                if (s != 0 && Long.compareUnsigned(e, s) > 0) {
                    long d = e - s; // unsigned: may be 2^63 or more
                    boolean tooLong = Long.compareUnsigned(d, MAX_GPU_NS_SUM) >= 0;
                    gpuSum += tooLong ? 0 : d; // both below 2^61 before the add: no overflow
                    if (tooLong || gpuSum >= MAX_GPU_NS_SUM) {
                        return "event " + i + ": GPU time " + Long.toUnsignedString(trace.gpuStartNs(i)) + " .. "
                                + Long.toUnsignedString(trace.gpuEndNs(i)) + " ns brings the recorded GPU durations "
                                + "beyond what the simulator computes with (below 2^61 ns in all, about 73 years)";
                    }
                }
            }
        }
        return null;
    }

    /**
     * The recorded GPU duration of event {@code e} (unsigned times: {@code end >= start}, start measured), or -1;
     * -1 also for a duration of 2^63 ns or more, which {@link #outOfRange(Trace)} refuses anyway.
     */
    static long gpuDuration(Trace trace, int e) {
        long s = trace.gpuStartNs(e);
        long end = trace.gpuEndNs(e);
        return s != 0 && Long.compareUnsigned(end, s) >= 0 && end - s >= 0 ? end - s : -1;
    }

    private void calibrate() {
        Map<Integer, long[]> sums = new HashMap<>();
        for (int l = 0; l < trace.launchCount(); l++) {
            int i = trace.launchEvent(l);
            long d = gpuDuration(trace, i);
            if (d >= 0) {
                long[] acc = sums.computeIfAbsent(trace.functionId(i), k -> new long[2]);
                acc[0] += d; // the sum stays below 2^61 (outOfRange)
                acc[1]++;
            }
        }
        sums.forEach((f, acc) -> calibrated.put(f, acc[0] / acc[1]));
    }

    public String policySourceName() {
        return policySource.name();
    }

    @Override
    public String name() {
        return name + " (" + policySource.name() + ")";
    }

    @Override
    public long sizeHint() {
        return trace.eventCount();
    }

    @Override
    public Iterator<Operation> operations() {
        return new Pass();
    }

    private static boolean isDeviceBuffer(AllocKind k) {
        return k != AllocKind.HOST_PINNED;
    }

    /** One replay of the trace. */
    private final class Pass implements Iterator<Operation> {
        private final LiveBuffers live = new LiveBuffers();
        private final Map<Long, Integer> streams = new HashMap<>();
        private final Map<Long, Integer> events = new HashMap<>();
        private int i;
        private @Nullable Operation pending;

        @Override
        public boolean hasNext() {
            while (pending == null && i < trace.eventCount()) {
                pending = convert(i++);
            }
            return pending != null;
        }

        @Override
        public Operation next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Operation op = pending;
            pending = null;
            return op;
        }

        private int stream(long handle) {
            return streams.computeIfAbsent(handle, h -> streams.size());
        }

        private int event(long handle) {
            return events.computeIfAbsent(handle, h -> events.size());
        }

        private long duration(int e) {
            return gpuDuration(trace, e);
        }

        /** Maps device address ranges onto buffer ranges (clipped to the allocation holding each range's start). */
        private List<BufferRange> map(List<AddressRange> ranges) {
            if (ranges.isEmpty()) {
                return List.of();
            }
            List<BufferRange> out = new ArrayList<>(ranges.size());
            for (AddressRange r : ranges) {
                add(out, r.begin(), r.end() - r.begin());
            }
            return out;
        }

        private void add(List<BufferRange> out, long address, long bytes) {
            int b = bytes <= 0 ? -1 : live.find(address);
            if (b < 0) {
                return;
            }
            long from = address - live.base(b);
            out.add(new BufferRange(b, from, Math.min(live.size(b), from + bytes)));
        }

        private @Nullable Operation convert(int e) {
            EventKind kind = trace.kind(e);
            long host = trace.hostNs(e);
            switch (kind) {
                case ALLOC -> {
                    if (!isDeviceBuffer(trace.allocKind(e))) {
                        return null;
                    }
                    long address = trace.address(e);
                    long size = trace.size(e);
                    int id = live.add(address, size);
                    // a malformed or overlapping allocation cannot be a buffer: skipped
                    return id < 0 ? null : Operation.alloc(e, host, id, size, address);
                }
                case FREE -> {
                    int id = live.remove(trace.address(e));
                    return id < 0 ? null : Operation.free(e, host, id);
                }
                case MEMCPY -> {
                    return copy(e, host);
                }
                case MEMSET -> {
                    List<BufferRange> target = new ArrayList<>(1);
                    add(target, trace.dst(e), trace.bytes(e));
                    return new Operation(e, OperationKind.SET, stream(trace.stream(e)), host, duration(e),
                            trace.bytes(e), null, !trace.async(e), -1, 0, -1, List.of(), target, List.of(), target,
                            "memset");
                }
                case LAUNCH -> {
                    return launch(e, host);
                }
                case SYNC -> {
                    return sync(e, host);
                }
                case ARRAY -> {
                    return array(e, host); // i16-rec
                }
                default -> {
                    return null;
                }
            }
        }

        private Operation copy(int e, long host) {
            CopyKind k = trace.copyKind(e);
            long src = trace.src(e);
            long dst = trace.dst(e);
            long bytes = trace.bytes(e);
            boolean srcDev = live.find(src) >= 0;
            boolean dstDev = live.find(dst) >= 0;
            CopyDirection dir = switch (k) {
                case H2D, H2A -> CopyDirection.HOST_TO_DEVICE;
                case D2H, A2H -> CopyDirection.DEVICE_TO_HOST;
                case D2D, PEER, D2A, A2D, A2A -> CopyDirection.DEVICE_TO_DEVICE;
                case H2H -> CopyDirection.HOST_TO_HOST;
                default -> srcDev && dstDev ? CopyDirection.DEVICE_TO_DEVICE
                        : srcDev ? CopyDirection.DEVICE_TO_HOST
                                : dstDev ? CopyDirection.HOST_TO_DEVICE : CopyDirection.HOST_TO_HOST;
            };
            List<BufferRange> reads = new ArrayList<>(1);
            List<BufferRange> writes = new ArrayList<>(1);
            // i16-rec: the array side of an array copy is its CUarray handle, a buffer from its ARRAY event on; the
            // model has no offset inside the array, so the whole array counts as touched (never less than the truth)
            boolean srcArray = k == CopyKind.A2H || k == CopyKind.A2D || k == CopyKind.A2A;
            boolean dstArray = k == CopyKind.H2A || k == CopyKind.D2A || k == CopyKind.A2A;
            if (dir == CopyDirection.DEVICE_TO_HOST || dir == CopyDirection.DEVICE_TO_DEVICE) {
                add(reads, src, srcArray ? wholeBuffer(src) : bytes);
            }
            if (dir == CopyDirection.HOST_TO_DEVICE || dir == CopyDirection.DEVICE_TO_DEVICE) {
                add(writes, dst, dstArray ? wholeBuffer(dst) : bytes);
            }
            return new Operation(e, OperationKind.COPY, stream(trace.stream(e)), host, duration(e), bytes, dir,
                    !trace.async(e), -1, 0, -1, reads, writes, reads, writes, "memcpy " + k);
        }

        private Operation launch(int e, long host) {
            LaunchAccesses spec = policySource.accesses(trace, e, live);
            LaunchAccessSource truth = truthSource;
            LaunchAccesses observed = truth == null ? null : truth.accesses(trace, e, live);
            long dur = duration(e);
            int fn = trace.functionId(e);
            if (dur < 0 && sampledEstimate != null) {
                dur = sampledEstimate.durationNs(e);   // i15-cost: sampled timing: the mean of its launch shape
            }
            if (dur < 0) {
                dur = calibrated.getOrDefault(fn, -1L);
            }
            FunctionInfo f = trace.functionById(fn);
            String label = f == null ? "function " + fn
                    : !f.demangledName().isEmpty() ? f.demangledName() : f.mangledName();
            return new Operation(e, OperationKind.LAUNCH, stream(trace.stream(e)), host, dur, 0, null, false, -1, 0,
                    -1, spec == null ? List.of() : map(spec.reads()), spec == null ? List.of() : map(spec.writes()),
                    observed == null ? null : map(observed.reads()), observed == null ? null : map(observed.writes()),
                    label);
        }

        // i16-rec: begin
        private long wholeBuffer(long handle) {
            int b = live.find(handle);
            return b < 0 ? 0 : live.size(b);
        }

        /** A CUDA array is a buffer of its bytes at its handle (the handle stands for its storage). */
        private @Nullable Operation array(int e, long host) {
            org.phos.workbench.trace.core.TraceEvent.CudaArray a = trace.cudaArray(e);
            if (a.op() == org.phos.workbench.trace.core.ArrayOp.CREATE) {
                if (a.bytes() == 0) {
                    return null; // a format whose size is not known: not a buffer
                }
                int id = live.add(a.handle(), a.bytes());
                return id < 0 ? null : Operation.alloc(e, host, id, a.bytes(), a.handle());
            }
            if (a.op() == org.phos.workbench.trace.core.ArrayOp.DESTROY) {
                int id = live.remove(a.handle());
                return id < 0 ? null : Operation.free(e, host, id);
            }
            return null;
        }
        // i16-rec: end

        private @Nullable Operation sync(int e, long host) {
            int s = stream(trace.stream(e));
            return switch (trace.syncKind(e)) {
                case STREAM_SYNCHRONIZE -> Operation.sync(e, OperationKind.STREAM_SYNC, s, host, -1);
                case CONTEXT_SYNCHRONIZE -> Operation.sync(e, OperationKind.DEVICE_SYNC, s, host, -1);
                case EVENT_RECORD -> Operation.sync(e, OperationKind.EVENT_RECORD, s, host, event(trace.cudaEvent(e)));
                case STREAM_WAIT_EVENT -> Operation.sync(e, OperationKind.EVENT_WAIT, s, host,
                        event(trace.cudaEvent(e)));
                case EVENT_SYNCHRONIZE -> Operation.sync(e, OperationKind.EVENT_SYNC, s, host,
                        event(trace.cudaEvent(e)));
                case HOST_FUNCTION, STREAM_CALLBACK -> Operation.sync(e, OperationKind.HOST_FUNCTION, s, host, -1); // i16-rec
                default -> null;
            };
        }
    }
}
