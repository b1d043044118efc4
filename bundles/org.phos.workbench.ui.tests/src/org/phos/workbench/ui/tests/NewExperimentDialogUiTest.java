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
        for (Shell s : robot.display().getShells()) {
            if ("newExperiment".equals(s.getData(org.phos.workbench.internal.ui.TracesView.ROLE))) {
                s.close();
            }
        }
        ui.window().getActivePage().closeAllEditors(false);
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
        int picked = exp.clickLaunch(timeline, trace, 30);
        Text at = exp.role(dialog, Text.class, "exp.at");
        robot.waitUntil("the picked launch fills the point", () -> at.getText().equals("launch:" + picked));
        Text command = exp.role(dialog, Text.class, "exp.command");
        assertTrue(command.getText().contains("--policy soft-cow:budget=64MiB --at launch:" + picked),
                command.getText());
        robot.screenshot(dialog, "experiment-dialog");
        robot.screenshot(ui.shell(), "experiment-dialog-window");
    }
}
