package org.phos.workbench.trace.core;

import java.util.ArrayList;
import java.util.List;

/** Small traces holding every event kind and field, with edge values, for the format tests. */
final class TraceFixtures {
    private TraceFixtures() {
    }

    static TraceHeader header() {
        return TraceHeader.builder("phos-recorder", "0.1.0-test")
                .host("gpu-node-7")
                .pid(31337)
                .argv(List.of("python3", "train.py", "--epochs=1", "ünïcödé"))
                .deviceName("NVIDIA H100 80GB HBM3")
                .computeCapability(9, 0)
                .driverVersion(13000)
                .runtimeVersion(12080)
                .startUnixNs(1_767_225_600_123_456_789L)
                .startMonoNs(-2L) // unsigned 2^64-2
                .payloadLimit(4096)
                .gpuTiming(true)
                .deviceMemory(85_045_460_992L)
                .build();
    }

    static List<ModuleInfo> modules() {
        byte[] ptx = ".version 8.0\n.target sm_90\n.entry k() { ret; }\n".repeat(40).getBytes();
        return List.of(ModuleInfo.of(1, ModuleKind.PTX, ptx, "cuModuleLoadData"),
                ModuleInfo.of(2, ModuleKind.FATBIN, new byte[] { 0x50, (byte) 0xED, 0x55, (byte) 0xBA }, "cuLibraryLoadData"),
                new ModuleInfo(3, ModuleKind.CUBIN, new byte[0], 0x1234_5678_9abc_def0L, "", 1L << 40));
    }

    static List<FunctionInfo> functions() {
        return List.of(
                new FunctionInfo(1, 1, "_Z4axpyfPKfPfi", "axpy(float, float const*, float*, int)",
                        List.of(new ParamInfo(0, 4), new ParamInfo(8, 8), new ParamInfo(16, 8), new ParamInfo(24, 4))),
                new FunctionInfo(2, 2, "triton_poi_fused_add_0", "", List.of(new ParamInfo(0, 8), new ParamInfo(8, 48))),
                new FunctionInfo(-1, 0, "", "", List.of()));
    }

    /** One event of every kind and enum value, with zero, large and "negative" (unsigned) values. */
    static List<TraceEvent> events() {
        List<TraceEvent> e = new ArrayList<>();
        long t = 0;
        for (AllocKind k : AllocKind.values()) {
            if (k != AllocKind.UNRECOGNIZED) {
                e.add(new TraceEvent.Alloc(t += 10, 1, 0x7f00_0000_0000L + k.code() * 0x1000L, 4096L << k.code(), k,
                        k == AllocKind.ASYNC ? 0x5555_0000_1000L : 0));
                e.add(new TraceEvent.Free(t += 10, 2, 0x7f00_0000_0000L + k.code() * 0x1000L, k, 7));
            }
        }
        e.add(new TraceEvent.Alloc(t += 1, 0, 0, 0, AllocKind.PLAIN, 0)); // all defaults
        e.add(new TraceEvent.Alloc(t += 1, -1, -1L, Long.MIN_VALUE, AllocKind.PITCHED, -1L)); // max unsigned
        for (CopyKind k : CopyKind.values()) {
            if (k != CopyKind.UNRECOGNIZED) {
                byte[] payload = k == CopyKind.H2D ? new byte[] { 1, 2, 3, 4, 5, 6, 7, (byte) 0xff } : new byte[0];
                e.add(new TraceEvent.Memcpy(t += 5, 3, k, 0x5600_0000_0000L, 0x7f00_0000_2000L, 8, 2, k.code() % 2 == 0,
                        payload, k.code() * 100L, k.code() * 100L + 50));
            }
        }
        e.add(new TraceEvent.Memcpy(t += 5, 1, CopyKind.H2D, 1, 2, 300_000, 0, true, new byte[300_000], 0, 0));
        e.add(new TraceEvent.Memset(t += 5, 1, 0x7f00_0000_4000L, 1 << 20, 0xdeadbeef, 4, 0x5555_0000_2000L, true,
                1_000_000, 1_002_000));
        e.add(new TraceEvent.Memset(t += 5, 1, 0, 0, 0, 0, 0, false, 0, 0));
        byte[] p1 = new byte[28];
        p1[0] = 0x3f;
        p1[8] = 0x10;
        p1[15] = 0x7f;
        e.add(new TraceEvent.Launch(t += 7, 1, 1, new Dim3(1024, 1, 1), new Dim3(256, 1, 1), 0, 0, p1, 5000, 7000,
                LaunchKind.PLAIN, 0));
        e.add(new TraceEvent.Launch(t += 7, 4, 2, new Dim3(-1, 65535, 65535), new Dim3(32, 32, 1), 49152,
                0x5555_0000_1000L, new byte[56], 5L, -1L, LaunchKind.EX, 0)); // unsigned extremes, huge duration
        e.add(new TraceEvent.Launch(t += 7, 1, 99, new Dim3(1, 1, 1), new Dim3(1, 1, 1), 0, 2, new byte[0], 0, 0,
                LaunchKind.COOPERATIVE, 0)); // unknown function, no params
        long graphIndex = e.size();
        e.add(new TraceEvent.GraphLaunch(t += 3, 1, 0x5555_2000_0000L, 0x5555_0000_1000L, 2));
        for (int n = 0; n < 2; n++) {
            e.add(new TraceEvent.Launch(t += 1, 1, 1, new Dim3(8, 1, 1), new Dim3(128, 1, 1), 0, 0x5555_0000_1000L,
                    p1, 8000 + n * 100, 8050 + n * 100, LaunchKind.GRAPH_NODE, graphIndex));
        }
        e.add(new TraceEvent.Launch(t += 1, 1, 1, new Dim3(8, 1, 1), new Dim3(128, 1, 1), 0, 0, p1, 0, 0,
                LaunchKind.GRAPH_NODE, 0)); // graph node of the graph launch at index 0 (proto3 default)
        for (SyncKind k : SyncKind.values()) {
            if (k != SyncKind.UNRECOGNIZED) {
                e.add(new TraceEvent.Sync(t += 2, 1, k, 0x5555_0000_0000L + k.code(), k.code() * 0x100L, k.code()));
            }
        }
        e.add(new TraceEvent.GraphLaunch(t += 3, 70_000, -1L, 0, 0)); // thread beyond 16 bits
        e.add(new TraceEvent.Sync(t - 1_000_000_000_000L, 1, SyncKind.CONTEXT_SYNCHRONIZE, 0, 0, 0)); // time jump back
        return e;
    }

    static List<ObservedAccess> observed() {
        return List.of(
                new ObservedAccess(40, 0x7f00_0000_0000L, List.of(new AddressRange(0x7f00_0000_0000L, 0x7f00_0000_0100L)),
                        List.of(new AddressRange(0x7f00_0000_0200L, 0x7f00_0000_0208L),
                                new AddressRange(0x7f00_0000_0400L, 0x7f00_0000_0408L)),
                        64, 2, "ptx-instrument"),
                new ObservedAccess(41, 0, List.of(), List.of(), 0, 0, ""));
    }

    static Trace model() {
        Trace.Builder b = Trace.builder(header());
        modules().forEach(b::module);
        functions().forEach(b::function);
        events().forEach(b::event);
        observed().forEach(b::observed);
        return b.end(new TraceEnd(events().size(), 0, 0)).build();
    }
}
