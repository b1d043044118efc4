package org.phos.workbench.ui.timeline.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.handlers.IHandlerService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accesses.AccessesView;
import org.phos.workbench.internal.ui.accuracy.SpeculationTheme;
import org.phos.workbench.internal.ui.theme.PhoenixThemes;
import org.phos.workbench.internal.ui.theme.SwitchThemeHandler;
import org.phos.workbench.internal.ui.timeline.TimelineLayout;
import org.phos.workbench.internal.ui.timeline.TraceTimelineView;
import org.phos.workbench.speculation.core.validate.AccessVerdict;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.tests.UiRobot;

/**
 * The dark theme, judged on the screen's pixels: switched by Window &gt; Theme &gt; Dark (from the keyboard: Alt+W, T,
 * D), the timeline paints a dark
 * background with lane labels that contrast with it (WCAG contrast ratio), lanes set off from the background, slice
 * colours that read on the lanes; the Accesses table turns dark (GTK's dark variant) and its verdict colours stay
 * distinct and readable on it. Switching back gives a light timeline again. Screenshots of both themes are kept.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.phos.workbench.ui.tests.ScreenshotOnFailure.class)
class DarkThemeUiTest {
    // a new instance per test, made on the UI thread: the window is brought to the front before each test
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

    /** What the screen shows of {@code control}. */
    private ImageData grab(Control control) {
        shell.forceActive();
        robot.spin(200);
        Point size = control.getSize();
        Point at = control.toDisplay(0, 0);
        Image image = new Image(shell.getDisplay(), size.x, size.y);
        GC gc = new GC(shell.getDisplay());
        try {
            gc.copyArea(image, at.x, at.y);
            return image.getImageData();
        } finally {
            gc.dispose();
            image.dispose();
        }
    }

    private static RGB rgb(ImageData d, int x, int y) {
        return d.palette.getRGB(d.getPixel(x, y));
    }

    /** WCAG relative luminance, 0 (black) .. 1 (white). */
    static double luminance(RGB c) {
        double[] v = { c.red / 255.0, c.green / 255.0, c.blue / 255.0 };
        for (int i = 0; i < 3; i++) {
            v[i] = v[i] <= 0.03928 ? v[i] / 12.92 : Math.pow((v[i] + 0.055) / 1.055, 2.4);
        }
        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
    }

    /** WCAG contrast ratio, 1 .. 21. */
    static double contrast(RGB a, RGB b) {
        double la = luminance(a);
        double lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    private static double distance(RGB a, RGB b) {
        return Math.sqrt(Math.pow(a.red - b.red, 2) + Math.pow(a.green - b.green, 2) + Math.pow(a.blue - b.blue, 2));
    }

    /** The highest contrast of any pixel in the rectangle against {@code background}: the text drawn there. */
    private static double textContrast(ImageData d, Rectangle r, RGB background) {
        double best = 1;
        for (int y = r.y; y < r.y + r.height; y++) {
            for (int x = r.x; x < r.x + r.width; x++) {
                best = Math.max(best, contrast(rgb(d, x, y), background));
            }
        }
        return best;
    }

    @Test
    void darkThemeTimelineAndAccessesAreReadable() throws Exception {
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample("pytorch-train.phos"));
        TraceTimelineView timeline = TimelineFixture.open(robot, trace);
        Canvas canvas = robot.findByData(shell, Canvas.class, TraceTimelineView.ROLE, "canvas");
        // Window > Theme > Dark from the keyboard, as a person would: Alt+W opens the menu, T the submenu, D picks Dark
        robot.keyWith(org.eclipse.swt.SWT.ALT, 'w', 'w');
        robot.spin(300);
        robot.type("t");
        robot.spin(300);
        robot.type("d");
        robot.waitUntil("Window > Theme > Dark switched the theme", PhoenixThemes::isDark);
        robot.spin(500);
        canvas.redraw();
        robot.spin(300);
        ImageData dark = grab(canvas);
        TimelineLayout layout = timeline.timelineCanvas().layout();
        // the ruler's right end: nothing but background there
        RGB background = rgb(dark, dark.width - 3, 3);
        assertTrue(luminance(background) < 0.05, "the timeline's background is dark: " + background);
        assertEquals(timeline.timelineCanvas().palette().background().getRGB(), background,
                "painted with the theme's background");
        // lane labels (host lane and the first stream): light text on the dark background
        for (int lane = 0; lane < 2; lane++) {
            Rectangle label = new Rectangle(4, layout.laneTop(lane), layout.labelWidth() - 10, TimelineLayout.LANE_HEIGHT);
            double c = textContrast(dark, label, background);
            assertTrue(c >= 7, "lane " + lane + " label contrast " + c + " (WCAG AAA: 7)");
        }
        // lanes set off from the background; every slice colour readable on a lane
        RGB lane = timeline.timelineCanvas().palette().laneBackground().getRGB();
        assertTrue(distance(lane, background) >= 10, "lanes distinct from the background: " + lane + " on " + background);
        int categories = org.phos.workbench.internal.ui.timeline.SliceCategory.values().length;
        for (int k = 0; k < categories; k++) {
            RGB slice = timeline.timelineCanvas().palette().category(k).getRGB();
            assertTrue(contrast(slice, lane) >= 3, "slice colour " + k + " " + slice + " on the dark lane " + lane);
        }
        robot.screenshot(shell, "theme-dark-timeline");

        // Accesses: native table dark too, verdict colours distinct and readable on it
        LoadedTrace cuda = TimelineFixture.load(TimelineFixture.sample("cuda-suite.phos"));
        Trace t = cuda.trace();
        int launch = -1;
        for (int l = 0; l < t.launchCount() && launch < 0; l++) {
            FunctionInfo f = t.functionById(t.functionId(t.launchEvent(l)));
            if (f != null && f.displayName().contains("indirect_sum")) {
                launch = l;
            }
        }
        IWorkbenchPage page = window.getActivePage();
        AccessesView accesses = (AccessesView) page.showView(AccessesView.ID);
        accesses.show(cuda, launch);
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "accesses");
        robot.waitUntil("Accesses lists the launch's allocations", () -> table.getItemCount() > 0, Duration.ofSeconds(60));
        robot.spin(300);
        ImageData shot = grab(table);
        RGB tableBackground = rgb(shot, shot.width / 2, shot.height - 6); // below the rows
        assertTrue(luminance(tableBackground) < 0.1, "the Accesses table is dark: " + tableBackground);
        List<AccessVerdict> verdicts = List.of(AccessVerdict.values());
        for (AccessVerdict v : verdicts) {
            RGB c = SpeculationTheme.verdict(v).getRGB();
            assertTrue(contrast(c, tableBackground) >= 4.5, v + " " + c + " on the dark table: " + contrast(c, tableBackground));
            for (AccessVerdict w : verdicts) {
                if (v.ordinal() < w.ordinal()) {
                    assertTrue(distance(c, SpeculationTheme.verdict(w).getRGB()) >= 60, v + " and " + w + " distinct");
                }
            }
        }
        // a verdict is painted in its colour: some pixel of the first row's verdict cell is (nearly) that colour
        int col = 3;
        String label = table.getItem(0).getText(col);
        RGB expected = SpeculationTheme.verdict(AccessVerdict.valueOf(label.toUpperCase(java.util.Locale.ROOT).replace('-', '_'))).getRGB();
        Rectangle cell = table.getItem(0).getBounds(col);
        Point origin = table.toDisplay(0, 0);
        Point cellAt = shell.getDisplay().map(table, null, cell.x, cell.y);
        Rectangle inShot = new Rectangle(cellAt.x - origin.x, cellAt.y - origin.y, cell.width, cell.height);
        double nearest = Double.MAX_VALUE;
        for (int y = Math.max(0, inShot.y); y < Math.min(shot.height, inShot.y + inShot.height); y++) {
            for (int x = Math.max(0, inShot.x); x < Math.min(shot.width, inShot.x + inShot.width); x++) {
                nearest = Math.min(nearest, distance(rgb(shot, x, y), expected));
            }
        }
        assertTrue(nearest < 40, "the " + label + " verdict is drawn in its colour " + expected + " (nearest " + nearest + ")");
        // the workbench's own chrome turned dark as well: the view tool bars (Export CSV..., Copy) are not left light
        for (org.eclipse.swt.widgets.ToolBar bar : UiRobot.findAll(shell, org.eclipse.swt.widgets.ToolBar.class,
                Control::isVisible)) {
            assertTrue(luminance(bar.getBackground().getRGB()) < 0.2, "a dark tool bar: " + bar.getBackground());
        }
        robot.screenshot(shell, "theme-dark-accesses");

        // and back through the menu: a light timeline
        robot.keyWith(org.eclipse.swt.SWT.ALT, 'w', 'w');
        robot.spin(300);
        robot.type("t");
        robot.spin(300);
        robot.type("l");
        robot.waitUntil("Window > Theme > Light switched the theme", () -> !PhoenixThemes.isDark());
        robot.spin(500);
        page.showView(org.phos.workbench.ui.timeline.TimelineUi.VIEW_ID);
        canvas.redraw();
        robot.spin(300);
        ImageData light = grab(canvas);
        RGB lightBackground = rgb(light, light.width - 3, 3);
        assertTrue(luminance(lightBackground) > 0.7, "light theme: light timeline background " + lightBackground);
        robot.screenshot(shell, "theme-light-timeline");
    }
}
