package org.phos.workbench.ui.tests;

import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;

/**
 * The running workbench as a UI test drives it: its window, the window's shell and a robot on its display. Made by
 * {@link #inFront()} in a test's {@code @BeforeEach}, which also brings the window to the front, so every test
 * class starts the same way.
 *
 * @param window the workbench window
 * @param shell its shell
 * @param robot a robot posting real input events to the shell's display
 */
public record WorkbenchUi(IWorkbenchWindow window, Shell shell, UiRobot robot) {
    /** The first workbench window, activated and visible. */
    public static WorkbenchUi inFront() {
        IWorkbenchWindow window = PlatformUI.getWorkbench().getWorkbenchWindows()[0];
        Shell shell = window.getShell();
        UiRobot robot = new UiRobot(shell.getDisplay());
        shell.forceActive();
        robot.waitUntil("the workbench window is visible", shell::isVisible);
        robot.spin(200);
        return new WorkbenchUi(window, shell, robot);
    }
}
