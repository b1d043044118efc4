package org.phos.workbench.ui.timeline.tests;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.ui.timeline.SliceFetcher;
import org.phos.workbench.internal.ui.timeline.TimeWindow;
import org.phos.workbench.internal.ui.timeline.TimelineCanvas;
import org.phos.workbench.internal.ui.timeline.TimelineLayout;
import org.phos.workbench.internal.ui.timeline.TimelineNavigator;
import org.phos.workbench.internal.ui.timeline.TraceTimelineView;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.tests.UiRobot;

/**
 * Repaint time of the timeline at 1600 px (fetch with level of detail + paint into an offscreen image, exactly the
 * view's code path) at whole-trace, mid and deep zoom: after a one-pixel pan (the fetch runs), for the same window
 * (the fetch is reused), and the fetch alone. Runs only with {@code -Dphos.timeline.bench=TRACE.phos}
 * (and {@code -Dtimeline.testArgLine=-Xmx10g} for 10M launches); prints and writes the figures to
 * {@code target/timeline-bench.txt}.
 */
class TimelineRepaintBenchmark {
    private static final int WIDTH = 1600;
    private static final int RUNS = 40;

    private static String figures(long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        return String.format("median %.2f ms, p95 %.2f ms, max %.2f ms", s[s.length / 2] / 1e6,
                s[(int) Math.ceil(s.length * 0.95) - 1] / 1e6, s[s.length - 1] / 1e6);
    }

    @Test
    void repaintTimes() throws Exception {
        String file = System.getProperty("phos.timeline.bench", "");
        if (file.isBlank()) {
            System.out.println("timeline repaint benchmark skipped: no -Dphos.timeline.bench=TRACE");
            return; // a measurement, not a check: the default run stays fast
        }
        Shell shell = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell();
        UiRobot robot = new UiRobot(shell.getDisplay());
        long t0 = System.nanoTime();
        LoadedTrace trace = TimelineFixture.load(Path.of(file));
        long t1 = System.nanoTime();
        TraceTimelineView view = TimelineFixture.open(robot, trace);
        long t2 = System.nanoTime();
        TimelineCanvas canvas = view.timelineCanvas();
        TimelineNavigator nav = canvas.navigator();
        TimeWindow whole = nav.bounds();
        int lanes = canvas.index().lanes().size();
        int labelWidth = canvas.layout().labelWidth();
        TimelineLayout layout = new TimelineLayout(labelWidth, labelWidth + WIDTH, TimelineLayout.preferredHeight(lanes));
        List<String> lines = new ArrayList<>();
        lines.add(String.format("trace %s: %,d events, %,d launches, %d lanes, span %,d ns; load %.1f s, index %.1f s",
                file, trace.trace().eventCount(), trace.trace().launchCount(), lanes, whole.span(), (t1 - t0) / 1e9,
                (t2 - t1) / 1e9));
        long mid = whole.fromNs() + whole.span() / 2;
        long[] spans = { whole.span(), Math.max(1000, whole.span() / 100), Math.max(1000, whole.span() / 100_000) };
        String[] names = { "whole trace", "mid zoom (1/100)", "deep zoom (1/100000)" };
        Image image = new Image(shell.getDisplay(), layout.width(), layout.height());
        GC gc = new GC(image);
        try {
            for (int z = 0; z < spans.length; z++) {
                long from = mid - spans[z] / 2;
                long px = Math.max(1, spans[z] / layout.dataWidth());
                for (int i = 0; i < 10; i++) { // warm-up: the same moves as measured below
                    long f = from + (i % 2) * px;
                    nav.show(f, f + spans[z] - px);
                    canvas.paintInto(gc, layout);
                }
                nav.show(from, from + spans[z]);
                // each repaint after a one-pixel move: a new window every time (also at whole-trace zoom, where a pan
                // is clamped: the window is one pixel narrower, alternately at either end), so the fetch runs
                long[] panned = new long[RUNS];
                TimeWindow previous = nav.window();
                for (int i = 0; i < RUNS; i++) {
                    long f = from + (i % 2) * px;
                    nav.show(f, f + spans[z] - px);
                    if (nav.window().equals(previous)) {
                        throw new AssertionError("the window did not move: " + previous);
                    }
                    previous = nav.window();
                    long a = System.nanoTime();
                    canvas.paintInto(gc, layout);
                    panned[i] = System.nanoTime() - a;
                }
                // the same window repainted (an expose, a new selection mark): the fetch is reused
                nav.show(from, from + spans[z]);
                canvas.paintInto(gc, layout);
                long[] same = new long[RUNS];
                for (int i = 0; i < RUNS; i++) {
                    long a = System.nanoTime();
                    canvas.paintInto(gc, layout);
                    same[i] = System.nanoTime() - a;
                }
                // the fetch alone, for the breakdown
                SliceFetcher fetcher = new SliceFetcher(canvas.index());
                long[] fetch = new long[RUNS];
                for (int i = 0; i < RUNS; i++) {
                    long f = from + (i % 2) * px;
                    long a = System.nanoTime();
                    fetcher.fetch(new TimeWindow(f, f + spans[z] - px), layout.dataWidth());
                    fetch[i] = System.nanoTime() - a;
                }
                lines.add(String.format("%-22s window %,15d ns, %d px: repaint after a 1-px pan: %s; same window: %s;"
                        + " fetch alone: %s", names[z], nav.window().span(), layout.dataWidth(), figures(panned),
                        figures(same), figures(fetch)));
            }
        } finally {
            gc.dispose();
            image.dispose();
        }
        lines.add(String.format("(%d repaints each; median / p95 / max)", RUNS));
        Path out = Path.of(System.getProperty("phos.screenshots", "target")).getParent().resolve("timeline-bench.txt");
        Files.write(out, lines);
        lines.forEach(System.out::println);
    }
}
