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

/**
 * A {@link Trace} as a simulation workload. Each pass replays the allocation history (device allocations only: plain,
 * async/pool, managed, VMM, pitched; pinned host memory is not a buffer) so that the address ranges of copies, sets
 * and launches map onto buffers (ids: allocation order, dense from 0). Stream and CUDA-event handles become small
 * numbers in order of appearance. Launch sets come from {@code policySource}; when {@code truthSource} is given its
 * sets are attached as the observed (true) sets for the consistency check. Copies and sets carry their own exact
 * sets. Durations: recorded GPU start/end when measured; otherwise, with calibration on, the mean measured duration
 * of the same function in this trace; otherwise -1 (the machine model's default).
 * <p>
 * Not simulated: graph launch events themselves (their kernel nodes are), stream/event create/destroy, graph
 * capture markers, unknown events; the legacy default stream's implicit synchronisation.
 */
public final class TraceWorkload implements SimulationWorkload {
    private final Trace trace;
    private final String name;
    private final LaunchAccessSource policySource;
    private final @Nullable LaunchAccessSource truthSource;
    private final Map<Integer, Long> calibrated = new HashMap<>();

    /**
     * @param trace the trace
     * @param name name for reports (file name)
     * @param policySource where the policy's launch sets come from
     * @param truthSource observed sets for the consistency check, or null
     * @param calibrate whether launches without GPU timing get their function's mean measured duration
     */
    public TraceWorkload(Trace trace, String name, LaunchAccessSource policySource,
            @Nullable LaunchAccessSource truthSource, boolean calibrate) {
        this.trace = trace;
        this.name = name;
        this.policySource = policySource;
        this.truthSource = truthSource;
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

    private void calibrate() {
        Map<Integer, long[]> sums = new HashMap<>();
        for (int l = 0; l < trace.launchCount(); l++) {
            int i = trace.launchEvent(l);
            long s = trace.gpuStartNs(i);
            long e = trace.gpuEndNs(i);
            if (s > 0 && e >= s) {
                long[] acc = sums.computeIfAbsent(trace.functionId(i), k -> new long[2]);
                acc[0] += e - s;
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
            long s = trace.gpuStartNs(e);
            long end = trace.gpuEndNs(e);
            return s > 0 && end >= s ? end - s : -1;
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
                case H2D -> CopyDirection.HOST_TO_DEVICE;
                case D2H -> CopyDirection.DEVICE_TO_HOST;
                case D2D, PEER -> CopyDirection.DEVICE_TO_DEVICE;
                case H2H -> CopyDirection.HOST_TO_HOST;
                default -> srcDev && dstDev ? CopyDirection.DEVICE_TO_DEVICE
                        : srcDev ? CopyDirection.DEVICE_TO_HOST
                                : dstDev ? CopyDirection.HOST_TO_DEVICE : CopyDirection.HOST_TO_HOST;
            };
            List<BufferRange> reads = new ArrayList<>(1);
            List<BufferRange> writes = new ArrayList<>(1);
            if (dir == CopyDirection.DEVICE_TO_HOST || dir == CopyDirection.DEVICE_TO_DEVICE) {
                add(reads, src, bytes);
            }
            if (dir == CopyDirection.HOST_TO_DEVICE || dir == CopyDirection.DEVICE_TO_DEVICE) {
                add(writes, dst, bytes);
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
                default -> null;
            };
        }
    }
}
