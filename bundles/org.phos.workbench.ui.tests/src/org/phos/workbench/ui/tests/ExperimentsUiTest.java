package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentListener;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.analysis.core.experiment.ExperimentStore;
import org.phos.workbench.cr.core.MetricsCsvWriter;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.experiment.ExperimentsView;
import org.phos.workbench.ui.model.ExperimentSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * C/R experiments in the workbench by real input: one made in the New Experiment dialog (a typed budget, a launch
 * picked by clicking the Trace Timeline) runs as a Job, is saved beside the trace and shown, with the metrics the
 * command line's {@code simulate} computes for the same options; saved experiments are listed, opened, renamed in
 * place, marked stale when their trace changes, and deleted after the view's confirmation.
 */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class ExperimentsUiTest {
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final UiRobot robot = ui.robot();
    private final ExperimentUi exp = new ExperimentUi(ui);

    @AfterEach
    void close() {
        exp.cleanUp();
    }

    private ExperimentsView view() throws Exception {
        return (ExperimentsView) ui.window().getActivePage().showView(ExperimentsView.ID, null,
                IWorkbenchPage.VIEW_VISIBLE);
    }

    /** The metrics of {@code runs} as {@code simulate} writes them into metrics.csv. */
    private static String metricsCsv(List<CrRun> runs) {
        Map<String, SimulationMetrics> m = new LinkedHashMap<>();
        runs.forEach(r -> m.put(r.name(), r.metrics()));
        StringWriter w = new StringWriter();
        MetricsCsvWriter.write(w, m);
        return w.toString();
    }

    @Test
    void experimentFromTheDialogRunsSavesAndEqualsTheCommandLine(@TempDir Path dir) throws Exception {
        LoadedTrace trace = exp.openCopy(dir, "jcuda-jacobi.phos");
        IViewPart timeline = exp.timeline(trace);
        Shell dialog = exp.newExperiment();
        exp.checkPolicy(dialog, "soft-cow");
        exp.typeInto(exp.role(dialog, Text.class, "exp.param.budget"), "64MiB");
        robot.click(exp.role(dialog, Button.class, "exp.pick"));
        int picked = exp.clickLaunch(timeline, trace, 40);
        Text at = exp.role(dialog, Text.class, "exp.at");
        robot.waitUntil("the picked launch fills the point", () -> at.getText().equals("launch:" + picked));
        String name = exp.role(dialog, Text.class, "exp.name").getText();
        assertEquals("soft-cow-at-launch-" + picked, name, "the suggested name says what runs where");
        exp.run(dialog);

        ExperimentsView view = view();
        robot.waitUntil("the experiment ran and is shown", () -> !view.isRunning() && view.experiments().stream()
                .anyMatch(e -> e.result().name().equals(name)), Duration.ofSeconds(60));
        assertTrue(view.statusText().startsWith("Saved " + name), view.statusText());
        ExperimentSelection shown = view.experiments().stream().filter(e -> e.result().name().equals(name))
                .findFirst().orElseThrow();
        assertEquals(new ExperimentConfig("soft-cow:budget=64MiB", "launch:" + picked, "h100", "auto", 1600),
                shown.result().config());
        robot.screenshot(ui.shell(), "experiments-after-run");

        // the command line with the same options, in-process
        Path cliOut = dir.resolve("cli");
        LaunchFiltersUiTest.cli("simulate", trace.file().toString(), "--policy", "soft-cow:budget=64MiB", "--at",
                "launch:" + picked, "--machine", "h100", "--sets", "auto", "--width", "1600", "--out",
                cliOut.toString());
        String cliMetrics = Files.readString(cliOut.resolve("metrics.csv"), StandardCharsets.UTF_8);
        assertEquals(cliMetrics, metricsCsv(shown.result().runs()), "the shown runs' metrics are simulate's");
        Path saved = ExperimentStore.of(trace.file()).folder(name);
        assertEquals(cliMetrics, Files.readString(saved.resolve("outputs/metrics.csv"), StandardCharsets.UTF_8),
                "the saved metrics.csv is simulate's");
        SimulationMetrics m = shown.result().runs().get(0).metrics();
        assertEquals(1, m.checkpoints().size(), "one checkpoint at launch:" + picked);
    }

    // ui-polish: begin
    /**
     * The soft checkpoint's machine knobs copier-rate and cow-latency, typed into the dialog's knob list (which shows
     * their defaults): the run equals {@code simulate --machine h100,copier-rate=...,cow-latency=...}, and differs from
     * the default machine's (the knobs reach the simulator).
     */
    @Test
    void copierRateAndCowLatencyKnobsEqualTheCommandLine(@TempDir Path dir) throws Exception {
        LoadedTrace trace = exp.openCopy(dir, "jcuda-jacobi.phos");
        Shell dialog = exp.newExperiment();
        Text rate = exp.role(dialog, Text.class, "exp.knob.copier-rate");
        Text cow = exp.role(dialog, Text.class, "exp.knob.cow-latency");
        assertEquals("0", rate.getMessage(), "the default: the D2H engine's rate");
        assertEquals("-1", cow.getMessage(), "the default: each copy pays copy-latency");
        exp.checkPolicy(dialog, "soft-cow");
        exp.typeInto(exp.role(dialog, Text.class, "exp.at"), "launch:40");
        exp.typeInto(rate, "3GB/s");
        exp.typeInto(cow, "50us");
        robot.screenshot(dialog, "experiment-dialog-copier-knobs");
        String name = exp.role(dialog, Text.class, "exp.name").getText();
        exp.run(dialog);
        ExperimentsView view = view();
        robot.waitUntil("the experiment ran and is shown", () -> !view.isRunning() && view.experiments().stream()
                .anyMatch(e -> e.result().name().equals(name)), Duration.ofSeconds(60));
        ExperimentSelection shown = view.experiments().stream().filter(e -> e.result().name().equals(name))
                .findFirst().orElseThrow();
        String machine = "h100,copier-rate=3GB/s,cow-latency=50us";
        assertEquals(machine, shown.result().config().machine(), "the knobs are in the experiment's machine");

        Path cliOut = dir.resolve("cli");
        LaunchFiltersUiTest.cli("simulate", trace.file().toString(), "--policy", "soft-cow", "--at", "launch:40",
                "--machine", machine, "--sets", "auto", "--width", "1600", "--out", cliOut.toString());
        String cliMetrics = Files.readString(cliOut.resolve("metrics.csv"), StandardCharsets.UTF_8);
        assertEquals(cliMetrics, metricsCsv(shown.result().runs()), "the shown run's metrics are simulate's");
        Path plain = dir.resolve("cli-default");
        LaunchFiltersUiTest.cli("simulate", trace.file().toString(), "--policy", "soft-cow", "--at", "launch:40",
                "--machine", "h100", "--sets", "auto", "--width", "1600", "--out", plain.toString());
        assertFalse(cliMetrics.equals(Files.readString(plain.resolve("metrics.csv"), StandardCharsets.UTF_8)),
                "a 3 GB/s copier and 50 us per copy-on-write change the run: the knobs reach the simulator");
    }
    // ui-polish: end

    @Test
    void savedExperimentsAreListedOpenedRenamedMarkedStaleAndDeleted(@TempDir Path dir) throws Exception {
        LoadedTrace trace = exp.openCopy(dir, "jcuda-jacobi.phos");
        ExperimentStore store = ExperimentStore.of(trace.file());
        ExperimentConfig config = new ExperimentConfig("stop-the-world;soft-cow", "launch:20", "h100", "auto", 1600);
        ExperimentResult made = store.create("two-policies", config, trace.trace(), ExperimentListener.NONE, null);
        ExperimentsView view = view();
        Table table = robot.findByData(ui.shell(), Table.class, TracesView.ROLE, "experiments");
        robot.click(table);
        robot.key(SWT.F5);
        robot.waitUntil("F5 lists the saved experiment", () -> table.getItemCount() == 1
                && table.getItem(0).getText(0).equals("two-policies"));
        assertEquals("saved", table.getItem(0).getText(1));
        assertEquals("stop-the-world;soft-cow", table.getItem(0).getText(4));

        // a click opens it from its files: the runs equal those the store computed
        clickRow(table, 0);
        robot.waitUntil("selecting it opens it", () -> view.experiments().size() == 1);
        assertEquals(metricsCsv(made.runs()), metricsCsv(view.experiments().get(0).result().runs()));
        assertEquals("open", table.getItem(0).getText(1));

        // F2 renames in place
        robot.key(SWT.F2);
        Text rename = robot.findByData(ui.shell(), Text.class, TracesView.ROLE, "exp.rename");
        robot.waitUntil("the name field has the focus", rename::isFocusControl);
        robot.keyWith(SWT.CTRL, 'a', 'a');
        robot.type("a/b");
        robot.waitUntil("a name with a separator is refused", () -> view.statusText().contains("path separator"));
        robot.keyWith(SWT.CTRL, 'a', 'a');
        robot.type("baseline vs soft");
        robot.key(SWT.CR);
        robot.waitUntil("the row is renamed", () -> table.getItemCount() == 1
                && table.getItem(0).getText(0).equals("baseline vs soft"));
        assertTrue(Files.isDirectory(store.folder("baseline vs soft")), "the folder is renamed");
        assertFalse(Files.exists(store.folder("two-policies")));

        // reopened with the trace: close it, open it again, the experiment is listed under its new name
        ui.window().getActivePage().closeAllEditors(false);
        robot.waitUntil("closing the trace empties the view", () -> table.getItemCount() == 0);
        LoadedTrace again = exp.open(dir, "jcuda-jacobi.phos");
        robot.waitUntil("opening the trace lists its experiment", () -> table.getItemCount() == 1
                && table.getItem(0).getText(0).equals("baseline vs soft"), Duration.ofSeconds(20));
        clickRow(table, 0);
        robot.waitUntil("it opens again", () -> view.experiments().size() == 1
                && view.experiments().get(0).trace() == again);

        // the trace's bytes change: the experiment is marked stale
        byte[] original = Files.readAllBytes(again.file());
        Files.write(again.file(), Arrays.copyOf(original, original.length + 1));
        try {
            robot.click(table);
            robot.key(SWT.F5);
            robot.waitUntil("a changed trace marks the experiment stale",
                    () -> table.getItemCount() == 1 && table.getItem(0).getText(1).contains("stale")
                            && table.getItem(0).getText(0).equals("\u26a0 baseline vs soft"));
            robot.screenshot(ui.shell(), "experiments-stale");
        } finally {
            Files.write(again.file(), original);
        }
        robot.key(SWT.F5);
        robot.waitUntil("the trace as it was: not stale", () -> table.getItemCount() == 1
                && table.getItem(0).getText(1).equals("open") && table.getItem(0).getText(0).equals("baseline vs soft"));

        // Delete asks in the view; Keep keeps, Delete deletes the folder
        clickRow(table, 0);
        robot.key(SWT.DEL);
        Label question = robot.findByData(ui.shell(), Label.class, TracesView.ROLE, "exp.confirmText");
        assertTrue(question.getText().equals("Delete baseline vs soft and its folder "
                + "jcuda-jacobi.phos.experiments/baseline vs soft?"), question.getText());
        robot.click(robot.findByData(ui.shell(), Button.class, TracesView.ROLE, "exp.confirmKeep"));
        assertTrue(Files.isDirectory(store.folder("baseline vs soft")), "Keep keeps it");
        clickRow(table, 0);
        robot.key(SWT.DEL);
        robot.screenshot(ui.shell(), "experiments-delete-question");
        robot.click(robot.findByData(ui.shell(), Button.class, TracesView.ROLE, "exp.confirmDelete"));
        robot.waitUntil("the row goes", () -> table.getItemCount() == 0);
        assertFalse(Files.exists(store.folder("baseline vs soft")), "the folder is deleted");
        assertEquals(List.of(), store.list());
    }

    @Test
    void aRunThatFailsSaysWhyAndSavesNothing(@TempDir Path dir) throws Exception {
        LoadedTrace trace = exp.openCopy(dir, "jcuda-jacobi.phos");
        Shell dialog = exp.newExperiment();
        exp.checkPolicy(dialog, "soft-cow");
        // a valid time, but after the trace's 63 ms: only the run finds out that no checkpoint was taken
        exp.typeInto(exp.role(dialog, Text.class, "exp.at"), "10s");
        exp.run(dialog);
        ExperimentsView view = view();
        robot.waitUntil("the failure is reported", () -> !view.isRunning() && view.statusText().contains("failed"),
                Duration.ofSeconds(60));
        assertTrue(view.statusText().startsWith("soft-cow-at-10s failed: ")
                && view.statusText().contains("reached the end of the trace")
                && view.statusText().contains("choose an earlier one"), view.statusText());
        robot.screenshot(ui.shell(), "experiments-failed");
        assertEquals(List.of(), ExperimentStore.of(trace.file()).list(), "nothing was saved");
        assertTrue(view.experiments().stream().noneMatch(e -> e.result().name().equals("soft-cow-at-10s")));
    }

    private void clickRow(Table table, int row) {
        Rectangle r = table.getItem(row).getBounds(0);
        robot.click(table, r.x + 10, r.y + r.height / 2);
        robot.waitUntil("row " + row + " is selected", () -> table.getSelectionIndex() == row);
    }
}
