package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * i15-timing: the GPU time source and the correction of event-timed spans (TimingSampling fields 20-26), as the native
 * recorder writes them and as the workbench says them. data/fake-timing-probe.phos: the native tests' trace of the
 * fake driver's app with sampled gated event timing and the in-pair probe (PHOS_TIMING_PROBE=1,
 * PHOS_TIMING_PROBE_NS=250; native-hooks/tests/run_tests.py test_timing_probe).
 */
class GpuTimeSourceTest {
    @TempDir
    Path dir;

    @Test
    void theRecorderSaysHowItsEventSpansWereCorrected() throws Exception {
        Trace t = TraceReader.read(Path.of("data", "fake-timing-probe.phos"), null).trace();
        GpuTimingSampling p = t.header().timingSampling();
        assertTrue(p.sampled());
        assertEquals(new GpuTimeSource("events", true, "in-pair-probe", 250, 0, "setup-bias", 63), p.timeSource());
        assertEquals("sampled: each launch shape's first 5 launches, then 1 in N (N 10-10, adapted to the launch rate); GPU "
                + "times from CUDA events around each timed kernel, the events gated (queued with the kernel), their span "
                + "minus the median span of the empty probe kernel run behind the last 63 timed launches, plus the probe's "
                + "own 250 ns (where the probe could not run: setup-bias)", p.describe());
        // the fake's events tick 1000 ns a record: every timed launch is 1000 - 1000 + 250 ns
        long timed = 0;
        for (int l = 0; l < t.launchCount(); l++) {
            int i = t.launchEvent(l);
            if (t.gpuStartNs(i) > 0) {
                assertEquals(250, t.gpuEndNs(i) - t.gpuStartNs(i), "launch " + i);
                timed++;
            }
        }
        assertTrue(timed > 200, "timed launches: " + timed);
        // the trace written from the model keeps the fields
        Path copy = dir.resolve("copy.phos");
        TraceWriter.write(t, copy, TraceWriter.Options.DEFAULT);
        assertEquals(t.header(), TraceReader.read(copy, null).trace().header());
    }

    /**
     * i15-burst: data/fake-timing-burst.phos, the fake driver's app (3,000 launches of one shape) recorded with
     * {@code PHOS_TIMING_SAMPLE=startup} and the fake driver's CUPTI (PHOS_CUPTI pointing at it), in the folder
     * /tmp/phos-cwd-demo: launches before CUPTI was set up would be timed by events (1000 ns - the setup bias = 500 ns;
     * none here), then one burst of 1024 launches timed by the fake's kernel records (5000 ns), the rest untimed.
     */
    @Test
    void burstSamplingIsReadAndSaid() throws Exception {
        Trace t = TraceReader.read(Path.of("data", "fake-timing-burst.phos"), null).trace();
        GpuTimingSampling p = t.header().timingSampling();
        assertEquals(new GpuTimingSampling.Bursts(1024, 1, 50, 0), p.bursts());
        assertEquals(10, p.firstLaunches());
        assertEquals("sampled: each launch shape's first 10 launches; bursts of 1024 consecutive launches (at most 50 ms) "
                + "timed by CUPTI, the next after 999.0 times the last one's duration (with CUPTI; else 1 in N, N 16-1024); "
                + "GPU times from CUPTI kernel records (where CUPTI is unavailable: CUDA events, the events gated (queued "
                + "with the kernel), their span minus an event bias measured at setup)", p.describe());
        long cupti = 0;
        long events = 0;
        long untimed = 0;
        long[] durations = launchDurations(t);
        for (int l = 0; l < durations.length; l++) {
            if (durations[l] == 5000) {
                cupti++;
            } else if (durations[l] == 500) {
                events++;
            } else {
                assertEquals(-1, durations[l], "launch " + l);
                untimed++;
            }
        }
        assertEquals(1024, cupti);
        assertEquals(3000, cupti + events + untimed);
        assertTrue(untimed > 1000 && events < 100, events + " event-timed, " + untimed + " untimed");
        assertEquals("/tmp/phos-cwd-demo", t.header().workingDirectory(), "recorded in that folder (field 46)");
        // the estimate says how its figures were made, and a written copy keeps the fields
        assertTrue(GpuTimeEstimate.of(t).describe().contains("bursts of 1024"), GpuTimeEstimate.of(t).describe());
        Path copy = dir.resolve("copy.phos");
        TraceWriter.write(t, copy, TraceWriter.Options.DEFAULT);
        assertEquals(t.header(), TraceReader.read(copy, null).trace().header());
        assertEquals(GpuTimingSampling.Bursts.NONE, new GpuTimingSampling(true, 3, 16, 1024, 10, "function+grid+block").bursts());
        assertEquals("bursts of 512 consecutive launches (at most 50 ms) timed by CUPTI, the next after 49.00 times the last "
                + "one's duration (at most 1000 ms)", new GpuTimingSampling.Bursts(512, 20, 50, 1000).describe());
    }

    /**
     * i15-settle: data/fake-timing-settle.phos, the fake driver's app (5,000 launches, a new launch shape at launches
     * 0, 2000 and 4000) recorded with {@code PHOS_TIMING_SAMPLE=startup} as of i15-settle in /tmp/phos-cwd-demo: the
     * first burst lasts until the shapes settle (1023 launches after the first shape's 10th: 1033 kernel records of
     * 5000 ns), then CUPTI is released; the later shapes' first 10 launches are timed by events (500 ns), the copy
     * after the release is untimed, and TraceEnd names the interval.
     */
    @Test
    void settledFirstBurstAndReleaseAreReadAndSaid() throws Exception {
        Trace t = TraceReader.read(Path.of("data", "fake-timing-settle.phos"), null).trace();
        GpuTimingSampling p = t.header().timingSampling();
        assertEquals(new GpuTimingSampling.Bursts(1024, 1, 50, 0, 10000, true), p.bursts());
        assertEquals("sampled: each launch shape's first 10 launches; the first burst lasting until the launch shapes settle "
                + "(1024 launches in a row past each shape's first ones, at most 10000 ms) timed by CUPTI, then CUPTI "
                + "released: later shapes' first launches timed by CUDA events, copies and sets after it untimed (with "
                + "CUPTI; else 1 in N, N 16-1024); GPU times from CUPTI kernel records (where CUPTI is unavailable: CUDA "
                + "events, the events gated (queued with the kernel), their span minus an event bias measured at setup)",
                p.describe());
        List<Integer> byEvents = new ArrayList<>();
        int cupti = 0;
        long[] durations = launchDurations(t);
        for (int l = 0; l < durations.length; l++) {
            if (durations[l] == 5000) {
                cupti++;
            } else if (durations[l] == 500) {
                byEvents.add(l);
            } else {
                assertEquals(-1, durations[l], "launch " + l);
            }
        }
        assertEquals(1033, cupti);
        List<Integer> firsts = new ArrayList<>();
        for (int l = 0; l < 10; l++) {
            firsts.add(2000 + l);
        }
        for (int l = 0; l < 10; l++) {
            firsts.add(4000 + l);
        }
        assertEquals(firsts, byEvents);
        TraceEnd end = t.end();
        assertTrue(end != null && end.timingGaps().size() == 1, "one timing gap: " + end);
        assertEquals("CUPTI released after the first timing burst", end.timingGaps().get(0).reason());
        assertTrue(GpuTimeEstimate.of(t).describe().contains("then CUPTI released"), GpuTimeEstimate.of(t).describe());
        Path copy = dir.resolve("settle-copy.phos");
        TraceWriter.write(t, copy, TraceWriter.Options.DEFAULT);
        assertEquals(t.header(), TraceReader.read(copy, null).trace().header());
    }

    /** Each launch's GPU duration in ns (the fake's CUPTI records: 5000, its events less the bias: 500), -1 untimed. */
    private static long[] launchDurations(Trace t) {
        long[] d = new long[t.launchCount()];
        for (int l = 0; l < d.length; l++) {
            int i = t.launchEvent(l);
            d[l] = t.gpuStartNs(i) > 0 ? t.gpuEndNs(i) - t.gpuStartNs(i) : -1;
        }
        return d;
    }

    @Test
    void olderTracesDoNotSayAndKeepTheirWords() {
        GpuTimingSampling old = new GpuTimingSampling(true, 3, 16, 1024, 10, "function+grid+block");
        assertFalse(old.timeSource().stated());
        assertEquals("sampled: each launch shape's first 3 launches, then 1 in N (N 16-1024, adapted to the launch rate)",
                old.describe());
    }

    @Test
    void eachCorrectionInWords() {
        assertEquals("GPU times from CUDA events around each timed kernel, the events gated (queued with the kernel), their "
                + "span minus an event bias measured at setup", new GpuTimeSource("events", true, "setup-bias", 0, 0, "", 0).describe());
        assertEquals("GPU times from CUDA events around each timed kernel, the events gated (queued with the kernel), their "
                + "span minus 2400 ns", new GpuTimeSource("events", true, "fixed-bias", 0, 2400, "", 0).describe());
        assertEquals("GPU times from CUPTI kernel records (where CUPTI is unavailable: CUDA events, the events gated (queued "
                + "with the kernel), their span minus the span of the empty probe kernel run behind it, plus the probe's own "
                + "864 ns (where the probe could not run: setup-bias))",
                new GpuTimeSource("auto", true, "in-pair-probe", 864, 0, "setup-bias", 1).describe());
        assertEquals("GPU times from CUDA events", new GpuTimeSource("events", false, "", 0, 0, "", 0).describe());
        assertEquals("GPU times from CUPTI kernel records", new GpuTimeSource("cupti", false, "", 0, 0, "", 0).describe());
    }
}
