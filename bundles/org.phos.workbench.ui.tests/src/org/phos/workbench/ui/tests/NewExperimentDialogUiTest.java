package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IViewPart;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * The New Experiment dialog by real input: a typed budget is checked as it is typed (refused with the parser's
 * reason next to the field, Run disabled), and "Pick on timeline" takes the launch clicked in the Trace Timeline.
 */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class NewExperimentDialogUiTest {
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final UiRobot robot = ui.robot();
    private final ExperimentUi exp = new ExperimentUi(ui);

    @AfterEach
    void close() {
        exp.cleanUp();
    }

    @Test
    void invalidBudgetIsRefusedWithItsReasonAndAPickedLaunchFillsThePoint(@TempDir Path dir) throws Exception {
        LoadedTrace trace = exp.openCopy(dir, "jcuda-jacobi.phos");
        IViewPart timeline = exp.timeline(trace);
        Shell dialog = exp.newExperiment();
        Button run = exp.role(dialog, Button.class, "exp.run");
        assertFalse(run.isEnabled(), "no policy checked yet: Run is disabled");
        exp.checkPolicy(dialog, "soft-cow");
        robot.waitUntil("a checked policy enables Run", run::isEnabled);

        Text budget = exp.role(dialog, Text.class, "exp.param.budget");
        assertEquals("14GiB (default)", budget.getMessage(), "the default budget is shown");
        exp.typeInto(budget, "lots");
        Label reason = exp.role(dialog, Label.class, "exp.error.param:soft-cow:budget");
        robot.waitUntil("the budget's reason is shown next to it", () -> reason.isVisible()
                && reason.getText().contains("lots"));
        assertFalse(run.isEnabled(), "an invalid budget disables Run: " + reason.getText());
        robot.screenshot(dialog, "experiment-dialog-invalid-budget");
        exp.typeInto(budget, "64MiB");
        robot.waitUntil("a valid budget enables Run again", run::isEnabled);
        assertFalse(reason.isVisible(), "no reason for a valid budget: " + reason.getText());

        robot.click(exp.role(dialog, Button.class, "exp.pick"));
        robot.waitUntil("picking shrinks the dialog to the point's row", () -> !budget.isVisible());
        assertTrue(dialog.getBounds().height < 400, "the picking dialog is small: " + dialog.getBounds());
        robot.screenshot(ui.shell(), "experiment-dialog-picking");
        int picked = exp.clickLaunch(timeline, trace, 30);
        Text at = exp.role(dialog, Text.class, "exp.at");
        robot.waitUntil("the picked launch fills the point", () -> at.getText().equals("launch:" + picked));
        robot.waitUntil("the dialog is whole again", () -> budget.isVisible());
        Text command = exp.role(dialog, Text.class, "exp.command");
        assertTrue(command.getText().contains("--policy soft-cow:budget=64MiB --at launch:" + picked),
                command.getText());
        robot.screenshot(dialog, "experiment-dialog");
        robot.screenshot(ui.shell(), "experiment-dialog-window");
    }

    @Test
    void aLaunchGoneToInTheLaunchesViewIsThePointAndTheDarkThemeReads(@TempDir Path dir) throws Exception {
        LoadedTrace trace = exp.openCopy(dir, "jcuda-jacobi.phos");
        org.phos.workbench.analysis.core.experiment.ExperimentStore.of(trace.file()).create("soft-cow-at-launch-20",
                new org.phos.workbench.analysis.core.experiment.ExperimentConfig("soft-cow", "launch:20", "h100",
                        "auto", 1600),
                trace.trace(), org.phos.workbench.analysis.core.experiment.ExperimentListener.NONE, null);
        org.eclipse.ui.IWorkbenchPage page = ui.window().getActivePage();
        page.showView("org.phos.workbench.ui.launchesView");
        Text goTo = exp.role(ui.shell(), Text.class, "goToLaunch");
        exp.typeInto(goTo, "12");
        robot.key(org.eclipse.swt.SWT.CR);
        robot.waitUntil("the Launches view selects launch 12", () -> page.getSelection() instanceof
                org.eclipse.jface.viewers.IStructuredSelection s
                && s.getFirstElement() instanceof org.phos.workbench.ui.model.LaunchSelection ls && ls.launch() == 12);
        Shell dialog = exp.newExperiment();
        assertEquals("launch:12", exp.role(dialog, Text.class, "exp.at").getText(),
                "New Experiment on a selected launch starts at that launch");
        exp.checkPolicy(dialog, "soft-recopy");
        exp.typeInto(exp.role(dialog, Text.class, "exp.param.threshold"), "512MB/s");
        Label reason = exp.role(dialog, Label.class, "exp.error.param:soft-recopy:threshold");
        robot.waitUntil("the threshold is refused", () -> reason.isVisible() && !reason.getText().isEmpty());
        robot.screenshot(dialog, "experiment-dialog-light");

        var handlers = ui.window().getService(org.eclipse.ui.handlers.IHandlerService.class);
        handlers.executeCommand(org.phos.workbench.internal.ui.theme.SwitchThemeHandler.DARK_COMMAND, null);
        try {
            robot.waitUntil("dark", org.phos.workbench.internal.ui.theme.PhoenixThemes::isDark);
            robot.spin(500);
            dialog.close();
            Shell dark = exp.newExperiment();
            exp.checkPolicy(dark, "soft-recopy");
            exp.typeInto(exp.role(dark, Text.class, "exp.param.threshold"), "512MB/s");
            robot.spin(300);
            robot.screenshot(dark, "experiment-dialog-dark");
            dark.close();
            page.showView(org.phos.workbench.internal.ui.experiment.ExperimentsView.ID);
            org.eclipse.swt.widgets.Table table = exp.role(ui.shell(), org.eclipse.swt.widgets.Table.class,
                    "experiments");
            robot.click(table);
            robot.key(org.eclipse.swt.SWT.F5); // it was made by the store behind the view's back
            robot.waitUntil("the saved experiment is listed", () -> table.getItemCount() == 1);
            robot.screenshot(ui.shell(), "experiments-dark");
        } finally {
            handlers.executeCommand(org.phos.workbench.internal.ui.theme.SwitchThemeHandler.LIGHT_COMMAND, null);
            robot.waitUntil("light", () -> !org.phos.workbench.internal.ui.theme.PhoenixThemes.isDark());
        }
    }
}
