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
import org.phos.workbench.internal.ui.timeline.TimeWindow;
import org.phos.workbench.internal.ui.timeline.TimelineCanvas;
import org.phos.workbench.internal.ui.timeline.TimelineLayout;
import org.phos.workbench.internal.ui.timeline.TimelineNavigator;
import org.phos.workbench.internal.ui.timeline.TraceTimelineView;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.tests.UiRobot;

/**
 * Repaint time of the timeline at 1600 px (fetch with level of detail + paint into an offscreen image, exactly the
 * view's code path) at whole-trace, mid and deep zoom. Runs only with {@code -Dphos.timeline.bench=TRACE.phos}
 * (and {@code -Dtimeline.testArgLine=-Xmx10g} for 10M launches); prints and writes the figures to
 * {@code target/timeline-bench.txt}.
 */
class TimelineRepaintBenchmark {
    private static final int WIDTH = 1600;
    private static final int RUNS = 40;

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
                nav.show(mid - spans[z] / 2, mid - spans[z] / 2 + spans[z]);
                for (int i = 0; i < 5; i++) {
                    canvas.paintInto(gc, layout); // warm-up
                }
                long[] ms = new long[RUNS];
                for (int i = 0; i < RUNS; i++) {
                    long a = System.nanoTime();
                    canvas.paintInto(gc, layout);
                    ms[i] = System.nanoTime() - a;
                }
                Arrays.sort(ms);
                lines.add(String.format("%-22s window %,15d ns: median %6.2f ms, p95 %6.2f ms, max %6.2f ms (%d repaints, %d px data width)",
                        names[z], nav.window().span(), ms[RUNS / 2] / 1e6, ms[(int) Math.ceil(RUNS * 0.95) - 1] / 1e6,
                        ms[RUNS - 1] / 1e6, RUNS, layout.dataWidth()));
            }
        } finally {
            gc.dispose();
            image.dispose();
        }
        Path out = Path.of(System.getProperty("phos.screenshots", "target")).getParent().resolve("timeline-bench.txt");
        Files.write(out, lines);
        lines.forEach(System.out::println);
    }
}
