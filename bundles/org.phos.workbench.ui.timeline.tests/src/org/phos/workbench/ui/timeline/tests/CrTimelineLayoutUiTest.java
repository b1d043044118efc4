package org.phos.workbench.ui.timeline.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Comparator;

import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.handlers.IHandlerService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accesses.AccessesView;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.properties.PropertiesView;
import org.phos.workbench.internal.ui.theme.PhoenixThemes;
import org.phos.workbench.internal.ui.theme.SwitchThemeHandler;
import org.phos.workbench.internal.ui.timeline.TimeWindow;
import org.phos.workbench.internal.ui.timeline.TimelineLayout;
import org.phos.workbench.internal.ui.timeline.cr.CrTimelineContent;
import org.phos.workbench.internal.ui.timeline.cr.CrTimelineView;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.TimeSelection;
import org.phos.workbench.ui.tests.UiRobot;

/**
 * The C/R Timeline in the Phoenix perspective's default layout at 1280x1024 (the perspective reset): stacked with
 * Accesses at the top right, it comes up when an experiment is shown, and every lane of a soft copy-on-write run
 * (host, streams, copy engines, copy-on-write, commit, restore) is on screen at once, with the markers' labels under
 * them; the Launches table keeps its rows; a stall's label is shortened at a word; a real drag on it is
 * published as the Trace Timeline's drag is (a {@link TimeSelection} of the trace, mapped onto the trace's clock),
 * which Properties and the Launches view show. Screenshots in both themes.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.phos.workbench.ui.tests.ScreenshotOnFailure.class)
class CrTimelineLayoutUiTest {
    private final org.phos.workbench.ui.tests.WorkbenchUi ui = org.phos.workbench.ui.tests.WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @AfterEach
    void backToLight() throws Exception {
        theme(SwitchThemeHandler.LIGHT_COMMAND);
        window.getActivePage().closeAllEditors(false);
    }

    private void theme(String command) throws Exception {
        window.getService(IHandlerService.class).executeCommand(command, null);
        boolean dark = command.equals(SwitchThemeHandler.DARK_COMMAND);
        robot.waitUntil("the theme switched", () -> PhoenixThemes.isDark() == dark);
        robot.spin(1500); // the styling engine restyles every widget of the open editor and views
        shell.redraw();
        shell.update();
        robot.spin(300);
    }

    /**
     * Resets the perspective (its default layout: Accesses on top at the top right) and shows a soft copy-on-write run
     * as the Experiments view shows a finished one: the C/R Timeline comes to the top of its stack by itself.
     */
    private CrTimelineView defaultLayout(LoadedTrace trace) throws Exception {
        IWorkbenchPage page = window.getActivePage();
        page.resetPerspective();
        robot.spin(300);
        IViewPart accesses = page.showView(AccessesView.ID);
        assertTrue(page.isPartVisible(accesses), "Accesses on top at first");
        ExperimentResult r = CrFixture.experiment(trace, "soft-cow-300", CrTimelineUiTest.SOFT_COW);
        CrFixture.publish(trace, r);
        robot.waitUntil("the C/R Timeline came up and drew the run", () -> page.findView(CrTimelineView.ID)
                instanceof CrTimelineView v && v.isReady() && v.pane().content().run() == r.runs().get(0),
                Duration.ofSeconds(120));
        CrTimelineView view = (CrTimelineView) page.findView(CrTimelineView.ID);
        assertTrue(page.isPartVisible(view), "the C/R Timeline is on top of its stack");
        assertTrue(!page.isPartVisible(accesses), "over Accesses, with which it is stacked");
        page.activate(view);
        robot.spin(300);
        return view;
    }

    @Test
    void everyLaneOfARunIsShownInTheDefaultLayout() throws Exception {
        assertTrue(shell.getSize().x <= 1280 && shell.getSize().y <= 1024, "the window fits 1280x1024: " + shell.getSize());
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample(CrTimelineUiTest.SAMPLE));
        CrTimelineView view = defaultLayout(trace);
        CrTimelineContent c = view.pane().content();
        int lanes = c.lanes().size();
        assertTrue(lanes >= 8, "a soft copy-on-write run has host, stream, engine and C/R lanes: " + lanes);
        Control canvas = view.timelineCanvas().control();
        TimelineLayout l = view.timelineCanvas().layout();
        assertEquals(0, l.firstLane(), "no lane scrolled away");
        assertTrue(l.laneTop(lanes - 1) + l.laneHeight() <= canvas.getSize().y, "the last lane ("
                + c.lanes().get(lanes - 1).label() + ") ends inside the canvas " + canvas.getSize() + ": " + l);
        int textHeight = fontHeight(canvas);
        assertTrue(l.laneHeight() >= textHeight, "a lane holds its label: " + l.laneHeight() + " >= " + textHeight);
        assertTrue(l.laneTop(lanes) + textHeight <= canvas.getSize().y,
                "a row for the markers' labels under the lanes: " + l + " in " + canvas.getSize());
        // the views beside it stay useful: the trace open in its editor (the overview), the Launches table (stacked
        // with the Trace Timeline) lists its launches
        window.getActivePage().openEditor(
                new org.phos.workbench.internal.ui.trace.TraceEditorInput(trace.file()),
                org.phos.workbench.internal.ui.trace.TraceEditor.ID);
        LaunchesView launches = (LaunchesView) window.getActivePage().showView(LaunchesView.ID, null,
                IWorkbenchPage.VIEW_VISIBLE);
        robot.waitUntil("the Launches view lists the trace", () -> launches.rowCount() > 0, Duration.ofSeconds(30));
        robot.spin(300);
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "launches");
        int rows = (table.getClientArea().height - table.getHeaderHeight()) / table.getItemHeight();
        System.out.println("Launches rows on screen in the default layout: " + rows + " (" + table.getClientArea()
                + ", item height " + table.getItemHeight() + ")");
        assertTrue(rows >= 10, "the Launches table keeps 10 rows or more: " + rows);
        window.getActivePage().activate(view);
        robot.spin(200);
        shot("cr-default-layout-light");
        theme(SwitchThemeHandler.DARK_COMMAND);
        shot("cr-default-layout-dark");
        theme(SwitchThemeHandler.LIGHT_COMMAND);

        // narrow stalls: the label shortened at a word, never cut (screenshots of the longest stall 110 and 45 px wide)
        StallInterval longest = c.hostStalls().stream().max(Comparator.comparingLong(StallInterval::durationNs))
                .orElseThrow();
        for (int px : new int[] { 110, 45 }) {
            long span = longest.durationNs() * l.dataWidth() / px;
            view.timelineCanvas().showWindow(longest.startNs() - span / 2, longest.startNs() + span / 2);
            robot.spin(300);
            shot("cr-stall-" + px + "px-light");
        }
        theme(SwitchThemeHandler.DARK_COMMAND);
        shot("cr-stall-45px-dark");
    }

    /** A screenshot of the window with the pointer moved off the views (no tooltip over them). */
    private void shot(String name) throws Exception {
        var b = shell.getBounds();
        robot.moveTo(new org.eclipse.swt.graphics.Point(b.x + 5, b.y + b.height - 5));
        robot.spin(400);
        robot.screenshot(shell, name);
    }

    private static int fontHeight(Control c) {
        org.eclipse.swt.graphics.GC gc = new org.eclipse.swt.graphics.GC(c);
        try {
            return gc.getFontMetrics().getHeight();
        } finally {
            gc.dispose();
        }
    }

    @Test
    void aDragIsPublishedAsTheTraceTimelinesDragIs() throws Exception {
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample(CrTimelineUiTest.SAMPLE));
        CrTimelineView view = defaultLayout(trace);
        Canvas canvas = robot.findByData(shell, Canvas.class,
                org.phos.workbench.internal.ui.timeline.TraceTimelineView.ROLE, "cr-canvas");
        TimelineLayout l = view.timelineCanvas().layout();
        int x0 = l.labelWidth() + l.dataWidth() / 5;
        int x1 = l.labelWidth() + l.dataWidth() * 3 / 5;
        int y = l.laneTop(1) + l.laneHeight() / 2;
        TimeWindow w = view.visibleRange();
        robot.drag(canvas, x0, y, x1, y);
        long simFrom = w.time(x0 - l.labelWidth(), l.dataWidth());
        long simTo = w.time(x1 - l.labelWidth(), l.dataWidth());

        Object published = ((IStructuredSelection) view.getSite().getSelectionProvider().getSelection())
                .getFirstElement();
        TimeSelection s = (TimeSelection) published;
        assertEquals(trace, s.trace(), "the range is of the experiment's trace");
        assertEquals(view.mapping().toTrace(simFrom), s.fromNs(), "from: where the drag began, on the trace's clock");
        assertEquals(view.mapping().toTrace(simTo), s.toNs(), "to: where it ended, on the trace's clock");
        assertEquals(w, view.visibleRange(), "a drag selects, it does not zoom");
        assertTrue(view.detailsText().contains("simulated clock") && view.detailsText().contains("in the trace"),
                view.detailsText());
        Object pageSelection = ((IStructuredSelection) window.getSelectionService().getSelection()).getFirstElement();
        assertEquals(s, pageSelection, "the page's selection is the range (as after a drag on the Trace Timeline)");

        // the launches issued in it, counted here from the trace's events
        Trace t = trace.trace();
        int inRange = 0;
        for (int i = 0; i < t.eventCount(); i++) {
            if (t.kind(i) == EventKind.LAUNCH && Long.compareUnsigned(t.hostNs(i), s.fromNs()) >= 0
                    && Long.compareUnsigned(t.hostNs(i), s.toNs()) <= 0) {
                inRange++;
            }
        }
        assertTrue(inRange > 0, "the range holds launches");
        // Properties shows it
        window.getActivePage().showView(PropertiesView.ID, null, IWorkbenchPage.VIEW_VISIBLE);
        Table props = robot.findByData(shell, Table.class, TracesView.ROLE, "properties");
        int expected = inRange;
        robot.waitUntil("Properties shows the range", () -> value(props, "launches in it") != null);
        assertEquals(trace.name(), value(props, "trace"));
        assertEquals(Integer.toString(expected), value(props, "launches in it"));
        assertTrue(value(props, "range from").startsWith("+"), value(props, "range from"));
        // and the Launches view keeps the launches issued in it
        LaunchesView launches = (LaunchesView) window.getActivePage().showView(LaunchesView.ID, null,
                IWorkbenchPage.VIEW_VISIBLE);
        robot.waitUntil("the Launches view filters to the range", () -> launches.trace() == trace
                && launches.rowCount() == expected, Duration.ofSeconds(20));
        window.getActivePage().activate(view);
        robot.spin(200);
        shot("cr-range-published");
    }

    private static String value(Table props, String property) {
        for (var item : props.getItems()) {
            if (item.getText(0).equals(property)) {
                return item.getText(1);
            }
        }
        return null;
    }
}
