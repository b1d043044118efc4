package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * i15-cost: the sampled-timing policy in the header (field 40), the PTX stored beside a module (Module fields 20/21,
 * Triton), observation coverage (ObservedBatch field 2), as written by the recorder and the sanitizer tool and read
 * back, and the GPU time estimate of untimed launches.
 */
class SamplingAndCoverageTest {
    @TempDir
    Path dir;

    private static final GpuTimingSampling SAMPLED = new GpuTimingSampling(true, 3, 16, 1024, 10, "function+grid+block");

    @Test
    void policyModulePtxAndCoverageSurviveWriteAndRead() throws IOException, InterruptedException {
        TraceHeader h = TraceHeader.builder("phos-recorder", "t").gpuTiming(true).timingSampling(SAMPLED).build();
        byte[] ptx = ".version 8.7\n.target sm_90a\n.visible .entry add_kernel() { ret; }\n".getBytes(StandardCharsets.UTF_8);
        ModuleInfo cubin = new ModuleInfo(1, ModuleKind.CUBIN, new byte[] { 0x7f, 'E', 'L', 'F' }, 42, "cuModuleLoadData", 4,
                ptx, "/root/.triton/cache/AB/add_kernel.ptx");
        Path file = dir.resolve("t.phos");
        try (TraceWriter w = TraceWriter.create(file, h)) {
            w.module(cubin);
            w.function(new FunctionInfo(1, 1, "add_kernel", "", List.of()));
            for (int i = 0; i < 4; i++) {
                w.write(new TraceEvent.Launch(10 + i, 1, 1, new Dim3(4, 1, 1), new Dim3(128, 1, 1), 0, 0, new byte[0], 0, 0,
                        LaunchKind.PLAIN, -1));
            }
            w.observed(new ObservedAccess(0, 0x1000, List.of(new AddressRange(0x1000, 0x1100)), List.of(), 4, 0, "sanitizer", 0));
            w.coverage(new ObservationCoverage("sanitizer", new long[] { 2, 0, 2 }, "each launch shape 2 times", 4));
        }
        Trace t = TraceReader.read(file, null).trace();
        assertEquals(SAMPLED, t.header().timingSampling());
        assertEquals(cubin, t.moduleById(1));
        assertArrayEquals(ptx, t.moduleById(1).ptx());
        assertEquals(List.of(new ObservationCoverage("sanitizer", new long[] { 0, 2 }, "each launch shape 2 times", 4)),
                t.observationCoverage());
        ObservationCoverage c = t.observationCoverage().get(0);
        assertTrue(c.observed(0) && c.observed(2) && !c.observed(1) && !c.observed(3), "launches 0 and 2 observed");
        assertEquals(1, t.observedAccesses().size());
        // the Python reader reads past the coverage chunk to the TraceEnd, as the Java one does
        assertEquals(TraceReader.verdict(file), PythonReader.verdict(file));
        // and a trace written from the model keeps them (merge-observed writes through the model)
        Path copy = dir.resolve("copy.phos");
        TraceWriter.write(t, copy, TraceWriter.Options.DEFAULT);
        Trace t2 = TraceReader.read(copy, null).trace();
        assertEquals(t.header(), t2.header());
        assertEquals(t.modules(), t2.modules());
        assertEquals(t.observationCoverage(), t2.observationCoverage());
    }

    @Test
    void headerWithoutTheFieldTimesEveryLaunch() throws IOException {
        Path file = dir.resolve("old.phos");
        try (TraceWriter w = TraceWriter.create(file, TraceHeader.builder("phos-recorder", "t").gpuTiming(true).build())) {
            w.droppedEvents(0);
        }
        Trace t = TraceReader.read(file, null).trace();
        assertEquals(GpuTimingSampling.EVERY_LAUNCH, t.header().timingSampling());
        assertFalse(t.header().timingSampling().sampled());
        assertEquals(List.of(), t.observationCoverage());
    }

    /** Two shapes of one kernel: untimed launches take their own shape's mean, a shape never timed the kernel's. */
    @Test
    void untimedLaunchesAreEstimatedFromTheirLaunchShape() {
        Trace.Builder b = Trace.builder(TraceHeader.builder("phos-recorder", "t").gpuTiming(true).timingSampling(SAMPLED).build());
        b.function(new FunctionInfo(1, 0, "k", "", List.of()));
        long t = 0;
        // shape A (grid 4): timed 100 and 300 ns, two untimed; shape B (grid 8): timed 1000, one untimed;
        // shape C (grid 16): never timed -> the kernel's mean (100 + 300 + 1000) / 3 = 466
        long[][] launches = { { 4, 100 }, { 4, 300 }, { 4, -1 }, { 4, -1 }, { 8, 1000 }, { 8, -1 }, { 16, -1 } };
        for (long[] l : launches) {
            long start = l[1] < 0 ? 0 : 1_000_000 + t * 10_000;
            long end = l[1] < 0 ? 0 : start + l[1];
            b.event(new TraceEvent.Launch(t++, 1, 1, new Dim3((int) l[0], 1, 1), new Dim3(64, 1, 1), 0, 0, new byte[0], start,
                    end, LaunchKind.PLAIN, -1));
        }
        Trace trace = b.build();
        GpuTimeEstimate e = GpuTimeEstimate.of(trace);
        assertEquals(List.of(100L, 300L, 200L, 200L, 1000L, 1000L, 466L),
                java.util.stream.IntStream.range(0, 7).mapToObj(i -> e.durationNs(trace.launchEvent(i))).toList());
        assertTrue(e.measured(trace.launchEvent(0)) && !e.measured(trace.launchEvent(2)));
        assertEquals(3, e.timedLaunches(1));
        assertEquals(7, e.launches(1));
        assertEquals(100 + 300 + 200 + 200 + 1000 + 1000 + 466, e.kernelNs(1));
        assertEquals("estimated from 3 of 7 launches timed", e.describeKernel(1));
        assertTrue(e.describe().startsWith("sampled 1/2: 3 of 7 launches timed"), e.describe());
    }

    /** Without sampling an untimed launch is not measured, and nothing is made up for it. */
    @Test
    void everyLaunchTimedMeansNoEstimate() {
        Trace.Builder b = Trace.builder(TraceHeader.builder("phos-recorder", "t").gpuTiming(true).build());
        b.function(new FunctionInfo(1, 0, "k", "", List.of()));
        b.event(new TraceEvent.Launch(0, 1, 1, new Dim3(4, 1, 1), new Dim3(64, 1, 1), 0, 0, new byte[0], 100, 150,
                LaunchKind.PLAIN, -1));
        b.event(new TraceEvent.Launch(1, 1, 1, new Dim3(4, 1, 1), new Dim3(64, 1, 1), 0, 0, new byte[0], 0, 0,
                LaunchKind.PLAIN, -1));
        Trace trace = b.build();
        GpuTimeEstimate e = GpuTimeEstimate.of(trace);
        assertEquals(50, e.durationNs(trace.launchEvent(0)));
        assertEquals(-1, e.durationNs(trace.launchEvent(1)));
        assertEquals(50, e.kernelNs(1));
        assertEquals("measured (1 of 2 launches timed)", e.describeKernel(1));
    }

    /** The Triton sample, re-recorded with the recorder's cache lookup and the sanitizer's coverage (2026-11-25). */
    @Test
    void tritonSampleCarriesPtxAndCoverage() throws IOException, InterruptedException {
        Path sample = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces/triton-ops.phos");
        if (!Files.exists(sample)) {
            sample = Path.of("../../sample-traces/triton-ops.phos");
        }
        Trace t = TraceReader.read(sample, null).trace();
        List<ModuleInfo> withPtx = t.modules().stream().filter(m -> m.ptx().length > 0).toList();
        assertEquals(4, withPtx.size(), "Triton's four kernels' modules carry their PTX");
        for (ModuleInfo m : withPtx) {
            assertEquals(ModuleKind.CUBIN, m.kind());
            assertTrue(m.ptxSource().contains("/.triton/cache/") && m.ptxSource().endsWith(".ptx"), m.ptxSource());
            assertTrue(new String(m.ptx(), StandardCharsets.UTF_8).contains(".entry"), "PTX text with an entry");
        }
        assertEquals(1, t.observationCoverage().size());
        assertEquals(t.launchCount(), t.observationCoverage().get(0).observedCount(), "every launch observed");
        assertTrue(t.header().timingSampling().sampled());
        assertEquals(TraceReader.verdict(sample), PythonReader.verdict(sample));
    }
}
