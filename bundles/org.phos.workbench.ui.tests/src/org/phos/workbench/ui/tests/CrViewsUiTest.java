package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.handlers.IHandlerService;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.swt.ChartComposite;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.analysis.core.BufferRow;
import org.phos.workbench.analysis.core.cr.EngineAccessSource;
import org.phos.workbench.analysis.core.experiment.ComparisonRow;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.analysis.core.experiment.ViolationRow;
import org.phos.workbench.cr.core.CrPolicies;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.cr.core.trace.LaunchAccessSource;
import org.phos.workbench.cr.core.trace.ObservedLaunchAccesses;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.cr.core.trace.WholeAllocationParameterPlaceholder;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accuracy.CsvExport;
import org.phos.workbench.internal.ui.buffers.BuffersView;
import org.phos.workbench.internal.ui.cr.ComparisonView;
import org.phos.workbench.internal.ui.cr.ConsistencyView;
import org.phos.workbench.internal.ui.cr.CrView;
import org.phos.workbench.internal.ui.cr.DirtyBytesView;
import org.phos.workbench.internal.ui.cr.FileExport;
import org.phos.workbench.internal.ui.cr.MetricsView;
import org.phos.workbench.internal.ui.experiment.ExperimentsView;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.properties.PropertiesView;
import org.phos.workbench.internal.ui.theme.SwitchThemeHandler;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.ExperimentSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * The C/R result views (Comparison, Dirty bytes, Metrics, Consistency) on an experiment run with cr.core on a sample
 * trace, checked against {@code simulate} run in-process on the same configuration: metrics.csv, violations.csv and
 * the numbers of the comparison table; a double click on a violation (real input) lands on its launch in Launches and
 * its buffer in Buffers and Properties; the exports (CSV, PNG, SVG) hold what the views show, the dirty-bytes chart
 * zoomed by a real drag. Screenshots in the light and the dark theme (tagged slow).
 * <p>
 * The configuration: cupy-ops.phos (observed accesses) with four policies at launch 5 and the phos engine's sets,
 * where on-demand restore misses accesses: three ACCESS_BEFORE_RESTORED violations.
 */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class CrViewsUiTest {
    private static final String SAMPLE = "cupy-ops.phos";
    private static final String POLICIES = "soft-cow;soft-recopy;on-demand-restore;stop-the-world";
    private static final String AT = "launch:5";
    private static final String SETS = "engine:phos";
    private static final String MACHINE = "h100";

    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @AfterEach
    void cleanUp() throws Exception {
        CsvExport.chooserForTests = null;
        FileExport.chooserForTests = null;
        IWorkbenchPage page = window.getActivePage();
        if (page.isPageZoomed()) {
            page.toggleZoom(page.getActivePartReference());
        }
        window.getService(IHandlerService.class).executeCommand(SwitchThemeHandler.LIGHT_COMMAND, null);
        page.showView(PropertiesView.ID, null, IWorkbenchPage.VIEW_VISIBLE); // the left stack as the others expect it
        page.closeAllEditors(false);
    }

    private LoadedTrace open(String name) {
        LaunchFiltersUiTest.openThroughTracesView(robot, shell, LaunchFiltersUiTest.samples(), name);
        IWorkbenchPage page = window.getActivePage();
        robot.waitUntil("a trace editor is active", () -> page.getActiveEditor() instanceof TraceEditor e
                && e.file().getFileName().toString().equals(name));
        TraceEditor editor = (TraceEditor) page.getActiveEditor();
        robot.waitUntil("the trace has loaded", () -> editor.loadedTrace() != null, Duration.ofSeconds(30));
        return editor.loadedTrace();
    }

    /**
     * The runs {@code simulate --policy policies --at at --sets sets --machine h100} makes, computed with cr.core
     * directly (one set source: runs named by their spec).
     */
    static ExperimentResult experiment(LoadedTrace loaded, String name, String policies, String at, String sets) {
        Trace trace = loaded.trace();
        ObservedLaunchAccesses observed = new ObservedLaunchAccesses(trace);
        LaunchAccessSource truth = observed.isEmpty() ? null : observed;
        LaunchAccessSource source = switch (sets) {
            case "placeholder" -> new WholeAllocationParameterPlaceholder();
            case "observed" -> observed;
            default -> new EngineAccessSource(trace, EngineRegistry.create(sets.substring("engine:".length()), trace),
                    new org.eclipse.core.runtime.NullProgressMonitor());
        };
        TraceWorkload workload = new TraceWorkload(trace, loaded.name(), source, truth, true);
        MachineModel machine = MachineModel.parse(MACHINE);
        List<CrRun> runs = new ArrayList<>();
        for (String spec : policies.split(";")) {
            String full = spec + (spec.contains(":") ? "," : ":") + "at=" + at;
            TimelineModel model = new TimelineModel(true);
            SimulationMetrics m = Simulator.run(workload, machine, CrPolicies.parse(full), model, true, null);
            runs.add(new CrRun(spec, m, model));
        }
        return new ExperimentResult(name, loaded.file(), new ExperimentConfig(policies, at, MACHINE, sets, 1600),
                runs);
    }

    /** simulate in-process on the same configuration; returns its output folder. */
    static Path simulate(Path file, Path out, String policies, String at, String sets) {
        LaunchFiltersUiTest.cli("simulate", file.toString(), "--policy", policies, "--at", at, "--sets", sets,
                "--machine", MACHINE, "--out", out.toString());
        return out;
    }

    private <V extends CrView> V view(String id, Class<V> type) throws Exception {
        IWorkbenchPage page = window.getActivePage();
        V v = type.cast(page.showView(id, null, IWorkbenchPage.VIEW_VISIBLE));
        return v;
    }

    private ExperimentsView experiments() throws Exception {
        // created, not brought up: it shares a stack with Properties, which the other tests read
        return (ExperimentsView) window.getActivePage().showView(ExperimentsView.ID, null,
                IWorkbenchPage.VIEW_CREATE);
    }

    private static String read(Path p) throws Exception {
        return Files.readString(p);
    }

    /** The CSV's rows as lists of fields (no quoted commas in these files' first columns). */
    private static List<String> firstColumns(String csv, int columns) {
        List<String> out = new ArrayList<>();
        for (String line : csv.lines().toList()) {
            String[] f = line.split(",", -1);
            out.add(String.join(",", Arrays.asList(f).subList(0, Math.min(columns, f.length))));
        }
        return out;
    }

    /** metrics.csv's values by run and metric. */
    private static Map<String, String> values(String metricsCsv) {
        Map<String, String> v = new LinkedHashMap<>();
        for (String line : metricsCsv.lines().skip(1).toList()) {
            int a = line.indexOf(',');
            int b = line.indexOf(',', a + 1);
            v.put(line.substring(0, b), line.substring(b + 1));
        }
        return v;
    }

    private Path exportWith(FileExport export, Path target) {
        FileExport.chooserForTests = suggested -> target.toString();
        export.action().run();
        robot.waitUntil("the export of " + target + " is done", () -> !export.outcome().isEmpty());
        assertTrue(export.outcome().startsWith("Exported"), export.outcome());
        return target;
    }

    private Path exportWith(CsvExport export, Path target) {
        CsvExport.chooserForTests = suggested -> target.toString();
        export.action().run();
        robot.waitUntil("the export of " + target + " is done", () -> !export.outcome().isEmpty());
        assertTrue(export.outcome().startsWith("Exported"), export.outcome());
        return target;
    }

    /** Width and height of a PNG from its IHDR chunk. */
    private static int[] pngSize(byte[] png) {
        assertEquals((byte) 0x89, png[0]);
        assertEquals('P', png[1]);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(png);
        return new int[] { b.getInt(16), b.getInt(20) };
    }

    @Test
    void viewsShowTheRunsWithSimulatesNumbersAndExportWhatTheyShow(@TempDir Path dir) throws Exception {
        LoadedTrace loaded = open(SAMPLE);
        Path cli = simulate(loaded.file(), dir.resolve("cli"), POLICIES, AT, SETS);
        String metricsCsv = read(cli.resolve("metrics.csv"));
        String violationsCsv = read(cli.resolve("violations.csv"));
        ExperimentResult result = experiment(loaded, "phos-sets", POLICIES, AT, SETS);

        MetricsView metrics = view(MetricsView.ID, MetricsView.class);
        ComparisonView comparison = view(ComparisonView.ID, ComparisonView.class);
        DirtyBytesView dirty = view(DirtyBytesView.ID, DirtyBytesView.class);
        ConsistencyView consistency = view(ConsistencyView.ID, ConsistencyView.class);
        experiments().show(loaded, result);
        for (CrView v : List.of(metrics, comparison, dirty, consistency)) {
            robot.waitUntil(v.getTitle() + " shows the experiment", () -> v.shown() != null
                    && v.shown().source() instanceof ExperimentSelection s && s.result() == result);
            assertTrue(v.headerText().startsWith("phos-sets on " + SAMPLE + ": 4 runs"), v.headerText());
        }

        // Metrics: simulate's metrics.csv, on screen and exported
        assertEquals(metricsCsv, metrics.table().csv());
        Table metricsTable = metrics.table().control();
        assertEquals(metricsCsv.lines().count() - 1, metricsTable.getItemCount());
        assertEquals(metricsCsv, read(exportWith(metrics.csvExport(), dir.resolve("metrics.csv"))));

        // Consistency: the verdicts, and violations.csv's columns exactly
        assertEquals(violationsCsv.lines().toList(), firstColumns(consistency.violations().csv(),
                ViolationRow.CSV_COLUMNS));
        assertEquals(3, violationsCsv.lines().count() - 1, "this configuration has three violations:\n" + violationsCsv);
        Path exportedViolations = exportWith(consistency.csvExport(), dir.resolve("violations.csv"));
        assertEquals(consistency.violations().csv(), read(exportedViolations));
        Table verdicts = consistency.verdicts().control();
        assertEquals(4, verdicts.getItemCount());
        Map<String, String> v = values(metricsCsv);
        for (TableItem item : verdicts.getItems()) {
            String run = item.getText(0);
            String expected = v.get(run + ",consistency_violations").equals("0") ? "consistent" : "INCONSISTENT";
            assertEquals(expected, item.getText(1), run);
            assertEquals(v.get(run + ",consistency_violations"), item.getText(2), run);
        }

        // Comparison: the table's numbers are metrics.csv's; the chart's bars the same figures
        var table = comparison.table().shown();
        List<String> headers = table.def().headers();
        for (ComparisonRow row : table.rows()) {
            String run = row.run();
            for (String[] pair : new String[][] { { "stall_total_ns", "stall_total_ns" },
                    { "stall_longest_ns", "stall_longest_ns" }, { "stall_count", "stall_count" },
                    { "cow_count", "cow_count" }, { "cow_bytes", "cow_bytes" } }) {
                assertEquals(v.get(run + "," + pair[1]), table.def().column(pair[0]).format(row), run + " " + pair[0]);
            }
            for (String h : headers) {
                if (h.startsWith(ComparisonRow.LANE_PREFIX)) {
                    String lane = v.keySet().stream().filter(k -> k.startsWith(run + ",bytes.")
                            && ComparisonRow.laneHeader(k.substring(run.length() + 7)).equals(h)).findFirst()
                            .orElse(null);
                    assertEquals(lane == null ? "0" : v.get(lane), table.def().column(h).format(row), run + " " + h);
                }
            }
            String slowdown = v.get(run + ",slowdown");
            assertEquals(Double.parseDouble(slowdown) * 100,
                    Double.parseDouble(table.def().column("slowdown_pct").format(row)), 1e-3, run);
        }
        assertTrue(headers.contains("bytes_c_r_cow_d2d") && headers.contains("bytes_c_r_restore_h2d"), headers.toString());
        Table comparisonTable = comparison.table().control();
        assertEquals(4, comparisonTable.getItemCount());
        assertEquals(v.get("soft-cow,stall_total_ns"),
                comparisonTable.getItem(0).getText(headers.indexOf("stall_total_ns")));
        JFreeChart chart = comparison.chart().chart();
        CombinedDomainCategoryPlot plot = (CombinedDomainCategoryPlot) chart.getPlot();
        assertEquals(7, plot.getSubplots().size(), "five panels as simulate's chart, then lanes and CoW count");
        CategoryPlot stall = (CategoryPlot) plot.getSubplots().get(0);
        assertEquals(List.of(POLICIES.split(";")), stall.getDataset().getColumnKeys());
        CategoryPlot cows = (CategoryPlot) plot.getSubplots().get(6);
        for (int c = 0; c < 4; c++) {
            String run = (String) cows.getDataset().getColumnKey(c);
            assertEquals(Long.parseLong(v.get(run + ",cow_count")), cows.getDataset().getValue(0, c).longValue(), run);
        }
        assertEquals(comparison.table().csv(), read(exportWith(comparison.csvExport(), dir.resolve("comparison.csv"))));
        comparison.setFocus();
        window.getActivePage().activate(comparison);
        robot.spin(300);
        byte[] png = Files.readAllBytes(exportWith(comparison.pngExport(), dir.resolve("comparison.png")));
        ChartComposite chartControl = comparison.chart().control();
        assertEquals(List.of(chartControl.getSize().x, chartControl.getSize().y),
                Arrays.stream(pngSize(png)).boxed().toList(), "the PNG has the chart's size on screen");
        String svg = read(exportWith(comparison.svgExport(), dir.resolve("comparison.svg")));
        assertTrue(svg.startsWith("<?xml") && svg.contains("<svg"), svg.substring(0, 100));
        for (String text : List.of("stall total", "bytes by lane", "copy-on-writes", "restore", "C/R CoW D2D")) {
            assertTrue(svg.contains(text), "the SVG shows " + text);
        }

        // Dirty bytes: a drag over the chart zooms its time axis; the export draws it zoomed, Reset zoom all of it
        IWorkbenchPage page = window.getActivePage();
        page.activate(dirty);
        robot.spin(300);
        ChartComposite dirtyControl = dirty.chart().control();
        XYPlot xy = (XYPlot) dirty.chart().chart().getPlot();
        assertEquals(4, xy.getDataset().getSeriesCount(), "one series per run");
        ValueAxis time = xy.getDomainAxis();
        double fullLo = time.getLowerBound();
        double fullHi = time.getUpperBound();
        String fullSvg = read(exportWith(dirty.svgExport(), dir.resolve("dirty-full.svg")));
        Rectangle area = dirtyControl.getScreenDataArea();
        assertTrue(area.width > 100 && area.height > 50, "data area " + area);
        robot.drag(dirtyControl, area.x + area.width * 3 / 10, area.y + area.height / 2, area.x + area.width * 6 / 10,
                area.y + area.height / 2 + 5);
        robot.waitUntil("the drag zoomed the time axis", () -> time.getUpperBound() - time.getLowerBound()
                < (fullHi - fullLo) * 0.6);
        assertTrue(time.getLowerBound() >= fullLo && time.getUpperBound() < fullHi,
                time.getRange() + " inside " + fullLo + ".." + fullHi);
        String zoomedSvg = read(exportWith(dirty.svgExport(), dir.resolve("dirty-zoomed.svg")));
        assertNotEquals(fullSvg, zoomedSvg, "the zoom is in the file");
        byte[] zoomedPng = Files.readAllBytes(exportWith(dirty.pngExport(), dir.resolve("dirty-zoomed.png")));
        assertEquals(List.of(dirtyControl.getSize().x, dirtyControl.getSize().y),
                Arrays.stream(pngSize(zoomedPng)).boxed().toList());
        robot.screenshot(shell, "cr-dirty-zoomed");
        dirty.chart().resetZoom();
        robot.spin(200);
        assertEquals(fullLo, time.getLowerBound(), 1e-9);
        assertEquals(fullHi, time.getUpperBound(), 1e-9);
        assertEquals(fullSvg.replaceAll("_\\d+clip-", "clip-"),
                read(exportWith(dirty.svgExport(), dir.resolve("dirty-again.svg")))
                        .replaceAll("_\\d+clip-", "clip-"),
                "back to the whole axis, the file is the first one again (but for JFreeSVG's clip-path id prefix)");
    }

    @Test
    void doubleClickOnAViolationSelectsItsLaunchAndBuffer(@TempDir Path dir) throws Exception {
        LoadedTrace loaded = open(SAMPLE);
        Path cli = simulate(loaded.file(), dir.resolve("cli"), POLICIES, AT, SETS);
        List<String> violations = read(cli.resolve("violations.csv")).lines().skip(1).toList();
        ExperimentResult result = experiment(loaded, "phos-sets", POLICIES, AT, SETS);
        IWorkbenchPage page = window.getActivePage();
        ConsistencyView consistency = view(ConsistencyView.ID, ConsistencyView.class);
        experiments().show(loaded, result);
        robot.waitUntil("Consistency shows the experiment", () -> consistency.shown() != null
                && consistency.shown().source() instanceof ExperimentSelection s && s.result() == result);
        page.activate(consistency);
        robot.spin(300);

        // the second violation, as violations.csv has it: op (the trace event) and buffer (the workload's id)
        String[] csv = violations.get(1).split(",");
        int op = Integer.parseInt(csv[4]);
        int bufferId = Integer.parseInt(csv[3]);
        int launch = loaded.trace().launchIndex(op);
        assertTrue(launch >= 0, "operation " + op + " is a launch");
        // the buffer's Alloc event as the workload's own pass numbers buffers (independent of the view's mapping)
        int allocEvent = -1;
        Iterator<Operation> ops = new TraceWorkload(loaded.trace(), "t", new WholeAllocationParameterPlaceholder(),
                null, false).operations();
        while (ops.hasNext()) {
            Operation o = ops.next();
            if (o.kind() == OperationKind.ALLOC && o.buffer() == bufferId) {
                allocEvent = (int) o.index();
            }
        }
        assertTrue(allocEvent >= 0);

        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "cr-violations");
        assertEquals(violations.size(), table.getItemCount());
        Rectangle row = table.getItem(1).getBounds(0);
        robot.click(table, row.x + 10, row.y + row.height / 2); // select it first, then a double click on it
        robot.spin(700);
        robot.doubleClick(table, row.x + 10, row.y + row.height / 2);
        try {
            robot.waitUntil("the double click opened the violation", () -> !consistency.opened().isEmpty(),
                    Duration.ofMillis(1500));
            System.out.println("CrViewsUiTest: the double click opened the violation");
        } catch (AssertionError notSeen) {
            // GTK under Xvfb does not always make a double click of two XTest clicks: Enter on the selected row is
            // the same gesture for the table (DefaultSelection)
            System.out.println("CrViewsUiTest: no double click seen by GTK; Enter on the selected row");
            assertEquals(1, table.getSelectionIndex());
            robot.key(org.eclipse.swt.SWT.CR);
        }

        LaunchesView launches = (LaunchesView) page.findView(LaunchesView.ID);
        robot.waitUntil("Launches selects launch " + launch, () -> launches != null && launches.trace() == loaded
                && launches.selectedLaunch() == launch, Duration.ofSeconds(15));
        BuffersView buffers = (BuffersView) page.findView(BuffersView.ID);
        int expectedAlloc = allocEvent;
        robot.waitUntil("Buffers selects the allocation of event " + allocEvent, () -> buffers != null
                && buffers.selectedBuffer() != null && buffers.selectedBuffer().allocatedAt() == expectedAlloc,
                Duration.ofSeconds(15));
        BufferRow selected = buffers.selectedBuffer();
        // Launches and Properties come on screen; Buffers (in the stack of Consistency, which stays on top so the
        // next violation is a double click away) has selected the allocation for when its tab is picked
        assertTrue(page.isPartVisible(launches) && page.isPartVisible(page.findView(PropertiesView.ID)),
                "Launches and Properties on screen");
        assertTrue(page.isPartVisible(consistency), "Consistency stays on screen");
        Table properties = robot.findByData(shell, Table.class, TracesView.ROLE, "properties");
        robot.waitUntil("Properties shows the allocation", () -> Arrays.stream(properties.getItems()).anyMatch(
                i -> i.getText(0).equals("allocated_at") && i.getText(1).equals(Integer.toString(expectedAlloc))));
        assertTrue(Arrays.stream(properties.getItems()).anyMatch(i -> i.getText(0).equals("allocation")
                && i.getText(1).equals("0x" + Long.toHexString(selected.base()))));
        assertTrue(consistency.opened().contains("launch " + launch + " (event " + op + ")"), consistency.opened());
        robot.screenshot(shell, "cr-consistency-double-click");
        page.bringToTop(buffers);
        robot.spin(300);
        assertEquals(expectedAlloc, buffers.selectedBuffer().allocatedAt(), "Buffers on top shows the allocation");
        robot.screenshot(shell, "cr-consistency-double-click-buffers");
    }

    @Test
    @Tag("slow") // about 20 s: eight zoomed screenshots and two exports in two themes
    void comparisonOfTwoExperimentsLabelsRunsAndScreenshotsInBothThemes(@TempDir Path dir) throws Exception {
        LoadedTrace loaded = open(SAMPLE);
        String policies = "soft-cow;on-demand-restore";
        String left = read(simulate(loaded.file(), dir.resolve("left"), policies, AT, "placeholder")
                .resolve("metrics.csv"));
        String right = read(simulate(loaded.file(), dir.resolve("right"), policies, AT, SETS).resolve("metrics.csv"));
        ExperimentsView experiments = experiments();
        experiments.show(loaded, experiment(loaded, "placeholder-sets", policies, AT, "placeholder"));
        experiments.show(loaded, experiment(loaded, "phos-sets", policies, AT, SETS));
        List<ExperimentSelection> shown = experiments.experiments();
        MetricsView metrics = view(MetricsView.ID, MetricsView.class);
        ComparisonView comparison = view(ComparisonView.ID, ComparisonView.class);
        DirtyBytesView dirty = view(DirtyBytesView.ID, DirtyBytesView.class);
        ConsistencyView consistency = view(ConsistencyView.ID, ConsistencyView.class);
        experiments.compare(shown.get(shown.size() - 2), shown.get(shown.size() - 1));
        robot.waitUntil("Metrics shows the comparison", () -> metrics.shown() != null
                && metrics.shown().runs().size() == 4);
        // each experiment's rows are simulate's for its configuration, runs labelled experiment/trace: run
        StringBuilder expected = new StringBuilder("run,metric,value\n");
        for (String[] side : new String[][] { { "placeholder-sets", left }, { "phos-sets", right } }) {
            for (String line : side[1].lines().skip(1).toList()) {
                expected.append(side[0]).append('/').append(SAMPLE).append(": ").append(line).append('\n');
            }
        }
        assertEquals(expected.toString(), metrics.table().csv());
        assertTrue(comparison.headerText().contains("placeholder-sets on " + SAMPLE + " (2) compared with phos-sets"),
                comparison.headerText());
        assertEquals(4, consistency.verdicts().control().getItemCount());

        IWorkbenchPage page = window.getActivePage();
        for (String theme : List.of(SwitchThemeHandler.LIGHT_COMMAND, SwitchThemeHandler.DARK_COMMAND)) {
            window.getService(IHandlerService.class).executeCommand(theme, null);
            robot.spin(800);
            String name = theme.equals(SwitchThemeHandler.DARK_COMMAND) ? "dark" : "light";
            for (CrView v : List.of(comparison, dirty, metrics, consistency)) {
                page.activate(v);
                page.toggleZoom(page.getReference(v));
                robot.spin(600);
                shell.getDisplay().setCursorLocation(shell.toDisplay(shell.getSize().x / 2, 5)); // no tooltip
                robot.spin(200);
                robot.screenshot(shell, "cr-" + v.getViewSite().getId().replaceAll(".*\\.cr", "").replace("View", "")
                        .toLowerCase(java.util.Locale.ROOT) + "-" + name);
                if (v == comparison) { // the whole chart as the view draws it, for a look at the panels under the fold
                    Path shots = Path.of(System.getProperty("phos.screenshots", System.getProperty("java.io.tmpdir")));
                    exportWith(comparison.pngExport(), shots.resolve("cr-comparison-export-" + name + ".png"));
                }
                page.toggleZoom(page.getReference(v));
                robot.spin(200);
            }
            page.activate(comparison);
            robot.spin(300);
            robot.screenshot(shell, "cr-window-" + name);
        }
        assertFalse(comparison.chart().chart() == null);
    }
}
