package org.phos.workbench.internal.trace.core.format;

import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.StreamGap;
import org.phos.workbench.trace.core.StreamStart;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.GpuTimeSource;
import org.phos.workbench.trace.core.GpuTimingSampling;
import org.phos.workbench.trace.core.ObservationCoverage;

/** Encoding and decoding of the v1 messages other than events (field numbers from phos-trace-v1.proto). */
final class Messages {
    private Messages() {
    }

    static void encodeHeader(TraceHeader h, ProtoWriter w) {
        w.uint32(1, h.formatVersion());
        w.string(2, h.recorder());
        w.string(3, h.recorderVersion());
        w.string(4, h.host());
        w.uint32(5, h.pid());
        for (String a : h.argv()) {
            w.repeatedString(6, a);
        }
        w.string(7, h.deviceName());
        w.uint32(8, h.ccMajor());
        w.uint32(9, h.ccMinor());
        w.uint32(10, h.driverVersion());
        w.uint32(11, h.runtimeVersion());
        w.string(12, h.clockDomain());
        w.uint64(13, h.startUnixNs());
        w.uint64(14, h.startMonoNs());
        w.uint64(15, h.payloadLimit());
        w.bool(16, h.gpuTiming());
        w.uint64(17, h.deviceMemory());
        GpuTimingSampling ts = h.timingSampling();
        if (ts.sampled()) {   // i15-cost: field 40; absent = every launch timed
            ProtoWriter sub = new ProtoWriter(64);
            sub.uint32(1, 1);
            sub.uint32(2, ts.firstLaunches());
            sub.uint32(3, ts.minInterval());
            sub.uint32(4, ts.maxInterval());
            sub.uint32(5, ts.budgetPermille());
            sub.string(6, ts.shapeKey());
            GpuTimingSampling.Bursts b = ts.bursts();
            if (b.on()) {   // i15-burst: fields 27-30
                sub.uint32(27, b.launches());
                sub.uint32(28, b.dutyPermille());
                sub.uint32(29, b.maxMs());
                sub.uint32(30, b.gapMaxMs());
                if (b.firstMaxMs() > 0) {   // i15-settle: fields 31-32
                    sub.uint32(31, b.firstMaxMs());
                }
                if (b.releaseAfterFirst()) {
                    sub.uint32(32, 1);
                }
            }
            GpuTimeSource src = ts.timeSource();
            if (src.stated()) {   // i15-timing: fields 20-26
                sub.string(20, src.source());
                sub.uint32(21, src.eventGate() ? 1 : 0);
                if (!src.eventCorrection().isEmpty()) {
                    sub.string(22, src.eventCorrection());
                }
                if ("in-pair-probe".equals(src.eventCorrection())) {
                    sub.uint64(23, src.probeKernelNs());
                    sub.string(25, src.probeFallback());
                    sub.uint32(26, src.probeWindow());
                }
                if (src.eventBiasNs() > 0) {
                    sub.uint64(24, src.eventBiasNs());
                }
            }
            w.message(40, sub);
        }
        w.string(45, h.allocatorEvents()); // i15-alloc
        w.string(46, h.workingDirectory());
    }

    static TraceHeader decodeHeader(ProtoReader r) throws WireFormatException {
        int version = 0, pid = 0, ccMajor = 0, ccMinor = 0, driver = 0, runtime = 0;
        String recorder = "", recorderVersion = "", host = "", device = "", clock = "";
        List<String> argv = new ArrayList<>();
        long startUnix = 0, startMono = 0, payloadLimit = 0, deviceMemory = 0;
        boolean gpuTiming = false;
        GpuTimingSampling sampling = GpuTimingSampling.EVERY_LAUNCH;
        String allocatorEvents = ""; // i15-alloc
        String workingDirectory = "";
        while (r.more()) {
            int t = r.tag();
            switch (t) {
                case 1 << 3 -> version = (int) r.varint();
                case 2 << 3 | 2 -> recorder = r.string();
                case 3 << 3 | 2 -> recorderVersion = r.string();
                case 4 << 3 | 2 -> host = r.string();
                case 5 << 3 -> pid = (int) r.varint();
                case 6 << 3 | 2 -> argv.add(r.string());
                case 7 << 3 | 2 -> device = r.string();
                case 8 << 3 -> ccMajor = (int) r.varint();
                case 9 << 3 -> ccMinor = (int) r.varint();
                case 10 << 3 -> driver = (int) r.varint();
                case 11 << 3 -> runtime = (int) r.varint();
                case 12 << 3 | 2 -> clock = r.string();
                case 13 << 3 -> startUnix = r.varint();
                case 14 << 3 -> startMono = r.varint();
                case 15 << 3 -> payloadLimit = r.varint();
                case 16 << 3 -> gpuTiming = r.varint() != 0;
                case 17 << 3 -> deviceMemory = r.varint();
                case 40 << 3 | 2 -> sampling = decodeTimingSampling(r);
                case 45 << 3 | 2 -> allocatorEvents = r.string(); // i15-alloc
                case 46 << 3 | 2 -> workingDirectory = r.string();
                default -> r.skip(t);
            }
        }
        return new TraceHeader(version, recorder, recorderVersion, host, pid, argv, device, ccMajor, ccMinor, driver,
                runtime, clock, startUnix, startMono, payloadLimit, gpuTiming, deviceMemory, sampling, allocatorEvents,
                workingDirectory);
    }

    /** TraceHeader.timing_sampling (i15-cost): mode 0 is every launch timed. */
    private static GpuTimingSampling decodeTimingSampling(ProtoReader r) throws WireFormatException {
        int n = r.length();
        int end = r.pos + n;
        int saved = r.limit;
        r.limit = end;
        int mode = 0, first = 0, nmin = 1, nmax = 1, budget = 0;
        String key = "";
        String source = "", correction = "", fallback = "";   // i15-timing
        boolean gate = false;
        long probeNs = 0, biasNs = 0;
        int window = 0;
        int[] burst = new int[6];   // i15-burst: fields 27-30; i15-settle: 31-32
        while (r.more()) {
            int t = r.tag();
            switch (t) {
                case 1 << 3 -> mode = (int) r.varint();
                case 2 << 3 -> first = (int) r.varint();
                case 3 << 3 -> nmin = (int) r.varint();
                case 4 << 3 -> nmax = (int) r.varint();
                case 5 << 3 -> budget = (int) r.varint();
                case 6 << 3 | 2 -> key = r.string();
                case 20 << 3 | 2 -> source = r.string();
                case 21 << 3 -> gate = r.varint() != 0;
                case 22 << 3 | 2 -> correction = r.string();
                case 23 << 3 -> probeNs = r.varint();
                case 24 << 3 -> biasNs = r.varint();
                case 25 << 3 | 2 -> fallback = r.string();
                case 26 << 3 -> window = (int) r.varint();
                case 27 << 3, 28 << 3, 29 << 3, 30 << 3, 31 << 3, 32 << 3 -> burst[(t >>> 3) - 27] = (int) r.varint();
                default -> r.skip(t);
            }
        }
        r.limit = saved;
        GpuTimeSource src = source.isEmpty() ? GpuTimeSource.UNSTATED
                : new GpuTimeSource(source, gate, correction, probeNs, biasNs, fallback, window);
        GpuTimingSampling.Bursts bursts = burst[0] > 0 ? new GpuTimingSampling.Bursts(burst[0], burst[1], burst[2], burst[3],
                burst[4], burst[5] != 0)
                : GpuTimingSampling.Bursts.NONE;
        return mode == 0 ? GpuTimingSampling.EVERY_LAUNCH
                : new GpuTimingSampling(true, first, nmin, nmax, budget, key, src, bursts);
    }

    static void encodeModule(ModuleInfo m, ProtoWriter w) {
        w.uint32(1, m.id());
        w.uint64(2, m.kind().code());
        w.bytes(3, m.image(), 0, m.image().length);
        w.fixed64(4, m.hash());
        w.string(5, m.origin());
        w.uint64(6, m.imageSize());
        if (m.ptx().length > 0) {   // i15-cost: PTX found beside the image (Triton's cache)
            w.bytes(20, m.ptx(), 0, m.ptx().length);
            w.string(21, m.ptxSource());
        }
    }

    static ModuleInfo decodeModule(ProtoReader r) throws WireFormatException {
        int id = 0;
        int kind = 0;
        byte[] image = new byte[0];
        long hash = 0, size = 0;
        String origin = "", ptxSource = "";
        byte[] ptx = new byte[0];
        while (r.more()) {
            int t = r.tag();
            switch (t) {
                case 1 << 3 -> id = (int) r.varint();
                case 2 << 3 -> kind = (int) r.varint();
                case 3 << 3 | 2 -> image = r.bytes();
                case 20 << 3 | 2 -> ptx = r.bytes();
                case 21 << 3 | 2 -> ptxSource = r.string();
                case 4 << 3 | 1 -> hash = r.fixed64();
                case 5 << 3 | 2 -> origin = r.string();
                case 6 << 3 -> size = r.varint();
                default -> r.skip(t);
            }
        }
        return new ModuleInfo(id, ModuleKind.ofCode(kind), image, hash, origin, size, ptx, ptxSource);
    }

    static void encodeFunction(FunctionInfo f, ProtoWriter w, ProtoWriter scratch) {
        w.uint32(1, f.id());
        w.uint32(2, f.moduleId());
        w.string(3, f.mangledName());
        w.string(4, f.demangledName());
        for (ParamInfo p : f.params()) {
            scratch.reset();
            scratch.uint32(1, p.offset());
            scratch.uint32(2, p.size());
            w.message(5, scratch);
        }
    }

    static FunctionInfo decodeFunction(ProtoReader r) throws WireFormatException {
        int id = 0, module = 0;
        String mangled = "", demangled = "";
        List<ParamInfo> params = new ArrayList<>();
        while (r.more()) {
            int t = r.tag();
            switch (t) {
                case 1 << 3 -> id = (int) r.varint();
                case 2 << 3 -> module = (int) r.varint();
                case 3 << 3 | 2 -> mangled = r.string();
                case 4 << 3 | 2 -> demangled = r.string();
                case 5 << 3 | 2 -> {
                    int n = r.length();
                    int end = r.pos + n;
                    int saved = r.limit;
                    r.limit = end;
                    int offset = 0, size = 0;
                    while (r.more()) {
                        int pt = r.tag();
                        switch (pt) {
                            case 1 << 3 -> offset = (int) r.varint();
                            case 2 << 3 -> size = (int) r.varint();
                            default -> r.skip(pt);
                        }
                    }
                    r.limit = saved;
                    params.add(new ParamInfo(offset, size));
                }
                default -> r.skip(t);
            }
        }
        return new FunctionInfo(id, module, mangled, demangled, params);
    }

    static void encodeObserved(ObservedAccess a, ProtoWriter w, ProtoWriter scratch) {
        w.uint64(1, a.launchEvent());
        w.uint64(2, a.allocation());
        for (AddressRange range : a.read()) {
            encodeRange(3, range, w, scratch);
        }
        for (AddressRange range : a.written()) {
            encodeRange(4, range, w, scratch);
        }
        w.uint64(5, a.readCount());
        w.uint64(6, a.writeCount());
        w.string(7, a.tool());
        if (a.flags() != 0) {
            w.uint64(8, a.flags() & 0xFFFF_FFFFL);
        }
    }

    private static void encodeRange(int field, AddressRange range, ProtoWriter w, ProtoWriter scratch) {
        scratch.reset();
        scratch.uint64(1, range.begin());
        scratch.uint64(2, range.end());
        w.message(field, scratch);
    }

    /** Decodes an ObservedBatch into {@code out}. */
    static void decodeObservedBatch(ProtoReader r, List<ObservedAccess> out) throws WireFormatException {
        decodeObservedBatch(r, out, new ArrayList<>());
    }

    /** Decodes an ObservedBatch into {@code out} and its coverage (field 2, i15-cost) into {@code coverage}. */
    static void decodeObservedBatch(ProtoReader r, List<ObservedAccess> out, List<ObservationCoverage> coverage)
            throws WireFormatException {
        while (r.more()) {
            int t = r.tag();
            if (t == (1 << 3 | 2)) {
                int n = r.length();
                int end = r.pos + n;
                int saved = r.limit;
                r.limit = end;
                out.add(decodeObserved(r));
                r.limit = saved;
            } else if (t == (2 << 3 | 2)) {
                int n = r.length();
                int end = r.pos + n;
                int saved = r.limit;
                r.limit = end;
                coverage.add(decodeCoverage(r));
                r.limit = saved;
            } else {
                r.skip(t);
            }
        }
    }

    private static ObservationCoverage decodeCoverage(ProtoReader r) throws WireFormatException {
        String tool = "", policy = "";
        long seen = 0;
        String shapeRule = null;                     // i15-shapes: fields 20-25
        long[] shapeFigures = new long[5];
        long[] idx = new long[16];
        int n = 0;
        while (r.more()) {
            int t = r.tag();
            switch (t) {
                case 1 << 3 | 2 -> tool = r.string();
                case 2 << 3 | 2 -> {   // packed varints
                    int len = r.length();
                    int end = r.pos + len;
                    int saved = r.limit;
                    r.limit = end;
                    while (r.more()) {
                        if (n == idx.length) {
                            idx = java.util.Arrays.copyOf(idx, n * 2);
                        }
                        idx[n++] = r.varint();
                    }
                    r.limit = saved;
                }
                case 2 << 3 -> {       // unpacked
                    if (n == idx.length) {
                        idx = java.util.Arrays.copyOf(idx, n * 2);
                    }
                    idx[n++] = r.varint();
                }
                case 3 << 3 | 2 -> policy = r.string();
                case 4 << 3 -> seen = r.varint();
                case 20 << 3 | 2 -> shapeRule = r.string();
                case 21 << 3, 22 << 3, 23 << 3, 24 << 3, 25 << 3 -> shapeFigures[(t >>> 3) - 21] = r.varint();
                default -> r.skip(t);
            }
        }
        ObservationCoverage.ShapeSampling shapes = shapeRule == null ? null
                : new ObservationCoverage.ShapeSampling(shapeRule, shapeFigures[0], shapeFigures[1], shapeFigures[2],
                        shapeFigures[3], shapeFigures[4]);
        return new ObservationCoverage(tool, java.util.Arrays.copyOf(idx, n), policy, seen, shapes);
    }

    static void encodeCoverage(ObservationCoverage c, ProtoWriter w, ProtoWriter scratch) {
        w.string(1, c.tool());
        scratch.reset();
        for (long e : c.observedEvents()) {
            scratch.rawVarint(e);
        }
        w.bytes(2, scratch.buf, 0, scratch.len);
        w.string(3, c.policy());
        w.uint64(4, c.launchesSeen());
        ObservationCoverage.ShapeSampling s = c.shapes();   // i15-shapes
        if (s != null) {
            w.string(20, s.rule());
            w.uint64(21, s.dimensionShapes());
            w.uint64(22, s.argumentShapes());
            w.uint64(23, s.cappedLaunches());
            w.uint64(24, s.launchesWithoutParameters());
            w.uint64(25, s.unpatches());
        }
    }

    private static ObservedAccess decodeObserved(ProtoReader r) throws WireFormatException {
        long launch = 0, allocation = 0, readCount = 0, writeCount = 0;
        List<AddressRange> read = new ArrayList<>();
        List<AddressRange> written = new ArrayList<>();
        String tool = "";
        int flags = 0;
        while (r.more()) {
            int t = r.tag();
            switch (t) {
                case 1 << 3 -> launch = r.varint();
                case 2 << 3 -> allocation = r.varint();
                case 3 << 3 | 2 -> read.add(decodeRange(r));
                case 4 << 3 | 2 -> written.add(decodeRange(r));
                case 5 << 3 -> readCount = r.varint();
                case 6 << 3 -> writeCount = r.varint();
                case 7 << 3 | 2 -> tool = r.string();
                case 8 << 3 -> flags = (int) r.varint();
                default -> r.skip(t);
            }
        }
        return new ObservedAccess(launch, allocation, read, written, readCount, writeCount, tool, flags);
    }

    private static AddressRange decodeRange(ProtoReader r) throws WireFormatException {
        int n = r.length();
        int saved = r.limit;
        r.limit = r.pos + n;
        long begin = 0, end = 0;
        while (r.more()) {
            int t = r.tag();
            switch (t) {
                case 1 << 3 -> begin = r.varint();
                case 2 << 3 -> end = r.varint();
                default -> r.skip(t);
            }
        }
        r.limit = saved;
        return new AddressRange(begin, end);
    }

    static void encodeEnd(TraceEnd e, ProtoWriter w) {
        w.uint64(1, e.eventCount());
        w.uint64(2, e.droppedEvents());
        w.uint64(3, e.endNs());
        // i16-rec: begin
        for (TraceEnd.UnrecordedCalls u : e.unrecorded()) {
            ProtoWriter m = new ProtoWriter(64);
            m.string(1, u.call());
            m.uint64(2, u.count());
            w.message(4, m);
        }
        // i16-rec: end
        for (TraceEnd.TimingGap g : e.timingGaps()) { // i14-cupti
            ProtoWriter m = new ProtoWriter(64);
            m.uint64(1, g.startNs());
            m.uint64(2, g.endNs());
            m.string(3, g.source());
            m.string(4, g.reason());
            w.message(5, m);
        }
    }

    static TraceEnd decodeEnd(ProtoReader r) throws WireFormatException {
        long count = 0, dropped = 0, end = 0;
        java.util.List<TraceEnd.UnrecordedCalls> unrecorded = new java.util.ArrayList<>();
        java.util.List<TraceEnd.TimingGap> gaps = new java.util.ArrayList<>(); // i14-cupti
        while (r.more()) {
            int t = r.tag();
            switch (t) {
                case 1 << 3 -> count = r.varint();
                case 2 << 3 -> dropped = r.varint();
                case 3 << 3 -> end = r.varint();
                case 4 << 3 | 2 -> unrecorded.add(decodeUnrecorded(r)); // i16-rec
                case 5 << 3 | 2 -> gaps.add(decodeTimingGap(r)); // i14-cupti
                default -> r.skip(t);
            }
        }
        return new TraceEnd(count, dropped, end, unrecorded, gaps);
    }

    // i14-cupti: begin
    private static TraceEnd.TimingGap decodeTimingGap(ProtoReader r) throws WireFormatException {
        int n = r.length();
        int saved = r.limit;
        r.limit = r.pos + n;
        long start = 0, end = 0;
        String source = "", reason = "";
        while (r.more()) {
            int t = r.tag();
            switch (t) {
                case 1 << 3 -> start = r.varint();
                case 2 << 3 -> end = r.varint();
                case 3 << 3 | 2 -> source = r.string();
                case 4 << 3 | 2 -> reason = r.string();
                default -> r.skip(t);
            }
        }
        r.limit = saved;
        return new TraceEnd.TimingGap(start, end, source, reason);
    }
    // i14-cupti: end

    // i16-rec: begin
    private static TraceEnd.UnrecordedCalls decodeUnrecorded(ProtoReader r) throws WireFormatException {
        int n = r.length();
        int saved = r.limit;
        r.limit = r.pos + n;
        String call = "";
        long count = 0;
        while (r.more()) {
            int t = r.tag();
            switch (t) {
                case 1 << 3 | 2 -> call = r.string();
                case 2 << 3 -> count = r.varint();
                default -> r.skip(t);
            }
        }
        r.limit = saved;
        return new TraceEnd.UnrecordedCalls(call, count);
    }
    // i16-rec: end

    // i14-liveacc: begin
    /** An ObservedGap (live stream only): the number of launches whose observations the reader missed (field 2). */
    static long decodeObservedGap(ProtoReader r) throws WireFormatException {
        long launches = 0;
        while (r.more()) {
            int t = r.tag();
            if (t == ((2 << 3) | 0)) {
                launches = r.varint();
            } else {
                r.skip(t);
            }
        }
        return launches;
    }

    /** The highest launch index an ObservedBatch names (its accesses and coverage); -1 when it names none. */
    public static long observedBatchLastLaunch(byte[] payload) throws WireFormatException {
        List<ObservedAccess> acc = new ArrayList<>();
        List<ObservationCoverage> cov = new ArrayList<>();
        decodeObservedBatch(new ProtoReader(payload, 0, payload.length), acc, cov);
        long last = -1;
        for (ObservedAccess a : acc) {
            last = Math.max(last, a.launchEvent());
        }
        for (ObservationCoverage c : cov) {
            long[] e = c.observedEvents();
            if (e.length > 0) {
                last = Math.max(last, e[e.length - 1]);
            }
        }
        return last;
    }

    /** The launches an ObservedGap says the reader missed. */
    public static long observedGapLaunches(byte[] payload) throws WireFormatException {
        return decodeObservedGap(new ProtoReader(payload, 0, payload.length));
    }
    // i14-liveacc: end

    static StreamGap decodeGap(ProtoReader r) throws WireFormatException {
        long first = 0, count = 0, reason = 0;
        while (r.more()) {
            int t = r.tag();
            switch (t) {
                case 1 << 3 -> first = r.varint();
                case 2 << 3 -> count = r.varint();
                case 3 << 3 -> reason = r.varint();
                default -> r.skip(t);
            }
        }
        return new StreamGap(first, count, StreamGap.Reason.ofCode(reason));
    }

    static StreamStart decodeStreamStart(ProtoReader r) throws WireFormatException {
        long first = 0, soFar = 0, dropped = 0, pid = 0, live = 0, at = 0;
        String path = "";
        while (r.more()) {
            int t = r.tag();
            switch (t) {
                case 1 << 3 -> first = r.varint();
                case 2 << 3 -> soFar = r.varint();
                case 3 << 3 -> dropped = r.varint();
                case 4 << 3 | ProtoReader.LEN -> path = r.string();
                case 5 << 3 -> pid = r.varint();
                case 6 << 3 -> live = r.varint();
                case 7 << 3 -> at = r.varint();
                default -> r.skip(t);
            }
        }
        return new StreamStart(first, soFar, dropped, path, pid, live, at);
    }
}
