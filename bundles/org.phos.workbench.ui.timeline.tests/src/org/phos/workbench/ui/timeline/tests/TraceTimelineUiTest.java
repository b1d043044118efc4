package org.phos.workbench.ui.timeline.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.ui.timeline.TimeWindow;
import org.phos.workbench.internal.ui.timeline.TimelineLayout;
import org.phos.workbench.internal.ui.timeline.TraceTimelineView;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.TimeSelection;
import org.phos.workbench.ui.tests.UiRobot;
import org.phos.workbench.ui.timeline.TimelineUi;

/** The Trace Timeline driven by real keys and clicks on a recorded PyTorch trace (637 launches, several streams). */
@org.junit.jupiter.api.extension.ExtendWith(org.phos.workbench.ui.tests.ScreenshotOnFailure.class)
class TraceTimelineUiTest {
    // a new instance per test, made on the UI thread: the window is brought to the front before each test
    private final org.phos.workbench.ui.tests.WorkbenchUi ui = org.phos.workbench.ui.tests.WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @Test
    void perspectiveShowsTheTimelineBelowTheEditorArea() {
        IWorkbenchPage page = window.getActivePage();
        assertNotNull(page.findView(TimelineUi.VIEW_ID), "the Phoenix perspective opens the Trace Timeline");
    }

    @Test
    void keysZoomPanResetAndStepThroughLaunches() throws Exception {
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample("pytorch-train.phos"));
        TraceTimelineView view = TimelineFixture.open(robot, trace);
        Canvas canvas = canvas(view);
        assertTrue(view.timelineCanvas().index().lanes().size() >= 3, "host lane and at least two stream lanes");
        robot.screenshot(shell, "timeline-whole-trace");
        TimeWindow whole = view.visibleRange();

        robot.click(canvas, dataMiddle(view), TimelineLayout.RULER_HEIGHT + 40);
        robot.type("w");
        TimeWindow zoomed = view.visibleRange();
        assertTrue(zoomed.span() < whole.span(), "W zoomed in: " + zoomed + " from " + whole);
        robot.type("ww");
        TimeWindow deeper = view.visibleRange();
        assertTrue(deeper.span() < zoomed.span(), "W again zoomed in further");

        robot.type("a");
        TimeWindow panned = view.visibleRange();
        assertEquals(deeper.span(), panned.span(), "A keeps the span");
        assertTrue(panned.fromNs() < deeper.fromNs(), "A moved the window earlier: " + panned + " from " + deeper);
        robot.type("d");
        assertTrue(view.visibleRange().fromNs() > panned.fromNs(), "D moved it later");
        assertTrue(deeper.fromNs() > whole.fromNs(), "W zoomed around the mouse (middle), not the trace's start");
        robot.type("s");
        assertTrue(view.visibleRange().span() > deeper.span(), "S zoomed out");
        robot.screenshot(shell, "timeline-zoomed");

        robot.doubleClick(canvas, canvas.getSize().x / 2, TimelineLayout.RULER_HEIGHT / 2);
        assertEquals(whole, view.visibleRange(), "double-click on the ruler shows the whole trace");

        robot.type("w");
        robot.type(".");
        int first = view.selectedLaunch();
        assertTrue(first >= 0, "'.' selected a launch");
        robot.type(".");
        assertEquals(first + 1, view.selectedLaunch(), "'.' advanced by one launch");
        assertEquals(first + 1, ((LaunchSelection) published(view)).launch(), "and published it");
        Trace t = trace.trace();
        long start = t.gpuStartNs(t.launchEvent(first + 1)) != 0 ? t.gpuStartNs(t.launchEvent(first + 1))
                : t.hostNs(t.launchEvent(first + 1));
        assertTrue(view.visibleRange().contains(start), "the stepped-to launch is visible");
        robot.type(",");
        assertEquals(first, view.selectedLaunch(), "',' went back by one");
    }

    @Test
    void clickingAKernelSelectsTheLaunchRunningThere() throws Exception {
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample("pytorch-train.phos"));
        TraceTimelineView view = TimelineFixture.open(robot, trace);
        Trace t = trace.trace();
        int longest = -1;
        for (int l = 0; l < t.launchCount(); l++) {
            int e = t.launchEvent(l);
            if (longest < 0 || t.gpuEndNs(e) - t.gpuStartNs(e) > t.gpuEndNs(longest) - t.gpuStartNs(longest)) {
                longest = e;
            }
        }
        Point p = view.pointOf(longest);
        assertNotNull(p, "the longest kernel is visible at whole-trace zoom");
        Canvas canvas = canvas(view);
        robot.click(canvas, p.x, p.y);

        // the launch running at the clicked time on that stream, found from the trace itself
        TimelineLayout layout = view.timelineCanvas().layout();
        long clicked = view.visibleRange().time(p.x - layout.labelWidth(), layout.dataWidth());
        int expected = -1;
        for (int i = 0; i < t.eventCount(); i++) {
            if (t.kind(i) == EventKind.LAUNCH && t.stream(i) == t.stream(longest) && t.gpuStartNs(i) <= clicked
                    && clicked <= t.gpuEndNs(i) && (expected < 0
                            || t.gpuEndNs(i) - t.gpuStartNs(i) < t.gpuEndNs(expected) - t.gpuStartNs(expected))) {
                expected = i;
            }
        }
        assertTrue(expected >= 0, "a kernel runs at the clicked time");
        assertEquals(t.launchIndex(expected), view.selectedLaunch(),
                "click at " + p + " selected the launch at that time; details: " + view.detailsText());
        assertEquals(new LaunchSelection(trace, t.launchIndex(expected)), published(view));
        assertTrue(view.detailsText().contains("grid") && view.detailsText().contains("Launch " + t.launchIndex(expected)),
                "details line names the launch with its grid: " + view.detailsText());
        robot.screenshot(shell, "timeline-kernel-selected");
    }

    @Test
    void launchSelectedElsewhereIsRevealedAndOutlined() throws Exception {
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample("pytorch-train.phos"));
        TraceTimelineView view = TimelineFixture.open(robot, trace);
        Canvas canvas = canvas(view);
        robot.click(canvas, dataMiddle(view), TimelineLayout.RULER_HEIGHT + 40);
        robot.type("wwwwwwwwww");
        Trace t = trace.trace();
        int launch = t.launchCount() - 1;
        assertTrue(view.pointOf(t.launchEvent(launch)) == null, "last launch starts outside the zoomed window");
        // another part (the editor, later) publishes the selection: the view listens through the selection service
        org.eclipse.ui.IWorkbenchPart other = window.getActivePage().findView("org.phos.workbench.ui.tracesView");
        assertNotNull(other);
        view.selectionChanged(other, new org.eclipse.jface.viewers.StructuredSelection(new LaunchSelection(trace, launch)));
        robot.spin(100);
        assertEquals(launch, view.selectedLaunch());
        assertNotNull(view.pointOf(t.launchEvent(launch)), "the launch was revealed");
        robot.screenshot(shell, "timeline-revealed");
    }

    @Test
    void draggingSelectsATimeRange() throws Exception {
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample("pytorch-train.phos"));
        TraceTimelineView view = TimelineFixture.open(robot, trace);
        Canvas canvas = canvas(view);
        TimelineLayout l = view.timelineCanvas().layout();
        int x0 = l.labelWidth() + l.dataWidth() / 4;
        int x1 = l.labelWidth() + l.dataWidth() * 3 / 4;
        TimeWindow w = view.visibleRange();
        robot.drag(canvas, x0, TimelineLayout.RULER_HEIGHT + 40, x1, TimelineLayout.RULER_HEIGHT + 40);
        TimeSelection s = (TimeSelection) published(view);
        assertEquals(trace, s.trace());
        assertEquals(w.time(x0 - l.labelWidth(), l.dataWidth()), s.fromNs(), "range starts where the drag began");
        assertEquals(w.time(x1 - l.labelWidth(), l.dataWidth()), s.toNs(), "and ends where it ended");
        assertEquals(w, view.visibleRange(), "a drag selects, it does not zoom");
        robot.screenshot(shell, "timeline-range-selected");
    }

    /** Canvas column in the middle of the time (data) area, right of the lane labels. */
    private static int dataMiddle(TraceTimelineView view) {
        TimelineLayout l = view.timelineCanvas().layout();
        return l.labelWidth() + l.dataWidth() / 2;
    }

    private static Object published(TraceTimelineView view) {
        return ((IStructuredSelection) view.getSite().getSelectionProvider().getSelection()).getFirstElement();
    }

    private Canvas canvas(TraceTimelineView view) {
        Canvas c = robot.findByData(shell, Canvas.class, TraceTimelineView.ROLE, "canvas");
        assertTrue(c.getSize().x > 400 && c.getSize().y > 100, "canvas laid out: " + c.getSize());
        return c;
    }
}
