package org.phos.workbench.ui.timeline.tests;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.cli.BuiltinCommands;
import org.phos.workbench.cli.Main;
import org.phos.workbench.cr.core.CrPolicies;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.internal.ui.experiment.ExperimentsView;
import org.phos.workbench.internal.ui.timeline.cr.CrCompareView;
import org.phos.workbench.internal.ui.timeline.cr.CrTimelineView;
import org.phos.workbench.ui.PhoenixUi;
import org.phos.workbench.ui.model.ExperimentSelection;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.tests.UiRobot;

/**
 * C/R experiments for the C/R views' tests, run with cr.core as {@code simulate} runs them ({@code --sets auto}: the
 * observed sets when the trace has them, else the placeholder; machine h100; with the baseline), published through the
 * Experiments view as a finished experiment is.
 */
final class CrFixture {
    private CrFixture() {
    }

    /** Runs each policy spec ({@code simulate --policy} syntax) over {@code trace}. */
    static ExperimentResult experiment(LoadedTrace trace, String name, String... policies) {
        TraceWorkload workload = TraceWorkload.withBestAvailableSets(trace.trace(), trace.name());
        MachineModel machine = MachineModel.parse(ExperimentConfig.DEFAULT_MACHINE);
        List<CrRun> runs = new ArrayList<>();
        for (String spec : policies) {
            TimelineModel model = new TimelineModel(true);
            SimulationMetrics m = Simulator.run(workload, machine, CrPolicies.parse(spec), model, true, null);
            runs.add(new CrRun(spec, m, model));
        }
        return new ExperimentResult(name, trace.file(), new ExperimentConfig(String.join(";", policies), null,
                ExperimentConfig.DEFAULT_MACHINE, ExperimentConfig.DEFAULT_SETS, ExperimentConfig.DEFAULT_WIDTH_PX), runs);
    }

    /** Shows {@code result} in the Experiments view (active, so the page's selection is its). */
    static ExperimentSelection publish(LoadedTrace trace, ExperimentResult result) throws Exception {
        IWorkbenchPage page = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
        ExperimentsView v = (ExperimentsView) page.showView(PhoenixUi.EXPERIMENTS_VIEW_ID);
        page.activate(v);
        v.show(trace, result);
        return v.experiments().stream().filter(e -> e.result() == result).findFirst().orElseThrow();
    }

    /** Opens the C/R Timeline, publishes {@code result}, waits until its first run is drawn. */
    static CrTimelineView openTimeline(UiRobot robot, LoadedTrace trace, ExperimentResult result) throws Exception {
        IWorkbenchPage page = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
        CrTimelineView view = (CrTimelineView) page.showView(PhoenixUi.CR_TIMELINE_VIEW_ID);
        publish(trace, result);
        robot.waitUntil("the C/R Timeline drew " + result.name(),
                () -> view.isReady() && view.pane().content().run() == result.runs().get(0), Duration.ofSeconds(120));
        page.activate(view);
        robot.spin(200);
        return view;
    }

    /** Opens C/R Compare (its timelines need room) and brings it to the top. */
    static CrCompareView openCompare() throws Exception {
        IWorkbenchPage page = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
        return (CrCompareView) page.showView(PhoenixUi.CR_COMPARE_VIEW_ID);
    }

    /** Runs the command line in-process; fails with its error output unless it exits 0; returns its output. */
    static String cli(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(BuiltinCommands.all()).run(argv, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        if (code != 0) {
            throw new AssertionError(
                    String.join(" ", argv) + " exited " + code + ": " + err.toString(StandardCharsets.UTF_8));
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** {@code metrics.csv} of a simulate run's folder: metric → value of its (only) run. */
    static Map<String, String> metrics(Path folder) throws Exception {
        Map<String, String> m = new HashMap<>();
        List<String> lines = Files.readAllLines(folder.resolve("metrics.csv"));
        if (!lines.get(0).equals("run,metric,value")) {
            throw new AssertionError("metrics.csv header: " + lines.get(0));
        }
        for (String line : lines.subList(1, lines.size())) {
            int a = line.lastIndexOf(',');
            int b = line.lastIndexOf(',', a - 1);
            m.put(line.substring(b + 1, a), line.substring(a + 1));
        }
        return m;
    }
}
