package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.handlers.IHandlerService;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.process.ProcessCheckpoint;
import org.phos.workbench.cr.core.process.ProcessState;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.attach.LiveTraceEditor;
import org.phos.workbench.internal.ui.theme.PhoenixThemes;
import org.phos.workbench.internal.ui.theme.SwitchThemeHandler;

/**
 * ui-polish: the live trace's driver checkpoint section in the Phoenix perspective's default layout at 1280x1024 (the
 * perspective reset), attached by File &gt; Attach to a recording fake-libcuda process as {@link CheckpointUiTest}
 * does: after a whole checkpoint by a real click, the state chips and the phases' strip (two rows: chips over the
 * phases on a time axis as wide as the editor) and the status line under it are on screen without resizing, and each
 * phase of the fake's 300 ms checkpoint is wide enough for its name. Screenshots in both themes.
 */
class CheckpointLayoutUiTest extends LiveProcessUi {
    @BeforeEach
    void helperOverTheFakeDriver() {
        useCheckpointHelperOverTheFakeDriver();
    }

    private void theme(String command) throws Exception {
        window.getService(IHandlerService.class).executeCommand(command, null);
        boolean dark = command.equals(SwitchThemeHandler.DARK_COMMAND);
        robot.waitUntil("the theme switched", () -> PhoenixThemes.isDark() == dark);
        robot.spin(1500);
        shell.redraw();
        shell.update();
        robot.spin(300);
    }

    /** {@code c} lies wholly inside the visible area of {@code area} (its client area, in display coordinates). */
    private static void assertInside(org.eclipse.swt.widgets.Composite area, Control c, String what) {
        Rectangle a = area.getDisplay().map(area, null, area.getClientArea());
        Rectangle b = c.getDisplay().map(c.getParent(), null, c.getBounds());
        assertTrue(c.isVisible() && a.contains(b.x, b.y) && a.contains(b.x + b.width - 1, b.y + b.height - 1),
                what + " " + b + " is on screen inside the editor " + a);
    }

    @Test
    void theCheckpointSectionIsReadableInTheDefaultLayout() throws Exception {
        IWorkbenchPage page = window.getActivePage();
        page.resetPerspective();
        robot.spin(300);
        assertTrue(shell.getSize().x <= 1280 && shell.getSize().y <= 1024, "the window fits 1280x1024");
        try (RecordingProcess app = new RecordingProcess(build, tmp.resolve("xdg"), tmp.resolve("app.phos"),
                java.util.Map.of("PHOS_FAKE_CKPT_MS", "300"))) {
            app.command("launch 50");
            LiveTraceEditor live = AttachDialog.attach(ui, app, 0, null);
            ProcessCheckpoint m = live.checkpointPanel().machine();
            robot.waitUntil("the driver's state is known", () -> m.state() == ProcessState.RUNNING && !m.busy(),
                    Duration.ofSeconds(10));
            robot.click(robot.findByData(shell, Button.class, TracesView.ROLE, "checkpointAll"));
            robot.waitUntil("the checkpoint finished", () -> !m.busy(), Duration.ofSeconds(15));
            assertEquals(ProcessCheckpoint.Outcome.DONE, m.lastRun().outcome(), live.checkpointPanel().stateText());
            robot.spin(300);

            Canvas strip = live.checkpointPanel().strip();
            org.eclipse.swt.widgets.Composite editor = strip.getParent().getParent(); // the live trace editor's own
            assertInside(editor, strip, "the checkpoint strip");
            Label status = robot.findByData(shell, Label.class, TracesView.ROLE, "liveStatus");
            assertInside(editor, status, "the live status line");
            org.eclipse.swt.graphics.GC gc = new org.eclipse.swt.graphics.GC(strip);
            int text = gc.getFontMetrics().getHeight();
            gc.dispose();
            assertTrue(strip.getSize().y >= 2 * (text + 4), "two rows: chips over the phases: " + strip.getSize());
            // the phases' axis spans the strip's second row (less the stall's text), not what the chips leave of one
            int axis = live.checkpointPanel().phaseAxisWidth();
            assertTrue(axis >= strip.getSize().x - 200, "the phases' axis is " + axis + " px of " + strip.getSize().x);
            // so the 300 ms checkpoint gets room for its name and time ("checkpoint 300.1 ms")
            double checkpointShare = m.lastRun().phases().get(1).ms() / (m.lastRun().phases().get(3).endNs()
                    - m.lastRun().phases().get(0).beginNs()) * 1e6;
            assertTrue(checkpointShare * axis > 140, "the checkpoint phase gets " + Math.round(checkpointShare * axis)
                    + " px");
            shot("checkpoint-default-layout-light");
            theme(SwitchThemeHandler.DARK_COMMAND);
            live.checkpointPanel().strip().redraw();
            shot("checkpoint-default-layout-dark");
        }
    }

    /** A screenshot of the window with the pointer moved off the buttons (no tooltip over the strip). */
    private void shot(String name) throws Exception {
        var b = shell.getBounds();
        robot.moveTo(new org.eclipse.swt.graphics.Point(b.x + 5, b.y + b.height - 5));
        robot.spin(400);
        robot.screenshot(shell, name);
    }
}
