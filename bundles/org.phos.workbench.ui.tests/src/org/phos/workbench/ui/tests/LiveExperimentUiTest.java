package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IWorkbenchPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentListener;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.analysis.core.experiment.ExperimentStore;
import org.phos.workbench.internal.live.HostLiveDevice;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.experiment.ExperimentsView;
import org.phos.workbench.live.LiveDevices;
import org.phos.workbench.live.LiveExperiments;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * Live experiments in the workbench without a GPU (issue #13), by real input: the New Experiment dialog offers "Run
 * live on the GPU" disabled, with the reason the device probe gave beside it, and a click on it changes nothing; an
 * experiment run live (here on the engine's host-memory device, the fake GPU of the live tests) is listed in the
 * Experiments view as live with its device and date, and opens from its files on this machine, which has no GPU.
 */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class LiveExperimentUiTest {
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final UiRobot robot = ui.robot();
    private final ExperimentUi exp = new ExperimentUi(ui);

    @AfterEach
    void close() {
        exp.cleanUp();
    }

    private static String csv(java.util.List<org.phos.workbench.analysis.core.experiment.CrRun> runs) {
        java.util.Map<String, org.phos.workbench.cr.core.SimulationMetrics> m = new java.util.LinkedHashMap<>();
        runs.forEach(r -> m.put(r.name(), r.metrics()));
        java.io.StringWriter w = new java.io.StringWriter();
        org.phos.workbench.cr.core.MetricsCsvWriter.write(w, m);
        return w.toString();
    }

    @Test
    void withoutAGpuTheLiveChoiceIsDisabledWithItsReason(@TempDir Path dir) throws Exception {
        Assumptions.assumeFalse(LiveDevices.probe().present(), "a CUDA device is here: the choice is enabled");
        exp.openCopy(dir, "jcuda-jacobi.phos");
        Shell dialog = exp.newExperiment();
        Button live = exp.role(dialog, Button.class, "exp.live");
        Label reason = exp.role(dialog, Label.class, "exp.liveStatus");
        robot.waitUntil("the device probe answered", () -> reason.getText().startsWith("not available: "));
        assertTrue(reason.isVisible() && reason.getText().contains(LiveDevices.probe().text()), reason.getText());
        assertTrue(reason.getText().toLowerCase(java.util.Locale.ROOT).contains("cuda"), reason.getText());
        assertFalse(live.isEnabled(), "no CUDA device: Run live is disabled");
        exp.checkPolicy(dialog, "soft-cow");
        robot.click(live);
        robot.spin(200);
        assertFalse(live.getSelection(), "a click on the disabled choice does not choose it");
        Text command = exp.role(dialog, Text.class, "exp.command");
        assertTrue(command.getText().startsWith("workbench simulate "), command.getText());
        assertFalse(command.getText().contains("--live"), command.getText());
        robot.screenshot(dialog, "experiment-dialog-live-disabled");

        // the reason reads in the dark theme too
        var handlers = ui.window().getService(org.eclipse.ui.handlers.IHandlerService.class);
        dialog.close();
        handlers.executeCommand(org.phos.workbench.internal.ui.theme.SwitchThemeHandler.DARK_COMMAND, null);
        try {
            robot.waitUntil("dark", org.phos.workbench.internal.ui.theme.PhoenixThemes::isDark);
            Shell dark = exp.newExperiment();
            Label darkReason = exp.role(dark, Label.class, "exp.liveStatus");
            robot.waitUntil("the device probe answered", () -> darkReason.getText().startsWith("not available: "));
            robot.spin(300);
            robot.screenshot(dark, "experiment-dialog-live-disabled-dark");
            dark.close();
        } finally {
            handlers.executeCommand(org.phos.workbench.internal.ui.theme.SwitchThemeHandler.LIGHT_COMMAND, null);
            robot.waitUntil("light", () -> !org.phos.workbench.internal.ui.theme.PhoenixThemes.isDark());
        }
    }

    @Test
    void aLiveExperimentIsListedAsLiveAndOpensWithoutTheGpu(@TempDir Path dir) throws Exception {
        LoadedTrace trace = exp.openCopy(dir, "ptx-driver.phos");
        ExperimentStore store = ExperimentStore.of(trace.file());
        ExperimentConfig config = new ExperimentConfig("stop-the-world;soft-cow", "launch:6", "h100", "auto", 1200);
        ExperimentResult made;
        try (HostLiveDevice device = new HostLiveDevice(13)) {
            made = LiveExperiments.create(store, "live-host", config, trace.trace(), 4, device,
                    ExperimentListener.NONE, new org.eclipse.core.runtime.NullProgressMonitor());
        }
        assertEquals(java.util.List.of("live stop-the-world", "simulated stop-the-world", "live soft-cow",
                "simulated soft-cow"), made.runs().stream().map(r -> r.name()).toList());
        String json = Files.readString(store.folder("live-host").resolve(ExperimentStore.CONFIG_FILE));
        assertTrue(json.contains("\"live\"") && json.contains("host memory (random interleaving)"), json);

        ExperimentsView view = (ExperimentsView) ui.window().getActivePage().showView(ExperimentsView.ID, null,
                IWorkbenchPage.VIEW_VISIBLE);
        Table table = robot.findByData(ui.shell(), Table.class, TracesView.ROLE, "experiments");
        robot.click(table);
        robot.key(SWT.F5);
        robot.waitUntil("F5 lists the live experiment", () -> table.getItemCount() == 1
                && table.getItem(0).getText(0).equals("live-host"), Duration.ofSeconds(20));
        int runColumn = table.getColumnCount() - 1;
        assertEquals("Run", table.getColumn(runColumn).getText());
        String today = java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString();
        String kind = table.getItem(0).getText(runColumn);
        assertTrue(kind.equals("live, host memory (random interleaving), " + today), kind);

        // a click opens it from its saved files: this machine has no GPU, nothing is run again
        Rectangle r = table.getItem(0).getBounds(0);
        robot.click(table, r.x + 10, r.y + r.height / 2);
        robot.waitUntil("selecting it opens it", () -> view.experiments().size() == 1);
        assertEquals("open", table.getItem(0).getText(1));
        var opened = view.experiments().get(0).result();
        assertEquals(csv(made.runs()), csv(opened.runs()), "the runs read back are those the live run made");
        robot.screenshot(ui.shell(), "experiments-live");
    }
}
