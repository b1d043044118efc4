package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.internal.ui.attach.AttachHandler;
import org.phos.workbench.internal.ui.attach.LiveTraceEditor;
import org.phos.workbench.internal.ui.attach.LiveTraceInput;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.attach.LiveProcesses;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * Live attach figures (docs/benchmarks.md, block i14-attachui): a real recording process (fake libcuda, real recorder,
 * real socket) launches at a set rate ({@code fake_app live}'s {@code rate} command) while the workbench follows it.
 * <ul>
 * <li>Latency from a launch to its row: each time the Launches table gets the rows of a new live generation, every
 * launch new in it gives one sample: {@code System.nanoTime()} then (the rows handed to the table and its items
 * filled; CLOCK_MONOTONIC) minus the launch's host timestamp from the recorder ({@code startMonoNs + hostNs},
 * CLOCK_MONOTONIC, same machine).</li>
 * <li>Heap: used heap and the heap left after the last collection (the live set), every 10 s.</li>
 * </ul>
 * Runs only with {@code -Dphos.attach.bench=SECONDS[,WINDOW[,RATE]]} (window: events the views keep, default the
 * dialog's; rate: launches per second, default 100000).
 */
@Tag("slow")
class AttachBenchmark {
    @TempDir
    Path tmp;

    @Test
    void followAProcessLaunchingAtAFixedRate() throws Exception {
        String seconds = System.getProperty("phos.attach.bench", "");
        assumeTrue(!seconds.isBlank(), "-Dphos.attach.bench=SECONDS runs the live attach benchmark");
        String[] args = seconds.split(",");
        double secs = Double.parseDouble(args[0]);
        seconds = args[0];
        int window = args.length > 1 ? Integer.parseInt(args[1])
                : org.phos.workbench.internal.ui.attach.AttachDialog.DEFAULT_WINDOW;
        long rate = args.length > 2 ? Long.parseLong(args[2]) : 100_000;
        WorkbenchUi ui = WorkbenchUi.inFront();
        UiRobot robot = ui.robot();
        IWorkbenchWindow w = ui.window();
        Path build = RecordingProcess.nativeBuild();
        try (RecordingProcess app = new RecordingProcess(build, tmp.resolve("xdg"), tmp.resolve("app.phos"))) {
            LiveProcesses.Listing l = LiveProcesses.list(app.socketDir(), Duration.ofSeconds(2));
            assertTrue(l.live().size() == 1, "the process is listed: " + l);
            AttachHandler.attach(w.getActivePage(), new LiveTraceInput(app.socketDir(), l.live().get(0), window));
            LiveTraceEditor live = (LiveTraceEditor) w.getActivePage().getActiveEditor();
            LaunchesView view = (LaunchesView) w.getActivePage().showView(LaunchesView.ID, null,
                    IWorkbenchPage.VIEW_VISIBLE);
            robot.waitUntil("the first snapshot", () -> live.loadedTrace() != null, Duration.ofSeconds(10));
            app.send("rate " + rate + " " + seconds);
            long[] histogramUs = new long[200_000]; // 10 µs buckets up to 2 s
            long over = 0, samples = 0;
            long lastShown = 0, newestHost = Long.MIN_VALUE;
            long started = System.nanoTime();
            long nextHeap = started;
            long maxUsed = 0, maxAfterGc = 0;
            StringBuilder trend = new StringBuilder();
            MemoryPoolMXBean[] heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(p -> p.getType() == MemoryType.HEAP).toArray(MemoryPoolMXBean[]::new);
            long end = started + (long) (secs * 1e9) + 2_000_000_000L;
            while (System.nanoTime() < end) {
                robot.spin(5);
                long shown = view.rowsShownAtNanos();
                LoadedTrace t = view.listedTrace();
                if (shown != lastShown && t != null) {
                    lastShown = shown;
                    Trace tr = t.trace();
                    long newest = newestHost;
                    for (int k = tr.launchCount() - 1; k >= 0; k--) {
                        // host times count from the recorder's start (TraceHeader.startMonoNs, CLOCK_MONOTONIC)
                        long h = tr.header().startMonoNs() + tr.hostNs(tr.launchEvent(k));
                        if (h <= newestHost) {
                            break;
                        }
                        newest = Math.max(newest, h);
                        long us = (shown - h) / 1000;
                        if (samples == 0) {
                            System.out.printf(Locale.ROOT, "  first sample: row at %d ns, launch host_ns %d%n", shown, h);
                        }
                        if (us / 10 < histogramUs.length) {
                            histogramUs[(int) Math.max(0, us / 10)]++;
                        } else {
                            over++;
                        }
                        samples++;
                    }
                    newestHost = newest;
                }
                long now = System.nanoTime();
                if (now >= nextHeap) {
                    nextHeap += 10_000_000_000L;
                    long used = 0, afterGc = 0;
                    for (MemoryPoolMXBean p : heapPools) {
                        used += p.getUsage().getUsed();
                        MemoryUsage c = p.getCollectionUsage();
                        afterGc += c == null ? 0 : c.getUsed();
                    }
                    maxUsed = Math.max(maxUsed, used);
                    maxAfterGc = Math.max(maxAfterGc, afterGc);
                    trend.append(String.format(Locale.ROOT, "  t=%4.0fs used %5d MiB, after last GC %5d MiB, rows %,d%n",
                            (now - started) / 1e9, used >> 20, afterGc >> 20, view.rowCount()));
                }
            }
            long events = app.answer();
            var snap = live.lastSnapshot();
            double p50 = percentile(histogramUs, samples, over, 0.5), p90 = percentile(histogramUs, samples, over, 0.9),
                    p99 = percentile(histogramUs, samples, over, 0.99);
            System.out.printf(Locale.ROOT, "ATTACH BENCH rate %,d/s for %s s, window %,d events, -Xmx %d MiB%n", rate,
                    seconds, window, Runtime.getRuntime().maxMemory() >> 20);
            System.out.printf(Locale.ROOT, "  process issued %,d events; received %,d, missed by the reader %,d, "
                    + "dropped from the window %,d%n", events, snap.received(), snap.missed(), snap.dropped());
            System.out.printf(Locale.ROOT, "  launch -> row latency: %,d samples, median %.1f ms, p90 %.1f ms, p99 %.1f ms"
                    + " (over 2 s: %d)%n", samples, p50, p90, p99, over);
            System.out.printf(Locale.ROOT, "  heap: max used %d MiB, max after GC %d MiB%n%s", maxUsed >> 20,
                    maxAfterGc >> 20, trend);
            // i14-incr: begin (incremental speculation: each launch once, in the snapshot Job)
            var spec = live.liveSpeculation();
            System.out.printf(Locale.ROOT, "  live speculation (%s, -Dphos.live.speculate=%s): %,d launches "
                    + "speculated in %.1f ms of snapshot Jobs: %.2f µs per launch (all engines; i14-livebest: each "
                    + "event of the stream fed once, nothing replayed per generation)%n", String.join(", ", spec.engines()),
                    System.getProperty("phos.live.speculate", "true"), spec.speculated(), spec.nanos() / 1e6,
                    spec.speculated() == 0 ? 0.0 : spec.nanos() / 1e3 / spec.speculated());
            // i14-incr: end
            // i14-livebest: begin (engines fed the whole stream: what their state holds)
            System.out.printf(Locale.ROOT, "  live engine state: %s; events not fed: %,d%n", spec.state(),
                    spec.eventsNotFed());
            // i14-livebest: end
            assertTrue(samples > 0, "no launch reached the table");
        }
    }

    private static double percentile(long[] h10us, long n, long over, double q) {
        long want = (long) Math.ceil(q * n);
        long seen = 0;
        for (int i = 0; i < h10us.length; i++) {
            seen += h10us[i];
            if (seen >= want) {
                return i * 0.01;
            }
        }
        return Double.POSITIVE_INFINITY;
    }
}
