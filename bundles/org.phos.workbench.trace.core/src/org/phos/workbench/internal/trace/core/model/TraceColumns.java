package org.phos.workbench.internal.trace.core.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.SyncKind;
import org.phos.workbench.trace.core.TraceAnomaly;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * The columns of a trace, filled by the reader (through the primitive {@code add*} methods, one call per decoded
 * event, nothing allocated) or by {@link TraceModelBuilder}, then frozen into a {@link ColumnarTrace}.
 * <p>
 * Layout: every event has a kind, host time, thread and a <i>row</i>, its index in the table of its kind. Each
 * kind has its own table of columns. Launches store an interned {@link LaunchShapes shape} id, a reference into
 * the parameter arena, and GPU start plus duration; the rare graph-node back references live in a sparse table.
 * Appends of a chunk can be undone with {@link #mark()}/{@link #rollback(Mark)} when the chunk turns out damaged.
 */
public final class TraceColumns implements EventSink {
    private static final int KINDS = EventKind.values().length;
    static final int NO_DURATION = -1;
    static final char BIG_THREAD = Character.MAX_VALUE;

    final TraceHeader header;
    final List<ModuleInfo> modules = new ArrayList<>();
    final Map<Integer, ModuleInfo> modulesById = new HashMap<>();
    final List<FunctionInfo> functions = new ArrayList<>();
    final Map<Integer, FunctionInfo> functionsById = new HashMap<>();
    final List<ObservedAccess> observed = new ArrayList<>();
    final List<ObservationCoverage> coverage = new ArrayList<>();   // i15-cost
    @Nullable TraceEnd end;
    /** TraceEnd chunks seen (the last one is {@link #end}); more than one is an anomaly. */
    int endChunks;
    /** TraceHeader chunks after the first (ignored), and the byte offset of the first of them. */
    int extraHeaders;
    long firstExtraHeaderOffset = -1;

    int eventCount;
    final int[] counts = new int[KINDS];
    final ByteColumn kind = new ByteColumn();
    final TimeColumn hostNs = new TimeColumn();
    final CharColumn thread = new CharColumn();
    final Map<Integer, Integer> bigThreads = new LinkedHashMap<>();
    final IntColumn row = new IntColumn();

    final LongInterner streams = new LongInterner();
    final TraceChecks checks = new TraceChecks(this);
    final LaunchShapes shapes = new LaunchShapes();
    final ByteArena params = new ByteArena();
    final ByteArena payloads = new ByteArena();

    final IntColumn launchEvent = new IntColumn();
    final IntColumn launchShape = new IntColumn();
    final LongColumn launchParams = new LongColumn();
    final TimeColumn launchGpuStart = new TimeColumn();
    final IntColumn launchGpuDuration = new IntColumn();
    final Map<Integer, Long> launchGpuEnds = new LinkedHashMap<>();
    final IntColumn graphNodeLaunch = new IntColumn();
    final LongColumn graphNodeOwner = new LongColumn();

    final LongColumn allocAddress = new LongColumn();
    final LongColumn allocSize = new LongColumn();
    final ByteColumn allocKind = new ByteColumn();
    final IntColumn allocStream = new IntColumn();

    final LongColumn freeAddress = new LongColumn();
    final ByteColumn freeKind = new ByteColumn();
    final IntColumn freeStream = new IntColumn();

    /** Copy kind code in the low 7 bits, async in bit 7. */
    final ByteColumn copyKindAsync = new ByteColumn();
    final LongColumn copySrc = new LongColumn();
    final LongColumn copyDst = new LongColumn();
    final LongColumn copyBytes = new LongColumn();
    final IntColumn copyStream = new IntColumn();
    final LongColumn copyPayload = new LongColumn();
    final TimeColumn copyGpuStart = new TimeColumn();
    final TimeColumn copyGpuEnd = new TimeColumn();

    final LongColumn setDst = new LongColumn();
    final LongColumn setBytes = new LongColumn();
    final IntColumn setValue = new IntColumn();
    final IntColumn setElementSize = new IntColumn();
    final ByteColumn setAsync = new ByteColumn();
    final IntColumn setStream = new IntColumn();
    final TimeColumn setGpuStart = new TimeColumn();
    final TimeColumn setGpuEnd = new TimeColumn();

    final ByteColumn syncKind = new ByteColumn();
    final IntColumn syncStream = new IntColumn();
    final LongColumn syncEvent = new LongColumn();
    final IntColumn syncFlags = new IntColumn();

    // i16-rec: begin
    /** CUDA array and tensor map events are rare: kept as their records, by row. */
    final List<org.phos.workbench.trace.core.TraceEvent.CudaArray> arrays = new ArrayList<>();
    final List<org.phos.workbench.trace.core.TraceEvent.TensorMap> tensorMaps = new ArrayList<>();
    // i16-rec: end
    /**
     * i15-alloc: allocator block events, kept as their records (a few per launch in a PyTorch program; about 64 bytes
     * each).
     */
    final List<org.phos.workbench.trace.core.TraceEvent.AllocatorBlock> allocatorBlocks = new ArrayList<>();

    final LongColumn graphExec = new LongColumn();
    final IntColumn graphStream = new IntColumn();
    final IntColumn graphNodes = new IntColumn();

    private final Column[] eventColumns = { kind, hostNs, thread, row };
    private final Column[][] tables = new Column[KINDS][];
    {
        tables[EventKind.ALLOC.ordinal()] = new Column[] { allocAddress, allocSize, allocKind, allocStream };
        tables[EventKind.FREE.ordinal()] = new Column[] { freeAddress, freeKind, freeStream };
        tables[EventKind.MEMCPY.ordinal()] = new Column[] { copyKindAsync, copySrc, copyDst, copyBytes, copyStream,
                copyPayload, copyGpuStart, copyGpuEnd };
        tables[EventKind.MEMSET.ordinal()] = new Column[] { setDst, setBytes, setValue, setElementSize, setAsync,
                setStream, setGpuStart, setGpuEnd };
        tables[EventKind.LAUNCH.ordinal()] = new Column[] { launchEvent, launchShape, launchParams, launchGpuStart,
                launchGpuDuration };
        tables[EventKind.SYNC.ordinal()] = new Column[] { syncKind, syncStream, syncEvent, syncFlags };
        tables[EventKind.GRAPH_LAUNCH.ordinal()] = new Column[] { graphExec, graphStream, graphNodes };
        tables[EventKind.UNKNOWN.ordinal()] = new Column[0];
        tables[EventKind.ARRAY.ordinal()] = new Column[0]; // i16-rec: the records in arrays
        tables[EventKind.TENSOR_MAP.ordinal()] = new Column[0]; // i16-rec: the records in tensorMaps
        tables[EventKind.ALLOCATOR_BLOCK.ordinal()] = new Column[0]; // i15-alloc: the records in allocatorBlocks
    }

    public TraceColumns(TraceHeader header) {
        this.header = header;
    }

    /** Stores an open-enum wire number in a byte: 0..126 as is, anything else as 127 (unrecognized). */
    static byte enumCode(int code) {
        return (byte) (code >= 0 && code < 127 ? code : 127);
    }

    private int addEvent(EventKind k, long host, int thr) {
        int i = eventCount++;
        checks.event(i, host, thr);
        kind.add((byte) k.ordinal());
        hostNs.add(host);
        if (thr >= 0 && thr < BIG_THREAD) {
            thread.add((char) thr);
        } else {
            thread.add(BIG_THREAD);
            bigThreads.put(i, thr);
        }
        int r = counts[k.ordinal()]++;
        row.add(r);
        return r;
    }

    @Override
    public void addAlloc(long host, int thr, long address, long size, int kindCode, long stream) {
        int i = eventCount;
        addEvent(EventKind.ALLOC, host, thr);
        allocAddress.add(address);
        allocSize.add(size);
        allocKind.add(enumCode(kindCode));
        int s = streams.intern(stream);
        allocStream.add(s);
        checks.stream(i, s, stream);
        checks.alloc(i, address, size);
    }

    @Override
    public void addFree(long host, int thr, long address, int kindCode, long stream) {
        int i = eventCount;
        addEvent(EventKind.FREE, host, thr);
        freeAddress.add(address);
        freeKind.add(enumCode(kindCode));
        int s = streams.intern(stream);
        freeStream.add(s);
        checks.stream(i, s, stream);
        checks.free(address);
    }

    @Override
    public void addMemcpy(long host, int thr, int kindCode, long src, long dst, long bytes, long stream,
            boolean async, byte[] payload, int payloadOffset, int payloadLength, long gpuStart, long gpuEnd) {
        int i = eventCount;
        addEvent(EventKind.MEMCPY, host, thr);
        copyKindAsync.add((byte) (enumCode(kindCode) | (async ? 0x80 : 0)));
        copySrc.add(src);
        copyDst.add(dst);
        copyBytes.add(bytes);
        int s = streams.intern(stream);
        copyStream.add(s);
        checks.stream(i, s, stream);
        checks.bytes(i, "copy", dst, bytes);
        checks.gpuTimes(i, "copy", gpuStart, gpuEnd);
        copyPayload.add(payloads.add(payload, payloadOffset, payloadLength));
        copyGpuStart.add(gpuStart);
        copyGpuEnd.add(gpuEnd);
    }

    @Override
    public void addMemset(long host, int thr, long dst, long bytes, int value, int elementSize, long stream,
            boolean async, long gpuStart, long gpuEnd) {
        int i = eventCount;
        addEvent(EventKind.MEMSET, host, thr);
        setDst.add(dst);
        setBytes.add(bytes);
        setValue.add(value);
        setElementSize.add(elementSize);
        setAsync.add((byte) (async ? 1 : 0));
        int s = streams.intern(stream);
        setStream.add(s);
        setGpuStart.add(gpuStart);
        setGpuEnd.add(gpuEnd);
        checks.stream(i, s, stream);
        checks.bytes(i, "fill", dst, bytes);
        checks.gpuTimes(i, "fill", gpuStart, gpuEnd);
    }

    @Override
    public void addLaunch(long host, int thr, int function, int gx, int gy, int gz, int bx, int by, int bz, int shm,
            long stream, byte[] buf, int paramOffset, int paramLength, long gpuStart, long gpuEnd, int kindCode,
            long graphLaunch) {
        int event = eventCount;
        int r = addEvent(EventKind.LAUNCH, host, thr);
        byte kc = enumCode(kindCode);
        launchEvent.add(event);
        int s = streams.intern(stream);
        launchShape.add(shapes.intern(function, gx, gy, gz, bx, by, bz, shm, kc, s));
        checks.stream(event, s, stream);
        launchParams.add(params.add(buf, paramOffset, paramLength));
        launchGpuStart.add(gpuStart);
        long d = gpuEnd - gpuStart;
        if (d >= 0 && d < 0xFFFF_FFFFL) {
            launchGpuDuration.add((int) d);
            if ((gpuStart & -TraceAnomaly.MAX_PLAUSIBLE_NS) != 0 || (gpuEnd & -TraceAnomaly.MAX_PLAUSIBLE_NS) != 0) {
                checks.gpuTimes(event, "launch", gpuStart, gpuEnd);
            }
        } else {
            launchGpuDuration.add(NO_DURATION);
            launchGpuEnds.put(r, gpuEnd);
            checks.gpuTimes(event, "launch", gpuStart, gpuEnd);
        }
        if (kc == LaunchKind.GRAPH_NODE.code() || graphLaunch != 0) {
            graphNodeLaunch.add(r);
            graphNodeOwner.add(graphLaunch);
            if (kc == LaunchKind.GRAPH_NODE.code()) {
                checks.graphNode(event, graphLaunch);
            }
        }
    }

    @Override
    public void addSync(long host, int thr, int kindCode, long stream, long cudaEvent, int flags) {
        int i = eventCount;
        addEvent(EventKind.SYNC, host, thr);
        syncKind.add(enumCode(kindCode));
        int s = streams.intern(stream);
        syncStream.add(s);
        if (kindCode == SyncKind.STREAM_CREATE.code()) {
            checks.streamCreated(s);
        } else {
            checks.stream(i, s, stream);
        }
        checks.sync(i, kindCode, cudaEvent);
        syncEvent.add(cudaEvent);
        syncFlags.add(flags);
    }

    @Override
    public void addGraphLaunch(long host, int thr, long exec, long stream, int kernelNodes) {
        int i = eventCount;
        addEvent(EventKind.GRAPH_LAUNCH, host, thr);
        graphExec.add(exec);
        int s = streams.intern(stream);
        graphStream.add(s);
        checks.stream(i, s, stream);
        graphNodes.add(kernelNodes);
    }

    @Override
    public void addUnknown(long host, int thr) {
        addEvent(EventKind.UNKNOWN, host, thr);
    }

    // i16-rec: begin
    @Override
    public void addArray(org.phos.workbench.trace.core.TraceEvent.CudaArray a) {
        int i = eventCount;
        addEvent(EventKind.ARRAY, a.hostNs(), a.thread());
        arrays.add(a);
        checks.bytes(i, "array", 0, a.bytes());
    }

    @Override
    public void addAllocatorBlock(org.phos.workbench.trace.core.TraceEvent.AllocatorBlock b) { // i15-alloc
        addEvent(EventKind.ALLOCATOR_BLOCK, b.hostNs(), b.thread());
        allocatorBlocks.add(b);
    }

    @Override
    public void addTensorMap(org.phos.workbench.trace.core.TraceEvent.TensorMap t) {
        int i = eventCount;
        addEvent(EventKind.TENSOR_MAP, t.hostNs(), t.thread());
        tensorMaps.add(t);
        checks.bytes(i, "tensor map", t.address(), t.extent());
    }
    // i16-rec: end

    public void addModule(ModuleInfo m) {
        modules.add(m);
        modulesById.putIfAbsent(m.id(), m);
    }

    public void addFunction(FunctionInfo f) {
        functions.add(f);
        functionsById.putIfAbsent(f.id(), f);
    }

    public void addObserved(ObservedAccess a) {
        observed.add(a);
    }

    /** i15-cost: which launches an observer observed. */
    public void addCoverage(ObservationCoverage c) {
        // i14-liveacc: begin (a live stream carries one coverage per hand-over: one per tool, the union)
        for (int i = 0; i < coverage.size(); i++) {
            ObservationCoverage o = coverage.get(i);
            if (o.tool().equals(c.tool())) {
                long[] a = o.observedEvents();
                long[] b = c.observedEvents();
                long[] both = java.util.Arrays.copyOf(a, a.length + b.length);
                System.arraycopy(b, 0, both, a.length, b.length);
                coverage.set(i, new ObservationCoverage(c.tool(), both, c.policy().isEmpty() ? o.policy() : c.policy(),
                        Math.max(o.launchesSeen(), c.launchesSeen())));
                return;
            }
        }
        // i14-liveacc: end
        coverage.add(c);
    }

    public void setEnd(TraceEnd e) {
        end = e;
        endChunks++;
    }

    /** A TraceHeader chunk after the first one, at byte {@code offset}: ignored, reported as an anomaly. */
    public void addExtraHeader(long offset) {
        if (extraHeaders++ == 0) {
            firstExtraHeaderOffset = offset;
        }
    }

    public int eventCount() {
        return eventCount;
    }

    public int count(EventKind k) {
        return counts[k.ordinal()];
    }

    /** Where appends stood; see {@link #rollback(Mark)}. */
    public record Mark(int events, int[] counts, long[] params, long[] payloads, int graphNodes, int observed,
            long[] anomalies) {
    }

    public Mark mark() {
        return new Mark(eventCount, counts.clone(), params.mark(), payloads.mark(), graphNodeLaunch.size(),
                observed.size(), checks.tallies());
    }

    /** Undoes every event and observed access appended since {@code m}. */
    public void rollback(Mark m) {
        for (Column c : eventColumns) {
            c.truncate(m.events);
        }
        bigThreads.keySet().removeIf(i -> i >= m.events);
        for (int k = 0; k < KINDS; k++) {
            for (Column c : tables[k]) {
                c.truncate(m.counts[k]);
            }
        }
        truncate(arrays, m.counts[EventKind.ARRAY.ordinal()]); // i16-rec
        truncate(tensorMaps, m.counts[EventKind.TENSOR_MAP.ordinal()]); // i16-rec
        truncate(allocatorBlocks, m.counts[EventKind.ALLOCATOR_BLOCK.ordinal()]); // i15-alloc
        int launches = m.counts[EventKind.LAUNCH.ordinal()];
        launchGpuEnds.keySet().removeIf(r -> r >= launches);
        graphNodeLaunch.truncate(m.graphNodes);
        graphNodeOwner.truncate(m.graphNodes);
        params.rollback(m.params);
        payloads.rollback(m.payloads);
        while (observed.size() > m.observed) {
            observed.remove(observed.size() - 1);
        }
        eventCount = m.events;
        System.arraycopy(m.counts, 0, counts, 0, KINDS);
        checks.restore(m.anomalies);
    }

    private static void truncate(List<?> l, int n) {
        while (l.size() > n) {
            l.remove(l.size() - 1);
        }
    }

    /** Trims all columns and returns the immutable model; this object must not be used afterwards. */
    public ColumnarTrace freeze() {
        for (Column c : eventColumns) {
            c.trim();
        }
        for (Column[] t : tables) {
            for (Column c : t) {
                c.trim();
            }
        }
        graphNodeLaunch.trim();
        graphNodeOwner.trim();
        params.trim();
        payloads.trim();
        return new ColumnarTrace(this);
    }

    long footprintBytes() {
        long bytes = 0;
        for (Column c : eventColumns) {
            bytes += c.footprintBytes();
        }
        for (Column[] t : tables) {
            for (Column c : t) {
                bytes += c.footprintBytes();
            }
        }
        bytes += graphNodeLaunch.footprintBytes() + graphNodeOwner.footprintBytes();
        bytes += params.footprintBytes() + payloads.footprintBytes();
        bytes += streams.footprintBytes() + shapes.footprintBytes();
        bytes += 64L * (bigThreads.size() + launchGpuEnds.size());
        for (ModuleInfo m : modules) {
            bytes += 64 + m.image().length;
        }
        for (FunctionInfo f : functions) {
            bytes += 128 + 2L * (f.mangledName().length() + f.demangledName().length()) + 32L * f.params().size();
        }
        bytes += 96L * arrays.size() + 320L * tensorMaps.size(); // i16-rec
        bytes += 64L * allocatorBlocks.size(); // i15-alloc
        for (ObservedAccess a : observed) {
            bytes += 96 + 40L * (a.read().size() + a.written().size());
        }
        return bytes;
    }
}
