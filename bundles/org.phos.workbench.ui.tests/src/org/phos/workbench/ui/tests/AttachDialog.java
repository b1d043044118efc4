package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Spinner;
import org.eclipse.swt.widgets.Table;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.handlers.IHandlerService;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.attach.LiveTraceEditor;

/**
 * File &gt; Attach to GPU Process… driven by real input, for the tests that attach to a {@link RecordingProcess}: the
 * dialog lists the process (pid, command line, a device), Attach waits for a choice, the window size is typed when one
 * is given, the process's row is clicked and Attach pressed; returns the live trace that opened.
 */
final class AttachDialog {
    private AttachDialog() {
    }

    /**
     * @param windowEvents the live window to type into the dialog, or 0 to keep its default
     * @param screenshot   name of a screenshot of the dialog before the choice, or null for none
     */
    static LiveTraceEditor attach(WorkbenchUi ui, RecordingProcess app, int windowEvents, String screenshot)
            throws Exception {
        IWorkbenchWindow window = ui.window();
        UiRobot robot = ui.robot();
        System.setProperty("phos.attach.dir", app.socketDir().toString());
        window.getService(IHandlerService.class).executeCommand("org.phos.workbench.ui.attachProcess", null);
        Shell dialog = Arrays.stream(ui.shell().getDisplay().getShells())
                .filter(s -> "Attach to GPU Process".equals(s.getText()) && s.isVisible()).findFirst().orElseThrow();
        Table processes = robot.findByData(dialog, Table.class, TracesView.ROLE, "attachProcesses");
        robot.waitUntil("the dialog lists process " + app.pid(), () -> processes.getItemCount() == 1
                && processes.getItem(0).getText(0).equals(Long.toString(app.pid())), Duration.ofSeconds(10));
        assertTrue(processes.getItem(0).getText(1).contains(app.commandName), processes.getItem(0).getText(1)); // i14-jsites
        assertTrue(processes.getItem(0).getText(2).length() > 0, "a device is named");
        if (screenshot != null) {
            robot.screenshot(dialog, screenshot);
        }
        Button attach = robot.findByData(dialog, Button.class, TracesView.ROLE, "attachOk");
        assertFalse(attach.isEnabled(), "Attach waits for a choice");
        if (windowEvents > 0) {
            Spinner size = robot.findByData(dialog, Spinner.class, TracesView.ROLE, "attachWindow");
            robot.click(size, 20, size.getSize().y / 2);
            robot.key(SWT.END);
            for (int i = 0; i < 12; i++) {
                robot.key(SWT.BS);
            }
            robot.type(Integer.toString(windowEvents));
            robot.key(SWT.TAB);
        }
        Rectangle row = processes.getItem(0).getBounds();
        robot.click(processes, row.x + 20, row.y + row.height / 2);
        if (windowEvents > 0) {
            Spinner size = robot.findByData(dialog, Spinner.class, TracesView.ROLE, "attachWindow");
            robot.waitUntil("the window field says " + windowEvents, () -> size.getSelection() == windowEvents);
        }
        robot.waitUntil("Attach is enabled", attach::isEnabled);
        robot.click(attach);
        robot.waitUntil("the dialog closed", dialog::isDisposed);
        robot.waitUntil("the live trace opened",
                () -> window.getActivePage().getActiveEditor() instanceof LiveTraceEditor, Duration.ofSeconds(10));
        return (LiveTraceEditor) window.getActivePage().getActiveEditor();
    }
}
