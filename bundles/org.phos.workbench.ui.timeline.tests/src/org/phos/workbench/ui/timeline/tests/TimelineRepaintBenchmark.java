package org.phos.workbench.ui.timeline.tests;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.ui.timeline.TimeWindow;
import org.phos.workbench.internal.ui.timeline.TimelineCanvas;
import org.phos.workbench.internal.ui.timeline.TraceTimelineView;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.tests.UiRobot;

/**
 * Repaint time of the timeline at 1600 px at whole-trace, mid and deep zoom ({@link RepaintFigures}: fetch with level
 * of detail + paint into an offscreen image, exactly the view's code path). Runs only with {@code -Dphos.timeline.bench=TRACE.phos}
 * (and {@code -Dtimeline.testArgLine=-Xmx10g} for 10M launches); prints and writes the figures to
 * {@code target/timeline-bench.txt}.
 */
class TimelineRepaintBenchmark {
    private static final int WIDTH = 1600;

    @Test
    void repaintTimes() throws Exception {
        String file = RepaintFigures.property("phos.timeline.bench");
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
        TimeWindow whole = canvas.navigator().bounds();
        int lanes = canvas.index().lanes().size();
        List<String> lines = new ArrayList<>();
        lines.add(String.format("trace %s: %,d events, %,d launches, %d lanes, span %,d ns; load %.1f s, index %.1f s",
                file, trace.trace().eventCount(), trace.trace().launchCount(), lanes, whole.span(), (t1 - t0) / 1e9,
                (t2 - t1) / 1e9));
        lines.addAll(new RepaintFigures().measure(shell.getDisplay(), canvas, WIDTH));
        Path out = Path.of(System.getProperty("phos.screenshots", "target")).getParent().resolve("timeline-bench.txt");
        Files.write(out, lines);
        lines.forEach(System.out::println);
    }
}
