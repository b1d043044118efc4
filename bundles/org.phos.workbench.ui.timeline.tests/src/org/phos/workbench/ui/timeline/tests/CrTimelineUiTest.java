package org.phos.workbench.ui.timeline.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbenchWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.internal.ui.timeline.TimeWindow;
import org.phos.workbench.internal.ui.timeline.TimelineLane;
import org.phos.workbench.internal.ui.timeline.TimelineLayout;
import org.phos.workbench.internal.ui.timeline.TimelineNavigator;
import org.phos.workbench.internal.ui.timeline.TraceTimelineView;
import org.phos.workbench.internal.ui.timeline.cr.CrItemDetails;
import org.phos.workbench.internal.ui.timeline.cr.CrTimelineContent;
import org.phos.workbench.internal.ui.timeline.cr.CrTimelineExport;
import org.phos.workbench.internal.ui.timeline.cr.CrTimelineView;
import org.phos.workbench.internal.ui.timeline.cr.TraceTimeMapping;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.tests.UiRobot;
import org.phos.workbench.trace.core.export.JsonReader;

/**
 * The C/R Timeline on a real recorded trace (PyTorch training, 637 launches, observed accesses) with soft
 * copy-on-write checkpoints, driven by real clicks and keys: its stalls equal what {@code simulate} writes into
 * metrics.csv for the same configuration, a click on a copy-on-write names its buffer, bytes and launch, the axis lock
 * moves the Trace Timeline both ways, and the exports hold exactly the window shown.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.phos.workbench.ui.tests.ScreenshotOnFailure.class)
class CrTimelineUiTest {
    static final String SAMPLE = "pytorch-train.phos";
    /** A checkpoint in the middle of training: buffers are still written after it, so copies-on-write happen. */
    static final String SOFT_COW = "soft-cow:at=launch:300";
    static final String STOP_THE_WORLD = "stop-the-world:at=launch:300";

    private final org.phos.workbench.ui.tests.WorkbenchUi ui = org.phos.workbench.ui.tests.WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @Test
    void stallsEqualTheCommandLinesMetrics(@TempDir Path tmp) throws Exception {
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample(SAMPLE));
        ExperimentResult r = CrFixture.experiment(trace, "soft-cow-300", SOFT_COW);
        CrTimelineView view = CrFixture.openTimeline(robot, trace, r);
        CrFixture.cli("simulate", trace.file().toString(), "--policy", SOFT_COW, "--out", tmp.resolve("sim").toString());
        Map<String, String> cli = CrFixture.metrics(tmp.resolve("sim"));

        List<StallInterval> shown = view.pane().content().hostStalls();
        long total = shown.stream().mapToLong(StallInterval::durationNs).sum();
        long longest = shown.stream().mapToLong(StallInterval::durationNs).max().orElse(0);
        assertTrue(shown.size() > 1, "the checkpoint stalls the application (drain and copies-on-write): " + shown);
        assertEquals(Long.parseLong(cli.get("stall_count")), shown.size(), "stall count = metrics.csv stall_count");
        assertEquals(Long.parseLong(cli.get("stall_total_ns")), total, "stall total = metrics.csv stall_total_ns");
        assertEquals(Long.parseLong(cli.get("stall_longest_ns")), longest, "longest = metrics.csv stall_longest_ns");
        assertTrue(view.pane().headText().contains(shown.size() + " stalls"), "the head says so: " + view.pane().headText());
        // and the stalls are drawn on the host lane, over its work
        CrTimelineContent c = view.pane().content();
        int host = c.laneIndex(Lane.HOST);
        assertEquals(0, host, "the host lane comes first");
        assertEquals(shown.size(), c.overlay(host).size(), "every host stall is in the host lane's overlay");
        robot.screenshot(shell, "cr-timeline-whole-run");
    }

    @Test
    void clickingACopyOnWriteShowsItsBufferBytesAndLaunchAndAStallItsCause() throws Exception {
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample(SAMPLE));
        ExperimentResult r = CrFixture.experiment(trace, "soft-cow-300", SOFT_COW);
        CrTimelineView view = CrFixture.openTimeline(robot, trace, r);
        TimelineModel model = r.runs().get(0).timeline();
        List<TimelineInterval> cows = model.intervals(Lane.CR_COW_D2D);
        assertTrue(!cows.isEmpty(), "the run copies buffers on write");
        TimelineInterval cow = cows.get(cows.size() / 2);
        // the launch that forced it: the copy-on-write stall on the same buffer that waited until the copy ended
        StallInterval forced = model.stalls().stream().filter(s -> s.cause() == StallCause.COPY_ON_WRITE
                && s.buffer() == cow.buffer() && s.endNs() == cow.endNs()).findFirst().orElseThrow();
        Trace t = trace.trace();
        int launch = t.launchIndex((int) forced.opIndex());
        assertTrue(launch >= 0, "a launch forced it");

        CrTimelineContent c = view.pane().content();
        int lane = c.laneIndex(Lane.CR_COW_D2D);
        Canvas canvas = canvas("cr-canvas");
        long pad = Math.max(2_000, cow.durationNs() * 2);
        view.timelineCanvas().showWindow(cow.startNs() - pad, cow.endNs() + pad);
        view.timelineCanvas().revealLane(lane);
        robot.spin(100);
        robot.click(canvas, xOf(view, (cow.startNs() + cow.endNs()) / 2), yOf(view, lane));
        String d = view.detailsText();
        assertTrue(d.startsWith("Copy-on-write"), d);
        assertTrue(d.contains("buffer " + cow.buffer()), "names the buffer: " + d);
        assertTrue(d.contains(CrItemDetails.bytes(cow.bytes())), "its bytes " + cow.bytes() + ": " + d);
        assertTrue(d.contains("launch " + launch + " "), "the launch that caused it, " + launch + ": " + d);
        robot.screenshot(shell, "cr-timeline-cow-selected");

        // the longest stall: its cause
        StallInterval stall = c.hostStalls().stream().max(Comparator.comparingLong(StallInterval::durationNs))
                .orElseThrow();
        long spad = Math.max(2_000, stall.durationNs() * 2);
        view.timelineCanvas().showWindow(stall.startNs() - spad, stall.endNs() + spad);
        view.timelineCanvas().revealLane(0);
        robot.spin(100);
        robot.click(canvas, xOf(view, (stall.startNs() + stall.endNs()) / 2), yOf(view, 0));
        d = view.detailsText();
        assertTrue(d.startsWith("Stall"), d);
        assertTrue(d.contains(CrItemDetails.cause(stall.cause())) && d.contains(stall.cause().name()),
                "why it stalled (" + stall.cause() + "): " + d);
        robot.screenshot(shell, "cr-timeline-stall-selected");

        // '.' and ',' walk the stalls in time order, each revealed and described
        List<StallInterval> stalls = c.hostStalls();
        stalls.sort(Comparator.comparingLong(StallInterval::startNs));
        int at = stalls.indexOf(stall);
        robot.type(",");
        if (at > 0) {
            assertEquals(stalls.get(at - 1), c.item(view.timelineCanvas().marks().selectedEvent()),
                    "',': the previous stall");
            assertTrue(view.visibleRange().contains(stalls.get(at - 1).startNs()), "revealed");
            robot.type(".");
        }
        assertEquals(stall, c.item(view.timelineCanvas().marks().selectedEvent()), "back to the longest");
        robot.type(".");
        if (at + 1 < stalls.size()) {
            assertEquals(stalls.get(at + 1), c.item(view.timelineCanvas().marks().selectedEvent()), "'.': the next stall");
            assertTrue(view.detailsText().startsWith("Stall"), view.detailsText());
        }
    }

    @Test
    void axisLockMovesTheTraceTimelineAndBack() throws Exception {
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample(SAMPLE));
        TraceTimelineView traceView = TimelineFixture.open(robot, trace);
        ExperimentResult r = CrFixture.experiment(trace, "soft-cow-300", SOFT_COW);
        CrTimelineView view = CrFixture.openTimeline(robot, trace, r);
        Button lock = robot.findByData(shell, Button.class, TraceTimelineView.ROLE, "cr-lock");
        assertTrue(lock.getToolTipText().contains("offset"), "the tooltip says how time maps: " + lock.getToolTipText());
        robot.click(lock);
        assertTrue(view.isAxisLocked(), "the check box locked the axis");
        TraceTimeMapping map = view.mapping();
        assertNotNull(map);
        assertEquals(trace.trace().hostNs(firstSimulatedEvent(trace)), map.offsetNs(),
                "simulated 0 is the first simulated call's host time");

        Canvas cr = canvas("cr-canvas");
        robot.click(cr, xOf(view, view.visibleRange().fromNs() + view.visibleRange().span() / 2), yOf(view, 0));
        robot.type("ww");
        TimeWindow w = view.visibleRange();
        TimelineNavigator expected = new TimelineNavigator(traceView.timelineCanvas().navigator().bounds().fromNs(),
                traceView.timelineCanvas().navigator().bounds().toNs());
        expected.show(map.toTrace(w.fromNs()), map.toTrace(w.toNs()));
        assertEquals(expected.window(), traceView.visibleRange(), "W on the C/R Timeline zoomed the Trace Timeline");

        Canvas tc = canvas("canvas");
        TimelineLayout tl = traceView.timelineCanvas().layout();
        robot.click(tc, tl.labelWidth() + tl.dataWidth() / 2, TimelineLayout.RULER_HEIGHT + 10);
        robot.type("d");
        TimeWindow tw = traceView.visibleRange();
        TimelineNavigator back = new TimelineNavigator(view.timelineCanvas().navigator().bounds().fromNs(),
                view.timelineCanvas().navigator().bounds().toNs());
        back.show(map.toSimulated(tw.fromNs()), map.toSimulated(tw.toNs()));
        assertEquals(back.window(), view.visibleRange(), "D on the Trace Timeline panned the C/R Timeline");
        assertTrue(view.visibleRange().fromNs() > w.fromNs(), "later than before");
        robot.screenshot(shell, "cr-timeline-axis-locked");

        robot.click(lock);
        TimeWindow before = traceView.visibleRange();
        robot.click(cr, xOf(view, view.visibleRange().fromNs() + view.visibleRange().span() / 2), yOf(view, 0));
        robot.type("s");
        assertEquals(before, traceView.visibleRange(), "unlocked: the Trace Timeline stays");
    }

    /** The first event the simulator replays (its workload's first operation), found from the trace: a device call. */
    private static int firstSimulatedEvent(LoadedTrace trace) {
        return (int) new org.phos.workbench.cr.core.trace.TraceWorkload(trace.trace(), trace.name(),
                new org.phos.workbench.cr.core.trace.WholeAllocationParameterPlaceholder(), null, false).operations()
                .next().index();
    }

    @Test
    void exportsHoldTheWindowShown(@TempDir Path tmp) throws Exception {
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample(SAMPLE));
        ExperimentResult r = CrFixture.experiment(trace, "soft-cow-300", SOFT_COW);
        CrTimelineView view = CrFixture.openTimeline(robot, trace, r);
        TimelineModel model = r.runs().get(0).timeline();
        // the window around the checkpoint: from the first stall to the image's completion
        long from = model.stalls().get(0).startNs();
        long to = model.markers().get(model.markers().size() - 1).timeNs();
        view.timelineCanvas().showWindow(from, to);
        robot.spin(100);
        TimeWindow w = view.visibleRange();
        assertTrue(w.span() < view.timelineCanvas().navigator().bounds().span() / 2, "a zoomed window: " + w);

        // CSV: exactly the model's intervals and stalls that overlap the window
        Path csv = view.export(CrTimelineExport.Format.CSV, tmp.resolve("cr"));
        assertEquals(tmp.resolve("cr.csv"), csv);
        List<String> expected = new ArrayList<>();
        for (Lane lane : model.lanes()) {
            for (TimelineInterval i : model.intervals(lane.id())) {
                if (overlaps(i.startNs(), i.endNs(), w)) {
                    expected.add("interval," + i.lane() + "," + i.startNs() + "," + i.endNs());
                }
            }
        }
        for (StallInterval s : model.stalls()) {
            if (overlaps(s.startNs(), s.endNs(), w)) {
                expected.add("stall," + s.lane() + "," + s.startNs() + "," + s.endNs());
            }
        }
        List<String> rows = Files.readAllLines(csv);
        assertEquals(org.phos.workbench.cr.core.CsvTimelineExporter.HEADER, rows.get(0));
        List<String> got = new ArrayList<>();
        for (String row : rows.subList(1, rows.size())) {
            List<String> f = csvFields(row);
            if (f.get(0).equals("interval") || f.get(0).equals("stall")) {
                got.add(f.get(0) + "," + f.get(1) + "," + f.get(3) + "," + f.get(4));
            } else {
                assertEquals("marker", f.get(0), row);
                long at = Long.parseLong(f.get(3));
                assertTrue(w.contains(at), "a marker inside the window: " + row);
            }
        }
        expected.sort(null);
        got.sort(null);
        assertTrue(expected.size() > 10, "the window holds work: " + expected.size());
        assertEquals(expected, got, "CSV rows = the model's intervals and stalls in the window");

        // Chrome JSON: parses; one complete event per interval and stall in the window
        Path json = view.export(CrTimelineExport.Format.CHROME_JSON, tmp.resolve("cr.json"));
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) JsonReader.parse(Files.readString(json));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> events = (List<Map<String, Object>>) doc.get("traceEvents");
        long complete = 0;
        for (Map<String, Object> e : events) {
            if ("X".equals(e.get("ph"))) {
                complete++;
                double tsNs = ((Number) e.get("ts")).doubleValue() * 1000;
                double endNs = tsNs + ((Number) e.get("dur")).doubleValue() * 1000;
                assertTrue(tsNs < w.toNs() + 1 && endNs >= w.fromNs() - 1, "event in the window: " + e);
            }
        }
        assertEquals(expected.size(), complete, "one Chrome complete event per interval and stall");
        assertTrue(((Map<?, ?>) doc.get("otherData")).containsKey("stall_total_ns"), "the run's metrics ride along");

        // PNG: the canvas as shown, every lane; SVG: well-formed, with the lanes and the window's ruler
        Path png = view.export(CrTimelineExport.Format.PNG, tmp.resolve("cr.png"));
        ImageData img = new ImageLoader().load(png.toString())[0];
        int lanes = view.pane().content().lanes().size();
        assertEquals(view.timelineCanvas().control().getSize().x, img.width, "as wide as shown");
        assertEquals(22 + TimelineLayout.preferredHeight(lanes), img.height, "title and every lane");
        Path svg = view.export(CrTimelineExport.Format.SVG, tmp.resolve("cr.svg"));
        var dom = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
        assertEquals("svg", dom.getDocumentElement().getNodeName());
        String text = dom.getDocumentElement().getTextContent();
        for (TimelineLane l : view.pane().content().lanes()) {
            assertTrue(text.contains(l.label()), "lane " + l.label() + " in the SVG");
        }
        assertTrue(text.contains("window " + org.phos.workbench.internal.ui.timeline.TimeFormat.duration(w.span())),
                "the window's span on its ruler");
        assertTrue(dom.getElementsByTagName("rect").getLength() > lanes, "lanes and slices drawn");
        robot.screenshot(shell, "cr-timeline-exported-window");
    }

    static boolean overlaps(long start, long end, TimeWindow w) {
        return start < w.toNs() && (end > w.fromNs() || (start == end && start >= w.fromNs()));
    }

    /** RFC 4180 fields of one CSV line (quoted fields with doubled quotes). */
    static List<String> csvFields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    f.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    f.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                out.add(f.toString());
                f.setLength(0);
            } else {
                f.append(ch);
            }
        }
        out.add(f.toString());
        return out;
    }

    static int xOf(CrTimelineView view, long t) {
        TimelineLayout l = view.timelineCanvas().layout();
        return l.labelWidth() + (int) Math.round(view.visibleRange().x(t, l.dataWidth()));
    }

    static int yOf(CrTimelineView view, int lane) {
        return view.timelineCanvas().layout().laneTop(lane) + TimelineLayout.LANE_HEIGHT / 2;
    }

    private Canvas canvas(String role) {
        Canvas c = robot.findByData(shell, Canvas.class, TraceTimelineView.ROLE, role);
        // the C/R Timeline shares the space below the editors with the Trace Timeline: two lanes at least
        assertTrue(c.getSize().x > 400 && c.getSize().y > TimelineLayout.preferredHeight(2),
                role + " laid out: " + c.getSize());
        return c;
    }
}
