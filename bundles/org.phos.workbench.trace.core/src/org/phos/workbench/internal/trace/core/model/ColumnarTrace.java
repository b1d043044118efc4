package org.phos.workbench.internal.trace.core.model;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.SyncKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceAnomaly;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;

/** The {@link Trace} over frozen {@link TraceColumns}. */
public final class ColumnarTrace implements Trace {
    private final TraceColumns c;
    private final List<ModuleInfo> modules;
    private final List<FunctionInfo> functions;
    private final List<ObservedAccess> observed;
    private final List<ObservationCoverage> coverage;
    private final List<TraceAnomaly> anomalies;

    ColumnarTrace(TraceColumns columns) {
        this.c = columns;
        this.modules = List.copyOf(columns.modules);
        this.functions = List.copyOf(columns.functions);
        this.observed = List.copyOf(columns.observed);
        this.coverage = List.copyOf(columns.coverage);
        this.anomalies = List.copyOf(columns.checks.finish());
    }

    /** What the checks made while the columns were filled found ({@link TraceChecks}), each kind once. */
    public List<TraceAnomaly> anomalies() { return anomalies; }

    @Override public TraceHeader header() { return c.header; }
    @Override public List<ModuleInfo> modules() { return modules; }
    @Override public @Nullable ModuleInfo moduleById(int id) { return c.modulesById.get(id); }
    @Override public List<FunctionInfo> functions() { return functions; }
    @Override public @Nullable FunctionInfo functionById(int id) { return c.functionsById.get(id); }
    @Override public List<ObservedAccess> observedAccesses() { return observed; }
    @Override public List<ObservationCoverage> observationCoverage() { return coverage; }
    @Override public @Nullable TraceEnd end() { return c.end; }
    @Override public long heapFootprintBytes() { return c.footprintBytes(); }
    @Override public long parameterBytes() { return c.params.totalLength(); }
    @Override public long payloadBytes() { return c.payloads.totalLength(); }
    @Override public int eventCount() { return c.eventCount; }
    @Override public int count(EventKind kind) { return c.counts[kind.ordinal()]; }

    @Override
    public EventKind kind(int i) {
        Objects.checkIndex(i, c.eventCount);
        return EventKind.ofOrdinal(c.kind.get(i));
    }

    @Override
    public long hostNs(int i) {
        Objects.checkIndex(i, c.eventCount);
        return c.hostNs.get(i);
    }

    @Override
    public int thread(int i) {
        Objects.checkIndex(i, c.eventCount);
        char t = c.thread.get(i);
        return t == TraceColumns.BIG_THREAD ? c.bigThreads.get(i) : t;
    }

    /** Row of event {@code i} in the table of {@code expected}, or an exception naming what it is. */
    private int row(int i, EventKind expected) {
        Objects.checkIndex(i, c.eventCount);
        int k = c.kind.get(i);
        if (k != expected.ordinal()) {
            throw wrongKind(i, k, expected.name());
        }
        return c.row.get(i);
    }

    private IllegalArgumentException wrongKind(int i, int k, String expected) {
        return new IllegalArgumentException("event " + i + " is " + EventKind.ofOrdinal(k) + ", not " + expected);
    }

    @Override
    public long stream(int i) {
        Objects.checkIndex(i, c.eventCount);
        int r = c.row.get(i);
        return switch (EventKind.ofOrdinal(c.kind.get(i))) {
            case ALLOC -> c.streams.value(c.allocStream.get(r));
            case FREE -> c.streams.value(c.freeStream.get(r));
            case MEMCPY -> c.streams.value(c.copyStream.get(r));
            case MEMSET -> c.streams.value(c.setStream.get(r));
            case LAUNCH -> c.streams.value(shape(r, LaunchShapes.STREAM));
            case SYNC -> c.streams.value(c.syncStream.get(r));
            case GRAPH_LAUNCH -> c.streams.value(c.graphStream.get(r));
            case UNKNOWN, ARRAY, TENSOR_MAP -> 0;
            case ALLOCATOR_BLOCK -> allocatorBlock(i).stream(); // i15-alloc
        };
    }

    @Override
    public long gpuStartNs(int i) {
        Objects.checkIndex(i, c.eventCount);
        int r = c.row.get(i);
        return switch (EventKind.ofOrdinal(c.kind.get(i))) {
            case LAUNCH -> c.launchGpuStart.get(r);
            case MEMCPY -> c.copyGpuStart.get(r);
            case MEMSET -> c.setGpuStart.get(r);
            default -> 0;
        };
    }

    @Override
    public long gpuEndNs(int i) {
        Objects.checkIndex(i, c.eventCount);
        int r = c.row.get(i);
        return switch (EventKind.ofOrdinal(c.kind.get(i))) {
            case LAUNCH -> launchGpuEnd(r);
            case MEMCPY -> c.copyGpuEnd.get(r);
            case MEMSET -> c.setGpuEnd.get(r);
            default -> 0;
        };
    }

    private long launchGpuEnd(int r) {
        int d = c.launchGpuDuration.get(r);
        return d == TraceColumns.NO_DURATION ? c.launchGpuEnds.get(r)
                : c.launchGpuStart.get(r) + Integer.toUnsignedLong(d);
    }

    @Override
    public TraceEvent event(int i) {
        long host = hostNs(i);
        int thr = thread(i);
        return switch (kind(i)) {
            case ALLOC -> new TraceEvent.Alloc(host, thr, address(i), size(i), allocKind(i), stream(i));
            case FREE -> new TraceEvent.Free(host, thr, address(i), allocKind(i), stream(i));
            case MEMCPY -> {
                byte[] payload = new byte[payloadLength(i)];
                copyPayload(i, payload, 0);
                yield new TraceEvent.Memcpy(host, thr, copyKind(i), src(i), dst(i), bytes(i), stream(i), async(i),
                        payload, gpuStartNs(i), gpuEndNs(i));
            }
            case MEMSET -> new TraceEvent.Memset(host, thr, dst(i), bytes(i), memsetValue(i), memsetElementSize(i),
                    stream(i), async(i), gpuStartNs(i), gpuEndNs(i));
            case LAUNCH -> {
                byte[] p = new byte[paramLength(i)];
                copyParams(i, p, 0);
                long g = graphLaunchEvent(i);
                yield new TraceEvent.Launch(host, thr, functionId(i), grid(i), block(i), sharedMem(i), stream(i), p,
                        gpuStartNs(i), gpuEndNs(i), launchKind(i), g < 0 ? rawGraphLaunch(c.row.get(i)) : g);
            }
            case SYNC -> new TraceEvent.Sync(host, thr, syncKind(i), stream(i), cudaEvent(i), syncFlags(i));
            case GRAPH_LAUNCH -> new TraceEvent.GraphLaunch(host, thr, graphExec(i), stream(i), graphKernelNodes(i));
            case UNKNOWN -> new TraceEvent.Unknown(host, thr);
            case ARRAY -> cudaArray(i); // i16-rec
            case TENSOR_MAP -> tensorMap(i); // i16-rec
            case ALLOCATOR_BLOCK -> allocatorBlock(i); // i15-alloc
        };
    }

    // i16-rec: begin
    @Override
    public TraceEvent.CudaArray cudaArray(int i) {
        return c.arrays.get(row(i, EventKind.ARRAY));
    }

    @Override
    public TraceEvent.TensorMap tensorMap(int i) {
        return c.tensorMaps.get(row(i, EventKind.TENSOR_MAP));
    }

    @Override
    public TraceEvent.AllocatorBlock allocatorBlock(int i) { // i15-alloc
        return c.allocatorBlocks.get(row(i, EventKind.ALLOCATOR_BLOCK));
    }
    // i16-rec: end

    // ---- launches ----

    @Override public int launchCount() { return c.counts[EventKind.LAUNCH.ordinal()]; }

    @Override
    public int launchEvent(int launchIndex) {
        Objects.checkIndex(launchIndex, launchCount());
        return c.launchEvent.get(launchIndex);
    }

    @Override
    public int launchIndex(int i) {
        Objects.checkIndex(i, c.eventCount);
        return c.kind.get(i) == EventKind.LAUNCH.ordinal() ? c.row.get(i) : -1;
    }

    private int shape(int r, int field) {
        return c.shapes.get(c.launchShape.get(r), field);
    }

    private int launchField(int i, int field) {
        return shape(row(i, EventKind.LAUNCH), field);
    }

    @Override public int functionId(int i) { return launchField(i, LaunchShapes.FUNCTION); }
    @Override public int gridX(int i) { return launchField(i, LaunchShapes.GRID_X); }
    @Override public int gridY(int i) { return launchField(i, LaunchShapes.GRID_Y); }
    @Override public int gridZ(int i) { return launchField(i, LaunchShapes.GRID_Z); }
    @Override public int blockX(int i) { return launchField(i, LaunchShapes.BLOCK_X); }
    @Override public int blockY(int i) { return launchField(i, LaunchShapes.BLOCK_Y); }
    @Override public int blockZ(int i) { return launchField(i, LaunchShapes.BLOCK_Z); }
    @Override public int sharedMem(int i) { return launchField(i, LaunchShapes.SHARED_MEM); }

    @Override
    public Dim3 grid(int i) {
        int s = c.launchShape.get(row(i, EventKind.LAUNCH));
        return new Dim3(c.shapes.get(s, LaunchShapes.GRID_X), c.shapes.get(s, LaunchShapes.GRID_Y),
                c.shapes.get(s, LaunchShapes.GRID_Z));
    }

    @Override
    public Dim3 block(int i) {
        int s = c.launchShape.get(row(i, EventKind.LAUNCH));
        return new Dim3(c.shapes.get(s, LaunchShapes.BLOCK_X), c.shapes.get(s, LaunchShapes.BLOCK_Y),
                c.shapes.get(s, LaunchShapes.BLOCK_Z));
    }

    @Override
    public LaunchKind launchKind(int i) {
        return LaunchKind.ofCode(launchField(i, LaunchShapes.KIND));
    }

    @Override
    public long graphLaunchEvent(int i) {
        int r = row(i, EventKind.LAUNCH);
        if (shape(r, LaunchShapes.KIND) != LaunchKind.GRAPH_NODE.code()) {
            return -1;
        }
        return rawGraphLaunch(r);
    }

    /** The stored graph_launch field of launch row {@code r}, 0 when none was stored. */
    private long rawGraphLaunch(int r) {
        int lo = 0;
        int hi = c.graphNodeLaunch.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int v = c.graphNodeLaunch.get(mid);
            if (v < r) {
                lo = mid + 1;
            } else if (v > r) {
                hi = mid - 1;
            } else {
                return c.graphNodeOwner.get(mid);
            }
        }
        return 0;
    }

    @Override
    public int paramLength(int i) {
        return c.params.lengthOf(c.launchParams.get(row(i, EventKind.LAUNCH)));
    }

    @Override
    public ByteBuffer params(int i) {
        return c.params.view(c.launchParams.get(row(i, EventKind.LAUNCH)));
    }

    @Override
    public int copyParams(int i, byte[] dst, int dstOffset) {
        return c.params.copy(c.launchParams.get(row(i, EventKind.LAUNCH)), dst, dstOffset);
    }

    @Override
    public long paramLong(int i, int offset) {
        return c.params.longAt(c.launchParams.get(row(i, EventKind.LAUNCH)), offset);
    }

    // ---- allocations ----

    @Override
    public long address(int i) {
        Objects.checkIndex(i, c.eventCount);
        int k = c.kind.get(i);
        if (k == EventKind.ALLOC.ordinal()) {
            return c.allocAddress.get(c.row.get(i));
        }
        if (k == EventKind.FREE.ordinal()) {
            return c.freeAddress.get(c.row.get(i));
        }
        throw wrongKind(i, k, "ALLOC or FREE");
    }

    @Override
    public long size(int i) {
        return c.allocSize.get(row(i, EventKind.ALLOC));
    }

    @Override
    public AllocKind allocKind(int i) {
        Objects.checkIndex(i, c.eventCount);
        int k = c.kind.get(i);
        if (k == EventKind.ALLOC.ordinal()) {
            return AllocKind.ofCode(c.allocKind.get(c.row.get(i)));
        }
        if (k == EventKind.FREE.ordinal()) {
            return AllocKind.ofCode(c.freeKind.get(c.row.get(i)));
        }
        throw wrongKind(i, k, "ALLOC or FREE");
    }

    // ---- copies and fills ----

    @Override
    public CopyKind copyKind(int i) {
        return CopyKind.ofCode(c.copyKindAsync.get(row(i, EventKind.MEMCPY)) & 0x7f);
    }

    @Override
    public long src(int i) {
        return c.copySrc.get(row(i, EventKind.MEMCPY));
    }

    @Override
    public long dst(int i) {
        Objects.checkIndex(i, c.eventCount);
        int k = c.kind.get(i);
        if (k == EventKind.MEMCPY.ordinal()) {
            return c.copyDst.get(c.row.get(i));
        }
        if (k == EventKind.MEMSET.ordinal()) {
            return c.setDst.get(c.row.get(i));
        }
        throw wrongKind(i, k, "MEMCPY or MEMSET");
    }

    @Override
    public long bytes(int i) {
        Objects.checkIndex(i, c.eventCount);
        int k = c.kind.get(i);
        if (k == EventKind.MEMCPY.ordinal()) {
            return c.copyBytes.get(c.row.get(i));
        }
        if (k == EventKind.MEMSET.ordinal()) {
            return c.setBytes.get(c.row.get(i));
        }
        throw wrongKind(i, k, "MEMCPY or MEMSET");
    }

    @Override
    public boolean async(int i) {
        Objects.checkIndex(i, c.eventCount);
        int k = c.kind.get(i);
        if (k == EventKind.MEMCPY.ordinal()) {
            return (c.copyKindAsync.get(c.row.get(i)) & 0x80) != 0;
        }
        if (k == EventKind.MEMSET.ordinal()) {
            return c.setAsync.get(c.row.get(i)) != 0;
        }
        throw wrongKind(i, k, "MEMCPY or MEMSET");
    }

    @Override
    public int payloadLength(int i) {
        return c.payloads.lengthOf(c.copyPayload.get(row(i, EventKind.MEMCPY)));
    }

    @Override
    public ByteBuffer payload(int i) {
        return c.payloads.view(c.copyPayload.get(row(i, EventKind.MEMCPY)));
    }

    @Override
    public int copyPayload(int i, byte[] dst, int dstOffset) {
        return c.payloads.copy(c.copyPayload.get(row(i, EventKind.MEMCPY)), dst, dstOffset);
    }

    @Override
    public int memsetValue(int i) {
        return c.setValue.get(row(i, EventKind.MEMSET));
    }

    @Override
    public int memsetElementSize(int i) {
        return c.setElementSize.get(row(i, EventKind.MEMSET));
    }

    // ---- sync and graphs ----

    @Override
    public SyncKind syncKind(int i) {
        return SyncKind.ofCode(c.syncKind.get(row(i, EventKind.SYNC)));
    }

    @Override
    public long cudaEvent(int i) {
        return c.syncEvent.get(row(i, EventKind.SYNC));
    }

    @Override
    public int syncFlags(int i) {
        return c.syncFlags.get(row(i, EventKind.SYNC));
    }

    @Override
    public long graphExec(int i) {
        return c.graphExec.get(row(i, EventKind.GRAPH_LAUNCH));
    }

    @Override
    public int graphKernelNodes(int i) {
        return c.graphNodes.get(row(i, EventKind.GRAPH_LAUNCH));
    }

    @Override
    public String toString() {
        return "Trace[" + c.eventCount + " events, " + launchCount() + " launches, " + functions.size()
                + " functions, recorder " + c.header.recorder() + "]";
    }
}
