package org.phos.workbench.ui.timeline.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbenchPage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.internal.ui.experiment.ExperimentsView;
import org.phos.workbench.internal.ui.timeline.TimeWindow;
import org.phos.workbench.internal.ui.timeline.TimelineLayout;
import org.phos.workbench.internal.ui.timeline.TraceTimelineView;
import org.phos.workbench.internal.ui.timeline.cr.CrCompareView;
import org.phos.workbench.internal.ui.timeline.cr.CrTimelineExport;
import org.phos.workbench.internal.ui.timeline.cr.MetricDifference;
import org.phos.workbench.ui.PhoenixUi;
import org.phos.workbench.ui.model.ExperimentSelection;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.tests.UiRobot;
import org.phos.workbench.trace.core.export.JsonReader;

/**
 * C/R Compare on real traces: two runs of one experiment (stop-the-world against soft copy-on-write), picked in its
 * combos by real input, on one time axis that W moves in both, with the metrics' differences right minus left; and two
 * experiments of two different traces compared from the Experiments view.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.phos.workbench.ui.tests.ScreenshotOnFailure.class)
class CrCompareUiTest {
    private final org.phos.workbench.ui.tests.WorkbenchUi ui = org.phos.workbench.ui.tests.WorkbenchUi.inFront();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @Test
    void twoRunsOfOneExperimentSideBySideWithTheirDifferences(@TempDir Path tmp) throws Exception {
        LoadedTrace trace = TimelineFixture.load(TimelineFixture.sample(CrTimelineUiTest.SAMPLE));
        ExperimentResult r = CrFixture.experiment(trace, "stw-vs-cow", CrTimelineUiTest.STOP_THE_WORLD,
                CrTimelineUiTest.SOFT_COW);
        CrCompareView view = CrFixture.openCompare();
        IWorkbenchPage page = view.getSite().getPage();
        page.setPartState(page.getReference(view), IWorkbenchPage.STATE_MAXIMIZED);
        try {
            CrFixture.publish(trace, r);
            robot.waitUntil("both runs drawn", view::isReady, Duration.ofSeconds(60));
            assertEquals(CrTimelineUiTest.STOP_THE_WORLD, view.left().content().run().name(), "left: the first run");
            assertEquals(CrTimelineUiTest.SOFT_COW, view.right().content().run().name(), "right: the second");
            checkDifferences(view, r.runs().get(0).metrics(), r.runs().get(1).metrics());
            page.activate(view);
            robot.screenshot(shell, "cr-compare-two-runs");

            // one time axis: W on the upper timeline zooms the lower one to the same window
            Canvas upper = robot.findByData(shell, Canvas.class, TraceTimelineView.ROLE, "left-canvas");
            TimelineLayout l = view.left().canvas().layout();
            assertEquals(view.left().canvas().navigator().bounds(), view.right().canvas().navigator().bounds(),
                    "both span the longer run");
            robot.click(upper, l.labelWidth() + l.dataWidth() / 2, TimelineLayout.RULER_HEIGHT + 10);
            robot.type("www");
            TimeWindow w = view.left().canvas().navigator().window();
            assertTrue(w.span() < view.left().canvas().navigator().bounds().span() / 2, "zoomed: " + w);
            assertEquals(w, view.right().canvas().navigator().window(), "the lower timeline moved with it");
            robot.type("d");
            assertEquals(view.left().canvas().navigator().window(), view.right().canvas().navigator().window(),
                    "and pans with it");

            // the right combo picks the left's run: every difference is 0
            Combo rightRuns = robot.findByData(shell, Combo.class, TraceTimelineView.ROLE, "right-runs");
            robot.choose(rightRuns, CrTimelineUiTest.STOP_THE_WORLD);
            robot.waitUntil("the right shows " + CrTimelineUiTest.STOP_THE_WORLD, () -> view.isReady()
                    && view.right().content().run().name().equals(CrTimelineUiTest.STOP_THE_WORLD));
            for (MetricDifference d : view.rows()) {
                assertTrue(Double.isNaN(d.left()) || d.difference() == 0, "same run, no difference: " + d);
            }

            // export of both as shown: one PNG of both; CSV per side and the table
            List<Path> png = view.export(CrTimelineExport.Format.PNG, tmp.resolve("cmp"));
            assertEquals(List.of(tmp.resolve("cmp.png")), png);
            List<Path> csv = view.export(CrTimelineExport.Format.CSV, tmp.resolve("cmp.csv"));
            assertEquals(3, csv.size(), "left, right, metrics: " + csv);
            List<Path> svg = view.export(CrTimelineExport.Format.SVG, tmp.resolve("cmp.svg"));
            var dom = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.get(0).toFile());
            String text = dom.getDocumentElement().getTextContent();
            assertTrue(text.contains("Left: ") && text.contains("Right: "), "both timelines in one SVG");
            List<Path> json = view.export(CrTimelineExport.Format.CHROME_JSON, tmp.resolve("cmp.json"));
            assertEquals(List.of(tmp.resolve("cmp-left.json"), tmp.resolve("cmp-right.json")), json);
            for (Path p : json) {
                Object doc = JsonReader.parse(Files.readString(p));
                assertTrue(((Map<?, ?>) doc).get("traceEvents") instanceof List<?> events && !events.isEmpty(),
                        p + " has events");
            }
            List<String> table = Files.readAllLines(tmp.resolve("cmp-metrics.csv"));
            assertEquals("metric,unit,left,right,difference,percent", table.get(0));
            assertEquals(view.rows().size() + 1, table.size(), "one line per row of the table");
        } finally {
            page.setPartState(page.getReference(view), IWorkbenchPage.STATE_RESTORED);
        }
    }

    @Test
    void twoExperimentsOfTwoTracesFromTheExperimentsView() throws Exception {
        LoadedTrace a = TimelineFixture.load(TimelineFixture.sample(CrTimelineUiTest.SAMPLE));
        LoadedTrace b = TimelineFixture.load(TimelineFixture.sample("triton-ops.phos"));
        ExperimentResult ra = CrFixture.experiment(a, "pytorch-cow", "soft-cow:at=launch:300");
        ExperimentResult rb = CrFixture.experiment(b, "triton-cow", "soft-cow:at=launch:20");
        CrCompareView view = CrFixture.openCompare();
        IWorkbenchPage page = view.getSite().getPage();
        page.setPartState(page.getReference(view), IWorkbenchPage.STATE_MAXIMIZED);
        try {
            ExperimentSelection sa = CrFixture.publish(a, ra);
            ExperimentSelection sb = CrFixture.publish(b, rb);
            ExperimentsView experiments = (ExperimentsView) page.findView(PhoenixUi.EXPERIMENTS_VIEW_ID);
            experiments.compare(sa, sb);
            robot.waitUntil("both experiments drawn", () -> view.isReady()
                    && view.left().experiment() == sa && view.right().experiment() == sb, Duration.ofSeconds(60));
            assertTrue(view.left().headText().contains(a.name()) && view.right().headText().contains(b.name()),
                    "each names its trace: " + view.left().headText() + " / " + view.right().headText());
            checkDifferences(view, ra.runs().get(0).metrics(), rb.runs().get(0).metrics());
            page.activate(view);
            robot.screenshot(shell, "cr-compare-two-traces");
        } finally {
            page.setPartState(page.getReference(view), IWorkbenchPage.STATE_RESTORED);
        }
    }

    /** The table: right minus left, absolute and in percent of the left, for the metrics the issue names. */
    private static void checkDifferences(CrCompareView view, SimulationMetrics l, SimulationMetrics r) {
        Map<String, MetricDifference> rows = new java.util.HashMap<>();
        view.rows().forEach(d -> rows.put(d.metric(), d));
        assertEquals(r.stallTotalNs() - l.stallTotalNs(), (long) rows.get("stall total").difference(), "stall");
        assertEquals(r.stallLongestNs() - l.stallLongestNs(), (long) rows.get("longest stall").difference());
        assertEquals(r.cowCount() - l.cowCount(), (long) rows.get("CoW count").difference(), "CoW count");
        assertEquals(r.appEndNs() - l.appEndNs(), (long) rows.get("application end").difference());
        assertEquals(r.slowdown() - l.slowdown(), rows.get("slowdown").difference(), 1e-12, "slowdown");
        if (l.checkpointCompletionNs() >= 0 && r.checkpointCompletionNs() >= 0) {
            assertEquals(r.checkpointCompletionNs() - l.checkpointCompletionNs(),
                    (long) rows.get("checkpoint completion").difference(), "completion");
        }
        if (l.stallTotalNs() > 0) {
            assertEquals(100.0 * (r.stallTotalNs() - l.stallTotalNs()) / l.stallTotalNs(),
                    rows.get("stall total").percent(), 1e-9, "stall in percent of the left");
        }
        TreeSet<String> lanes = new TreeSet<>(l.bytesPerLane().keySet());
        lanes.addAll(r.bytesPerLane().keySet());
        for (String lane : lanes) {
            MetricDifference d = rows.get("bytes " + lane);
            assertEquals(r.bytesPerLane().getOrDefault(lane, 0L) - l.bytesPerLane().getOrDefault(lane, 0L),
                    (long) d.difference(), "bytes on " + lane);
        }
        // and the table shows them: one line each, the difference column signed
        List<String[]> shown = view.shownRows();
        assertEquals(view.rows().size(), shown.size());
        for (String[] row : shown) {
            MetricDifference d = rows.get(row[0]);
            assertEquals(d.format(d.left()), row[1], row[0]);
            assertEquals(d.format(d.right()), row[2], row[0]);
            assertEquals((d.difference() > 0 ? "+" : "") + d.format(d.difference()), row[3], row[0]);
        }
    }
}
