package org.phos.workbench.ui.timeline.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.cr.core.CrPolicies;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.internal.ui.timeline.cr.CrTimelineView;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.tests.UiRobot;

/**
 * Repaint time of the C/R Timeline of a 1M-launch run at 1600 px, whole / mid / deep zoom ({@link RepaintFigures}, the
 * measurement of the Trace Timeline's benchmark). The trace is generated in-process ({@code generate --launches 1M},
 * seed 1) unless {@code -Dphos.crtimeline.bench=TRACE.phos} names one; the run is soft copy-on-write checkpointing in
 * the middle, every application interval kept in memory, shown through the Experiments view. Runs only with
 * {@code -Dphos.crtimeline.bench=1M} (or a file) and {@code -Dtimeline.testArgLine=-Xmx8g}; writes
 * {@code target/crtimeline-bench.txt}; fails when a median exceeds the 50 ms.
 */
@Tag("slow")
class CrTimelineRepaintBenchmark {
    private static final int WIDTH = 1600;
    private static final long TARGET_NS = 50_000_000;

    @Test
    void repaintTimes() throws Exception {
        String bench = RepaintFigures.property("phos.crtimeline.bench");
        if (bench.isBlank()) {
            System.out.println("C/R timeline repaint benchmark skipped: no -Dphos.crtimeline.bench=1M|TRACE");
            return; // a measurement: the default run stays fast
        }
        Shell shell = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell();
        UiRobot robot = new UiRobot(shell.getDisplay());
        Path file;
        if (bench.endsWith(".phos")) {
            file = Path.of(bench);
        } else {
            file = Files.createTempDirectory("crbench").resolve("generated-1M.phos");
            CrFixture.cli("generate", "--launches", "1000000", "--seed", "1", "--out", file.toString());
        }
        long t0 = System.nanoTime();
        LoadedTrace trace = TimelineFixture.load(file);
        int launches = trace.trace().launchCount();
        String policy = "soft-cow:at=launch:" + launches / 2;
        TraceWorkload workload = TraceWorkload.withBestAvailableSets(trace.trace(), trace.name());
        TimelineModel model = new TimelineModel(true);
        long t1 = System.nanoTime();
        SimulationMetrics m = Simulator.run(workload, MachineModel.parse("h100"), CrPolicies.parse(policy), model, true,
                null);
        long t2 = System.nanoTime();
        ExperimentResult r = new ExperimentResult("bench", file, new ExperimentConfig(policy, null, "h100", "auto",
                WIDTH), List.of(new CrRun(policy, m, model)));
        CrTimelineView view = CrFixture.openTimeline(robot, trace, r);
        long t3 = System.nanoTime();
        var content = view.pane().content();
        List<String> lines = new ArrayList<>();
        lines.add(String.format("trace %s: %,d events, %,d launches; run %s: %,d intervals and stalls in %d lanes, %d "
                + "stalls, span %,d ns; load %.1f s, simulate %.1f s, view content %.1f s", file,
                trace.trace().eventCount(), launches, policy, content.itemCount(), content.lanes().size(),
                content.hostStalls().size(), content.end() - content.start(), (t1 - t0) / 1e9, (t2 - t1) / 1e9,
                (t3 - t2) / 1e9));
        RepaintFigures figures = new RepaintFigures();
        lines.addAll(figures.measure(shell.getDisplay(), view.timelineCanvas(), WIDTH));
        Path out = Path.of(System.getProperty("phos.screenshots", "target")).getParent().resolve("crtimeline-bench.txt");
        Files.write(out, lines);
        lines.forEach(System.out::println);
        view.timelineCanvas().navigator().reset();
        view.timelineCanvas().control().redraw();
        robot.spin(300);
        robot.screenshot(shell, "cr-timeline-1M-launches");
        for (long median : figures.pannedMedians) {
            assertTrue(median <= TARGET_NS, "median repaint " + median / 1e6 + " ms > 50 ms: " + lines);
        }
        assertTrue(Duration.ofNanos(t3 - t2).toSeconds() < 120, "the view's content built in " + (t3 - t2) / 1e9 + " s");
    }
}
