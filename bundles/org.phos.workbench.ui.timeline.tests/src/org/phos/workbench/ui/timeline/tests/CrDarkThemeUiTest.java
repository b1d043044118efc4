package org.phos.workbench.ui.timeline.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;

import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.handlers.IHandlerService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.internal.ui.theme.PhoenixThemes;
import org.phos.workbench.internal.ui.theme.SwitchThemeHandler;
import org.phos.workbench.internal.ui.timeline.TimelineLayout;
import org.phos.workbench.internal.ui.timeline.cr.CrTimelineView;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.tests.UiRobot;
import org.phos.workbench.ui.timeline.TimelineUi;

/**
 * The C/R Timeline in both themes, judged on the screen's pixels: the longest stall is painted in the theme's stall
 * colour (red on light, a lighter red on dark), over the theme's background; screenshots of both are kept.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.phos.workbench.ui.tests.ScreenshotOnFailure.class)
class CrDarkThemeUiTest {
    private final org.phos.workbench.ui.tests.WorkbenchUi ui = org.phos.workbench.ui.tests.WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @AfterEach
    void backToLight() throws Exception {
        theme(SwitchThemeHandler.LIGHT_COMMAND);
    }

    private void theme(String command) throws Exception {
        window.getService(IHandlerService.class).executeCommand(command, null);
        boolean dark = command.equals(SwitchThemeHandler.DARK_COMMAND);
        robot.waitUntil("the theme switched", () -> PhoenixThemes.isDark() == dark);
        robot.spin(500);
    }

    @Test
    void stallsAreRedInBothThemes() throws Exception {
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample(CrTimelineUiTest.SAMPLE));
        ExperimentResult r = CrFixture.experiment(trace, "stw-vs-cow", CrTimelineUiTest.SOFT_COW,
                CrTimelineUiTest.STOP_THE_WORLD);
        CrTimelineView view = CrFixture.openTimeline(robot, trace, r);
        var page = view.getSite().getPage();
        page.setPartState(page.getReference(view), org.eclipse.ui.IWorkbenchPage.STATE_MAXIMIZED);
        try {
            StallInterval longest = view.pane().content().hostStalls().stream()
                    .max(Comparator.comparingLong(StallInterval::durationNs)).orElseThrow();
            long pad = longest.durationNs();
            view.timelineCanvas().showWindow(longest.startNs() - pad, longest.endNs() + pad);
            robot.spin(300);
            assertEquals(rgb("crStall"), pixel(view, longest), "light: the stall is painted in the light stall colour");
            robot.screenshot(shell, "cr-timeline-light");

            theme(SwitchThemeHandler.DARK_COMMAND);
            RGB dark = rgb("crStall");
            assertTrue(!dark.equals(new RGB(211, 20, 20)), "the dark theme overrides the stall colour: " + dark);
            assertEquals(dark, pixel(view, longest), "dark: the stall is painted in the dark theme's stall colour");
            RGB bg = rgb("background");
            assertTrue(bg.red + bg.green + bg.blue < 200, "a dark background: " + bg);
            robot.screenshot(shell, "cr-timeline-dark");
            // the runs' picker: the second run (stop-the-world) in the dark theme too
            robot.choose(view.pane().runCombo(), CrTimelineUiTest.STOP_THE_WORLD);
            robot.waitUntil("the second run drawn", () -> view.isReady()
                    && view.pane().content().run().name().equals(CrTimelineUiTest.STOP_THE_WORLD));
            robot.screenshot(shell, "cr-timeline-dark-stop-the-world");
        } finally {
            page.setPartState(page.getReference(view), org.eclipse.ui.IWorkbenchPage.STATE_RESTORED);
        }
    }

    private static RGB rgb(String key) {
        return PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry()
                .getRGB(TimelineUi.COLOR_PREFIX + key);
    }

    /** The screen's pixel in the middle of {@code s} on the host lane (a row near the lane's top, over the work). */
    private RGB pixel(CrTimelineView view, StallInterval s) {
        Control c = view.timelineCanvas().control();
        shell.forceActive();
        robot.spin(200);
        TimelineLayout l = view.timelineCanvas().layout();
        int x = l.labelWidth() + (int) Math.round(view.visibleRange().x((s.startNs() + s.endNs()) / 2, l.dataWidth()));
        int y = l.laneTop(0) + 3;
        Point at = c.toDisplay(x, y);
        Image image = new Image(c.getDisplay(), 1, 1);
        GC gc = new GC(c.getDisplay());
        try {
            gc.copyArea(image, at.x, at.y);
            ImageData d = image.getImageData();
            return d.palette.getRGB(d.getPixel(0, 0));
        } finally {
            gc.dispose();
            image.dispose();
        }
    }
}
