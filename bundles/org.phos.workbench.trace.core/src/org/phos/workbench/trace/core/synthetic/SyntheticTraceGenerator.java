package org.phos.workbench.trace.core.synthetic;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.SyncKind;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * Writes a deterministic synthetic trace straight to a file (nothing is kept in memory but the live allocation
 * set). The simulated process creates its streams and CUDA events, allocates up to its live-allocation target
 * (then keeps allocating and freeing, reusing freed addresses), copies small host buffers holding device pointers
 * to the device, launches kernels whose parameters hold pointers (at the base or inside allocations), integers
 * and structs with pointers, records events on one stream and waits for them on another, synchronizes, and
 * launches graphs that expand to kernel nodes. Host and per-stream GPU clocks advance plausibly.
 * <p>
 * All randomness comes from one {@link SplittableRandom} seeded by the options, and the header carries no wall
 * clock, so the same options give a byte-identical file.
 */
public final class SyntheticTraceGenerator {
    private static final long DEFAULT_STREAM = 0;
    private static final long HOST_BASE = 0x5600_0000_0000L;

    private final SyntheticTraceOptions o;
    private final SplittableRandom rnd;
    private final DeviceHeap heap;
    private final SyntheticKernel[] kernels;
    private final long[] streams;
    private final long[] streamGpuClock;
    private final long[] cudaEvents;
    private final long[] eventRecordedAt;
    private long hostNs = 1_000;
    private long launches;
    private final long[] freed = new long[3];
    private final TraceWriter w;
    /** Randomness of the synthetic observed accesses only, so that the events do not depend on whether they exist. */
    private final SplittableRandom observeRnd;
    /** The current launch's pointers into allocations: base, size, pointer, per entry. */
    private long[] pointed = new long[48];
    private int pointedCount;

    /** Summary of what was written. */
    public record Result(Path file, long events, long launches, long bytes) {
    }

    private SyntheticTraceGenerator(SyntheticTraceOptions options, TraceWriter writer) {
        this.o = options;
        this.w = writer;
        this.rnd = new SplittableRandom(options.seed());
        this.observeRnd = new SplittableRandom(options.seed() * 0x9E3779B97F4A7C15L + 0x6f62);
        this.heap = new DeviceHeap(rnd.split());
        this.kernels = new SyntheticKernel[options.functions()];
        this.streams = new long[options.streams() + 1];
        this.streamGpuClock = new long[streams.length];
        this.cudaEvents = new long[Math.max(2, options.streams() * 2)];
        this.eventRecordedAt = new long[cudaEvents.length];
    }

    /** The header a synthetic trace carries (fixed times: the file must not depend on when it was made). */
    public static TraceHeader header(SyntheticTraceOptions o) {
        return TraceHeader.builder("phos-workbench-generator", "1")
                .host("synthetic")
                .pid(4242)
                .argv(List.of("python", "train.py", "--seed", Long.toString(o.seed())))
                .deviceName("NVIDIA H100 80GB HBM3")
                .computeCapability(9, 0)
                .driverVersion(13000)
                .runtimeVersion(12080)
                .startUnixNs(1_767_225_600_000_000_000L)
                .startMonoNs(5_000_000_000L)
                .payloadLimit(o.payloadLimit())
                .gpuTiming(o.gpuTiming())
                .deviceMemory(80L << 30)
                .build();
    }

    /**
     * Generates the trace described by {@code options} into {@code file}.
     *
     * @param monitor progress in launches and cancellation (the partial file is left, without TraceEnd)
     */
    public static Result generate(Path file, SyntheticTraceOptions options, @Nullable IProgressMonitor monitor)
            throws IOException {
        TraceWriter.Options wo = new TraceWriter.Options(options.compressEvents(), true, 3, 1 << 20);
        IProgressMonitor progress = monitor == null ? new NullProgressMonitor() : monitor;
        progress.beginTask("Generating " + file.getFileName(), 1000);
        TraceWriter writer = TraceWriter.create(file, header(options), wo);
        boolean ok = false;
        try {
            new SyntheticTraceGenerator(options, writer).run(progress);
            ok = true;
        } finally {
            if (ok) {
                writer.close();
            } else {
                writer.closeUnfinished();
            }
            progress.done();
        }
        return new Result(file, writer.eventCount(), options.launches(), java.nio.file.Files.size(file));
    }

    private void run(IProgressMonitor progress) throws IOException {
        byte[] image = new byte[48 * 1024];
        rnd.split().nextBytes(image);
        image[0] = 0x7f; image[1] = 'E'; image[2] = 'L'; image[3] = 'F';
        w.module(ModuleInfo.of(1, ModuleKind.CUBIN, image, "cuModuleLoadData"));
        for (int f = 0; f < kernels.length; f++) {
            kernels[f] = SyntheticKernel.create(rnd, f + 1, 1);
            w.function(kernels[f].function);
        }
        streams[0] = DEFAULT_STREAM;
        for (int s = 1; s < streams.length; s++) {
            streams[s] = 0x5555_0000_1000L + 0x1000L * s;
            sync(SyncKind.STREAM_CREATE, streams[s], 0, 1);
        }
        for (int e = 0; e < cudaEvents.length; e++) {
            cudaEvents[e] = 0x5555_1000_0000L + 0x100L * e;
            sync(SyncKind.EVENT_CREATE, 0, cudaEvents[e], 2);
        }
        long ramp = Math.max(1, Math.min(o.launches() / 4, 50L * o.liveAllocations()));
        long reportEvery = Math.max(1, o.launches() / 1000);
        long lastReport = 0;
        while (launches < o.launches()) {
            if (progress.isCanceled()) {
                throw new OperationCanceledException("generating the synthetic trace was cancelled");
            }
            // allocation pressure: ramp up to the target, then churn around it
            if (heap.live < o.liveAllocations() && (launches < ramp || rnd.nextInt(20) == 0)) {
                int burst = launches < ramp
                        ? (int) Math.min(o.liveAllocations() - heap.live, 1 + o.liveAllocations() / Math.max(1, ramp / 16))
                        : 1;
                for (int k = 0; k < burst; k++) {
                    alloc();
                }
            } else if (rnd.nextInt(24) == 0) {
                free();
                alloc();
            }
            int r = rnd.nextInt(1000);
            if (r < 90) {
                smallPointerCopy();
            } else if (r < 110) {
                bulkCopy();
            } else if (r < 125) {
                memset();
            } else if (r < 160) {
                recordAndWait();
            } else if (r < 165) {
                int s = rnd.nextInt(streams.length);
                sync(SyncKind.STREAM_SYNCHRONIZE, streams[s], 0, 0);
                hostNs = Math.max(hostNs, streamGpuClock[s]) + 2_000;
            } else if (r == 166 && rnd.nextInt(10) == 0) {
                sync(SyncKind.CONTEXT_SYNCHRONIZE, 0, 0, 0);
                for (long c : streamGpuClock) {
                    hostNs = Math.max(hostNs, c);
                }
            }
            if (o.graphEvery() > 0 && rnd.nextInt(o.graphEvery()) == 0) {
                graphLaunch();
            } else {
                launch(pickKernel(), rnd.nextInt(streams.length), LaunchKind.PLAIN, 0);
            }
            if (launches - lastReport >= reportEvery) {
                long done = launches * 1000 / Math.max(1, o.launches());
                progress.worked((int) (done - lastReport * 1000 / Math.max(1, o.launches())));
                lastReport = launches;
            }
        }
    }

    private int thread() {
        return o.threads() == 1 || rnd.nextInt(8) != 0 ? 1 : 1 + rnd.nextInt(o.threads());
    }

    private long tick(int maxNs) {
        hostNs += 300 + rnd.nextInt(maxNs);
        return hostNs;
    }

    private SyntheticKernel pickKernel() {
        // hot kernels dominate: a skewed pick
        double u = rnd.nextDouble();
        return kernels[(int) (kernels.length * u * u)];
    }

    private void alloc() throws IOException {
        int slot = heap.allocate();
        AllocKind kind = AllocKind.ofCode(heap.kind[slot]);
        long stream = kind == AllocKind.ASYNC ? streams[rnd.nextInt(streams.length)] : 0;
        w.write(new TraceEvent.Alloc(tick(20_000), thread(), heap.address[slot], heap.size[slot], kind, stream));
    }

    private void free() throws IOException {
        heap.freeRandom(freed);
        AllocKind kind = AllocKind.ofCode((int) freed[2]);
        long stream = kind == AllocKind.ASYNC ? streams[rnd.nextInt(streams.length)] : 0;
        w.write(new TraceEvent.Free(tick(10_000), thread(), freed[0], kind, stream));
    }

    private long gpuSpan(int s, long durationNs, long[] startEnd) {
        long start = Math.max(streamGpuClock[s], hostNs + 3_000 + rnd.nextInt(4_000));
        long end = start + durationNs;
        streamGpuClock[s] = end;
        startEnd[0] = o.gpuTiming() ? start : 0;
        startEnd[1] = o.gpuTiming() ? end : 0;
        return end;
    }

    private final long[] span = new long[2];

    private void smallPointerCopy() throws IOException {
        int pointers = 1 + rnd.nextInt(16);
        int len = Math.min(o.payloadLimit(), 8 * pointers + 4 * rnd.nextInt(8));
        byte[] payload = new byte[Math.max(0, len)];
        for (int p = 0; p + 8 <= payload.length; p += 8) {
            long v = p < 8 * pointers ? heap.pointer() : rnd.nextInt(1 << 20);
            for (int k = 0; k < 8; k++) {
                payload[p + k] = (byte) (v >>> (8 * k));
            }
        }
        int s = rnd.nextInt(streams.length);
        boolean async = s != 0;
        long host = tick(5_000);
        gpuSpan(s, 1_500 + len, span);
        w.write(new TraceEvent.Memcpy(host, thread(), CopyKind.H2D, HOST_BASE + 64L * rnd.nextInt(1 << 20),
                heap.pointer(), payload.length, streams[s], async, payload, span[0], span[1]));
    }

    private void bulkCopy() throws IOException {
        int r = rnd.nextInt(3);
        CopyKind kind = r == 0 ? CopyKind.H2D : r == 1 ? CopyKind.D2H : CopyKind.D2D;
        long bytes = 4096L << rnd.nextInt(14);
        long host = HOST_BASE + 4096L * rnd.nextInt(1 << 20);
        long src = kind == CopyKind.H2D ? host : heap.pointer();
        long dst = kind == CopyKind.D2H ? host : heap.pointer();
        int s = rnd.nextInt(streams.length);
        long t = tick(8_000);
        gpuSpan(s, 2_000 + bytes / (kind == CopyKind.D2D ? 1_000 : 25), span);
        w.write(new TraceEvent.Memcpy(t, thread(), kind, src, dst, bytes, streams[s], s != 0, new byte[0], span[0],
                span[1]));
    }

    private void memset() throws IOException {
        int s = rnd.nextInt(streams.length);
        long bytes = 256L << rnd.nextInt(16);
        long t = tick(5_000);
        gpuSpan(s, 1_000 + bytes / 2_000, span);
        w.write(new TraceEvent.Memset(t, thread(), heap.pointer(), bytes, 0, 1, streams[s], s != 0, span[0],
                span[1]));
    }

    private void recordAndWait() throws IOException {
        int from = rnd.nextInt(streams.length);
        int to = rnd.nextInt(streams.length);
        int e = rnd.nextInt(cudaEvents.length);
        sync(SyncKind.EVENT_RECORD, streams[from], cudaEvents[e], 0);
        eventRecordedAt[e] = streamGpuClock[from];
        if (to != from) {
            sync(SyncKind.STREAM_WAIT_EVENT, streams[to], cudaEvents[e], 0);
            streamGpuClock[to] = Math.max(streamGpuClock[to], eventRecordedAt[e]);
        } else if (rnd.nextInt(4) == 0) {
            sync(SyncKind.EVENT_SYNCHRONIZE, 0, cudaEvents[e], 0);
            hostNs = Math.max(hostNs, eventRecordedAt[e]);
        }
    }

    private void sync(SyncKind kind, long stream, long event, int flags) throws IOException {
        w.write(new TraceEvent.Sync(tick(2_000), thread(), kind, stream, event, flags));
    }

    private void graphLaunch() throws IOException {
        int s = rnd.nextInt(streams.length);
        int nodes = 4 + rnd.nextInt(9);
        long exec = 0x5555_2000_0000L + 0x1000L * rnd.nextInt(3);
        long index = w.write(new TraceEvent.GraphLaunch(tick(5_000), thread(), exec, streams[s], nodes));
        for (int n = 0; n < nodes && launches < o.launches(); n++) {
            launch(pickKernel(), s, LaunchKind.GRAPH_NODE, index);
        }
    }

    private void launch(SyntheticKernel k, int s, LaunchKind kind, long graphLaunch) throws IOException {
        byte[] params = new byte[k.paramBytes];
        pointedCount = 0;
        var layout = k.function.params();
        for (int p = 0; p < layout.size(); p++) {
            int at = layout.get(p).offset();
            switch (k.slotType[p]) {
                case SyntheticKernel.POINTER -> putLong(params, at, rnd.nextInt(50) == 0 ? 0 : point(heap.pointer()));
                case SyntheticKernel.INT -> putInt(params, at, rnd.nextInt(1 << (1 + rnd.nextInt(24))));
                case SyntheticKernel.LONG -> putLong(params, at, rnd.nextLong(1L << 33));
                case SyntheticKernel.FLOAT -> putInt(params, at, Float.floatToIntBits((float) rnd.nextDouble()));
                default -> {
                    int size = layout.get(p).size();
                    for (int q = 0; q + 4 <= size; q += 4) {
                        putInt(params, at + q, rnd.nextInt(4096));
                    }
                    for (int q : k.structPointers[p]) {
                        putLong(params, at + q, point(heap.pointer()));
                    }
                }
            }
        }
        int c = rnd.nextInt(k.grids.length);
        long host = tick(kind == LaunchKind.GRAPH_NODE ? 600 : 6_000);
        long duration = k.durationNs * (80 + rnd.nextInt(41)) / 100;
        gpuSpan(s, duration, span);
        Dim3 grid = k.grids[c];
        long event = w.write(new TraceEvent.Launch(host, thread(), k.function.id(), grid, k.blocks[c], k.sharedMem[c],
                streams[s], params, span[0], span[1], kind, graphLaunch));
        if (o.observedEvery() > 0 && launches % o.observedEvery() == 0) {
            observe(event);
        }
        launches++;
    }

    /** Notes a pointer the launch being built passes (for its observed accesses), and returns it. */
    private long point(long pointer) {
        if (o.observedEvery() > 0) {
            if (pointedCount + 3 > pointed.length) {
                pointed = java.util.Arrays.copyOf(pointed, pointed.length * 2);
            }
            pointed[pointedCount++] = heap.address[heap.lastSlot];
            pointed[pointedCount++] = heap.size[heap.lastSlot];
            pointed[pointedCount++] = pointer;
        }
        return pointer;
    }

    /**
     * Writes made-up ground truth for the launch: one record per allocation its parameters point into, with a
     * random direction and a random extent from the pointer (clipped to the allocation). Not derived from what the
     * kernel would do: it gives the comparison of speculated with observed bytes realistic work, not meaning.
     */
    private void observe(long event) throws IOException {
        java.util.Map<Long, long[]> byBase = new java.util.LinkedHashMap<>();
        java.util.Map<Long, List<org.phos.workbench.trace.core.AddressRange>[]> ranges = new java.util.LinkedHashMap<>();
        for (int p = 0; p < pointedCount; p += 3) {
            long base = pointed[p];
            long end = base + pointed[p + 1];
            long from = pointed[p + 2];
            long to = Math.min(end, from + 256L * (1 + observeRnd.nextInt(16)));
            if (to <= from) {
                continue;
            }
            int direction = observeRnd.nextInt(4); // 0, 1: read; 2: written; 3: both
            @SuppressWarnings("unchecked")
            List<org.phos.workbench.trace.core.AddressRange>[] r = ranges.computeIfAbsent(base,
                    b -> new List[] { new java.util.ArrayList<>(), new java.util.ArrayList<>() });
            long[] counts = byBase.computeIfAbsent(base, b -> new long[2]);
            var range = new org.phos.workbench.trace.core.AddressRange(from, to);
            if (direction != 2) {
                r[0].add(range);
                counts[0] += (to - from) / 4;
            }
            if (direction >= 2) {
                r[1].add(range);
                counts[1] += (to - from) / 4;
            }
        }
        for (var e : ranges.entrySet()) {
            long[] counts = byBase.get(e.getKey());
            w.observed(new org.phos.workbench.trace.core.ObservedAccess(event, e.getKey(), e.getValue()[0],
                    e.getValue()[1], counts[0], counts[1], SyntheticTraceOptions.OBSERVED_TOOL));
        }
    }

    private static void putLong(byte[] b, int at, long v) {
        for (int k = 0; k < 8; k++) {
            b[at + k] = (byte) (v >>> (8 * k));
        }
    }

    private static void putInt(byte[] b, int at, int v) {
        for (int k = 0; k < 4; k++) {
            b[at + k] = (byte) (v >>> (8 * k));
        }
    }
}
