package org.phos.workbench.ui.tests;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.core.runtime.jobs.IJobChangeEvent;
import org.eclipse.core.runtime.jobs.JobChangeAdapter;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.ui.IWorkbenchPage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentRunner;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.experiment.ExperimentJob;
import org.phos.workbench.internal.ui.experiment.ExperimentJobs;
import org.phos.workbench.internal.ui.experiment.ExperimentsView;
import org.phos.workbench.internal.ui.experiment.NewExperimentDialog;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * A 1M-launch experiment started from the workbench (the Job Run starts, saving through the store) against the
 * command line's {@code simulate} with the same options, in-process in the same JVM, interleaved rounds; the
 * headless runner (simulate's work without loading the trace) as a third column. Also the gaps between the progress
 * reports the Experiments view sees, and the time from a click on Cancel to the Job's end. A measurement, not a
 * check (docs/benchmarks.md, block i12-exp-ui); prints and writes {@code target/experiment-bench.txt}.
 * <p>
 * Run: {@code -Dtest=ExperimentJobBenchmark -Dphos.slow=true -Dui.testArgLine=-Xmx6g}.
 */
@Tag("slow")
class ExperimentJobBenchmark {
    private static final int ROUNDS = 3;
    private static final ExperimentConfig CONFIG = new ExperimentConfig("soft-cow", "launch:500000", "h100", "auto",
            1600);

    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final UiRobot robot = ui.robot();
    private final ExperimentUi exp = new ExperimentUi(ui);

    private static double median(List<Double> v) {
        double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    @Test
    void workbenchJobAgainstTheCommandLine(@TempDir Path dir) throws Exception {
        LoadedTrace trace = exp.openGenerated(dir, "1M");
        IWorkbenchPage page = ui.window().getActivePage();
        ExperimentsView view = (ExperimentsView) page.showView(ExperimentsView.ID, null, IWorkbenchPage.VIEW_VISIBLE);
        List<Double> cli = new ArrayList<>();
        List<Double> headless = new ArrayList<>();
        List<Double> job = new ArrayList<>();
        List<Double> shown = new ArrayList<>();
        List<ExperimentsView.ProgressGap> gaps = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            // the command line, as a person runs it (it loads the trace itself)
            System.gc();
            long t0 = System.nanoTime();
            LaunchFiltersUiTest.cli("simulate", trace.file().toString(), "--policy", CONFIG.policies(), "--at",
                    CONFIG.at(), "--machine", CONFIG.machine(), "--sets", CONFIG.sets(), "--width", "1600", "--out",
                    dir.resolve("cli-" + round).toString());
            cli.add((System.nanoTime() - t0) / 1e6);

            // the workbench: the Job Run starts, until the view shows the saved result
            System.gc();
            view.clearProgressGaps();
            String name = "bench-" + round;
            long[] done = { 0 };
            long t1 = System.nanoTime();
            ExperimentJob j = ExperimentJobs.start(page, new NewExperimentDialog.Request(trace, name, CONFIG));
            j.addJobChangeListener(new JobChangeAdapter() {
                @Override
                public void done(IJobChangeEvent event) {
                    done[0] = System.nanoTime();
                }
            });
            robot.waitUntil("the experiment is shown", () -> view.experiments().stream()
                    .anyMatch(e -> e.result().name().equals(name)) && !view.isRunning(), Duration.ofMinutes(3));
            long t2 = System.nanoTime();
            if (j.result() == null) {
                throw new AssertionError("the benchmark's experiment failed: " + j.failure());
            }
            job.add((done[0] - t1) / 1e6);
            shown.add((t2 - t1) / 1e6);
            gaps.addAll(view.progressGaps());

            // simulate's work without loading the trace: the headless runner into a folder
            System.gc();
            Path out = Files.createDirectories(dir.resolve("headless-" + round));
            long t3 = System.nanoTime();
            new ExperimentRunner(CONFIG, trace.file(), trace.trace()).runInto(name, out, null);
            headless.add((System.nanoTime() - t3) / 1e6);
            lines.add(String.format("round %d: command line %.0f ms, workbench Job %.0f ms (shown %.0f ms), "
                    + "headless runner %.0f ms", round, cli.get(round), job.get(round), shown.get(round),
                    headless.get(round)));
            System.out.println("experiment-bench: " + lines.get(lines.size() - 1));
        }

        // cancel: a click on the view's Cancel button into a run
        List<Double> cancels = new ArrayList<>();
        long[] pressed = { 0 };
        long[] down = { 0 };
        List<Double> cancelsFromDown = new ArrayList<>();
        boolean listening = false;
        // at a fifth, half and four fifths of the runs just measured
        double runMs = median(job);
        for (int after : new int[] { (int) (runMs * 0.2), (int) (runMs * 0.5), (int) (runMs * 0.8) }) {
            long[] done = { 0 };
            ExperimentJob j = ExperimentJobs.start(page, new NewExperimentDialog.Request(trace, "cancel-" + after,
                    CONFIG));
            j.addJobChangeListener(new JobChangeAdapter() {
                @Override
                public void done(IJobChangeEvent event) {
                    done[0] = System.nanoTime();
                }
            });
            robot.spin(after);
            if (!view.isRunning()) {
                throw new AssertionError("the run to cancel is not running after " + after + " ms: "
                        + view.statusText() + " " + j.failure());
            }
            Button cancel = robot.findByData(ui.shell(), Button.class, TracesView.ROLE, "exp.cancel");
            if (!listening) {
                cancel.addListener(SWT.Selection, e -> pressed[0] = System.nanoTime());
                cancel.addListener(SWT.MouseDown, e -> down[0] = System.nanoTime());
                listening = true;
            }
            pressed[0] = 0;
            robot.click(cancel);
            robot.waitUntil("the cancelled Job ends", () -> done[0] != 0 && !view.isRunning(),
                    Duration.ofSeconds(30));
            cancels.add((done[0] - pressed[0]) / 1e6);
            cancelsFromDown.add((done[0] - down[0]) / 1e6);
            lines.add(String.format("cancel %d ms into the run: the Job ended %.1f ms after the press (%.1f ms after "
                    + "the mouse went down; %s)", after, (done[0] - pressed[0]) / 1e6, (done[0] - down[0]) / 1e6,
                    view.statusText()));
        }

        long[] g = gaps.stream().mapToLong(ExperimentsView.ProgressGap::ns).sorted().toArray();
        double ratioJob = median(job) / median(cli);
        double ratioShown = median(shown) / median(cli);
        lines.add(String.format("trace: %,d launches, %,d events; %s", trace.trace().launchCount(),
                trace.trace().eventCount(), CONFIG));
        lines.add(String.format("medians over %d interleaved rounds: command line %.0f ms, workbench Job %.0f ms "
                + "(%.2fx), until the view shows it %.0f ms (%.2fx), headless runner %.0f ms", ROUNDS, median(cli),
                median(job), ratioJob, median(shown), ratioShown, median(headless)));
        lines.add(String.format("progress as the Experiments view saw it (polled every %d ms): %d gaps, median %.0f "
                + "ms, p95 %.0f ms, max %.0f ms", ExperimentsView.PROGRESS_PERIOD_MS, g.length,
                g[g.length / 2] / 1e6, g[(int) Math.ceil(g.length * 0.95) - 1] / 1e6, g[g.length - 1] / 1e6));
        gaps.stream().sorted((a, b) -> Long.compare(b.ns(), a.ns())).limit(6).forEach(gap -> lines.add(String.format(
                "  a gap of %.0f ms after the report '%s'", gap.ns() / 1e6, gap.during())));
        lines.add(String.format("gaps over 250 ms: %d of %d", gaps.stream().filter(x -> x.ns() > 250_000_000L)
                .count(), gaps.size()));
        lines.add(String.format("cancel: %s ms after the press (%s ms after the mouse went down)",
                Arrays.toString(cancels.stream().mapToDouble(Double::doubleValue).map(d -> Math.round(d * 10) / 10.0)
                        .toArray()),
                Arrays.toString(cancelsFromDown.stream().mapToDouble(Double::doubleValue)
                        .map(d -> Math.round(d * 10) / 10.0).toArray())));
        lines.add("experiments of the trace after the cancels: " + org.phos.workbench.analysis.core.experiment
                .ExperimentStore.of(trace.file()).list().stream().map(e -> e.name()).toList());
        for (String l : lines) {
            System.out.println("experiment-bench: " + l);
        }
        Path file = Path.of(System.getProperty("phos.screenshots", "target/screenshots")).getParent()
                .resolve("experiment-bench.txt");
        Files.write(file, lines);
        exp.cleanUp();
    }
}
