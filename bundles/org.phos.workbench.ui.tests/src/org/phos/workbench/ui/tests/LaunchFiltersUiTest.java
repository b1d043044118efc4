package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.analysis.core.LaunchVerdict;
import org.phos.workbench.cli.BuiltinCommands;
import org.phos.workbench.cli.Main;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accuracy.SpeculationTheme;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.trace.TraceEditor;

/**
 * The Launches view's filters (stream, verdict under an engine, host-time range, the range dragged on the Trace
 * Timeline) and "go to launch N", driven by real input and compared with the command line's
 * {@code launches --format csv} run in-process with the same options.
 */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class LaunchFiltersUiTest {
    // a new instance per test, made on the UI thread: the window is brought to the front before each test
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @AfterEach
    void closeEditors() {
        window.getActivePage().closeAllEditors(false);
    }

    static Path samples() {
        return Path.of(System.getProperty("phos.samples")).toAbsolutePath().normalize();
    }

    /** Opens {@code folder/name} the way a person does: folder field, Enter, select the row, Enter. */
    static void openThroughTracesView(UiRobot robot, Shell shell, Path folder, String name) {
        Text folderText = robot.findByData(shell, Text.class, TracesView.ROLE, "folder");
        Table traces = robot.findByData(shell, Table.class, TracesView.ROLE, "traces");
        robot.click(folderText);
        robot.keyWith(SWT.CTRL, 'a', 'a');
        robot.type(folder.toString());
        robot.key(SWT.CR);
        robot.waitUntil("the Traces view lists " + name, () -> Arrays.stream(traces.getItems())
                .anyMatch(i -> i.getText(0).equals(name)));
        int row = Arrays.asList(traces.getItems()).indexOf(Arrays.stream(traces.getItems())
                .filter(i -> i.getText(0).equals(name)).findFirst().orElseThrow());
        traces.setSelection(row);
        traces.showSelection();
        Rectangle r = traces.getItem(row).getBounds(0);
        robot.click(traces, r.x + 10, r.y + r.height / 2);
        robot.key(SWT.CR);
    }

    /** Opens a trace and waits until the Launches view lists all its launches. */
    private LaunchesView open(Path folder, String name) {
        openThroughTracesView(robot, shell, folder, name);
        IWorkbenchPage page = window.getActivePage();
        robot.waitUntil("a trace editor for " + name + " is active", () -> page.getActiveEditor() instanceof TraceEditor e
                && e.file().getFileName().toString().equals(name));
        TraceEditor editor = (TraceEditor) page.getActiveEditor();
        robot.waitUntil("the trace has loaded", () -> editor.loadedTrace() != null, Duration.ofSeconds(60));
        LaunchesView launches = (LaunchesView) page.findView(LaunchesView.ID);
        int all = editor.loadedTrace().trace().launchCount();
        // the kernel regex and the engine stay when another trace is opened (a tests before may have set them)
        Text kernel = role(Text.class, "kernelFilter");
        if (!kernel.getText().isEmpty()) {
            typeInto(kernel, "");
        }
        Combo engine = role(Combo.class, "engineFilter");
        if (engine.getSelectionIndex() != 0) {
            choose(engine, "none");
        }
        try {
            robot.waitUntil("the Launches view lists the " + all + " launches of " + name,
                    () -> launches.trace() == editor.loadedTrace() && launches.rowCount() == all, Duration.ofSeconds(30));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the view shows " + (launches.trace() == null ? "no trace"
                    : launches.trace().name() + (launches.trace() == editor.loadedTrace() ? " (this one)" : " (another)"))
                    + ", " + launches.rowCount() + " rows, status '" + launches.statusText() + "'", e);
        }
        page.activate(launches);
        // the view keeps its sort from one trace to the next: back to launch order (a click on the launch header)
        Table table = role(Table.class, "launches");
        for (int i = 0; i < 2 && !launches.query().sort().equals(org.phos.workbench.analysis.core.LaunchQuery.Sort.LAUNCH_ORDER); i++) {
            var before = launches.query().sort();
            robot.click(table, 30, table.getItem(0).getBounds(0).y - table.getHeaderHeight() / 2);
            robot.waitUntil("a click on the launch header changes the order from " + before,
                    () -> !launches.query().sort().equals(before) && launches.rowCount() == all);
            robot.spin(600);
        }
        assertEquals(org.phos.workbench.analysis.core.LaunchQuery.Sort.LAUNCH_ORDER, launches.query().sort());
        return launches;
    }

    /** Runs the command line in-process; returns its standard output (exit code must be 0). */
    static String cli(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(BuiltinCommands.all()).run(argv, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertEquals(0, code, String.join(" ", argv) + ": " + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    /** {@code launches FILE OPTIONS --format csv}, every row. */
    static String launchesCsv(Path file, String... options) {
        List<String> argv = new ArrayList<>(List.of("launches", file.toString()));
        argv.addAll(List.of(options));
        argv.addAll(List.of("--format", "csv", "--limit", Integer.toString(Integer.MAX_VALUE)));
        return cli(argv.toArray(String[]::new));
    }

    static long rows(String csv) {
        return csv.lines().count() - 1;
    }

    /** Chooses {@code label} in a read-only combo by real input (the robot's). */
    private void choose(Combo combo, String label) {
        robot.choose(combo, label);
    }

    /** Types {@code text} into {@code field} (replacing what it holds) and presses Enter. */
    private void typeInto(Text field, String text) {
        robot.click(field);
        robot.waitUntil("the field has the focus", field::isFocusControl);
        robot.keyWith(SWT.CTRL, 'a', 'a');
        if (text.isEmpty()) {
            robot.key(SWT.BS);
        } else {
            robot.type(text);
        }
        robot.key(SWT.CR);
    }

    /** Whether the table's rows reach its bottom edge (the windowed table holds a screenful, not fewer). */
    private static boolean fillsTable(Table table) {
        return (table.getItemCount() + 2) * table.getItemHeight() + table.getHeaderHeight() >= table.getSize().y;
    }

    private <T extends Control> T role(Class<T> type, String role) {
        return robot.findByData(shell, type, TracesView.ROLE, role);
    }

    @Test
    void streamAndVerdictFiltersKeepTheCommandLinesRows(@TempDir Path dir) throws Exception {
        Path file = samples().resolve("cuda-suite.phos");
        LaunchesView launches = open(samples(), "cuda-suite.phos");
        Table table = role(Table.class, "launches");

        // stream: the combo offers the trace's streams; each keeps the rows `launches --stream S` keeps
        Combo stream = role(Combo.class, "streamFilter");
        robot.waitUntil("the stream filter offers the trace's streams", () -> stream.getItemCount() > 2);
        String choice = stream.getItem(2);
        String handle = choice.substring(0, choice.indexOf(' '));
        String cliStream = launchesCsv(file, "--stream", handle);
        long want = rows(cliStream);
        assertTrue(want > 0 && want < launches.trace().trace().launchCount(), handle + " keeps " + want);
        choose(stream, choice);
        robot.waitUntil("the stream filter keeps the " + want + " launches of " + handle,
                () -> launches.rowCount() == want && launches.statusText().startsWith(want + " of "));
        assertTrue(choice.endsWith("(" + want + ")"), "the combo names the stream's launch count: " + choice);
        Path exported = dir.resolve("stream.csv");
        launches.exportCsv(exported);
        assertEquals(cliStream, Files.readString(exported), "Export CSV equals launches --stream " + handle);
        robot.screenshot(shell, "launches-stream-filter");
        choose(stream, "all streams");
        robot.waitUntil("all streams again", () -> launches.rowCount() == launches.trace().trace().launchCount());

        // verdict under an engine: the column fills with verdicts in their theme colours, the filter keeps the rows
        // `launches --engine phos --verdict V` keeps
        Combo engine = role(Combo.class, "engineFilter");
        Combo verdict = role(Combo.class, "verdictFilter");
        choose(engine, "phos");
        robot.waitUntil("verdicts under phos are listed", () -> launches.statusText().contains("verdicts under phos")
                && launches.rowCount() == launches.trace().trace().launchCount(), Duration.ofSeconds(60));
        String all = launchesCsv(file, "--engine", "phos");
        int verdictCell = SpeculationViewsUiTest.csvCells(all.lines().findFirst().orElseThrow()).indexOf("verdict");
        String label = all.lines().skip(1).map(l -> SpeculationViewsUiTest.csvCells(l).get(verdictCell))
                .filter(v -> !v.equals("over-approximated")).findFirst()
                .orElseThrow(() -> new AssertionError("phos judges some cuda-suite launch other than over-approximated"));
        List<String> headers = Arrays.stream(table.getColumns()).map(TableColumn::getText).toList();
        int col = headers.indexOf("verdict");
        robot.waitUntil("the first row shows a verdict", () -> table.getItemCount() > 0
                && !table.getItem(0).getText(col).isEmpty());
        for (int i = 0; i < table.getItemCount() && !table.getItem(i).getText(col).isEmpty(); i++) {
            LaunchVerdict v = LaunchVerdict.valueOf(table.getItem(i).getText(col).toUpperCase(Locale.ROOT)
                    .replace('-', '_'));
            assertEquals(v.access() == null ? SpeculationTheme.color("unreliable") : SpeculationTheme.verdict(v.access()),
                    table.getItem(i).getForeground(col), "row " + i + ": " + v + " in its theme colour");
            assertNotEquals(table.getForeground(), table.getItem(i).getForeground(col), "coloured, not plain text");
        }
        String cliVerdict = launchesCsv(file, "--engine", "phos", "--verdict", label);
        long wantVerdict = rows(cliVerdict);
        choose(verdict, label);
        robot.waitUntil("the verdict filter keeps the " + wantVerdict + " " + label + " launches",
                () -> launches.rowCount() == wantVerdict, Duration.ofSeconds(30));
        launches.exportCsv(exported);
        assertEquals(cliVerdict, Files.readString(exported), "Export CSV equals launches --engine phos --verdict " + label);
        robot.screenshot(shell, "launches-verdict-filter");

        // a bad regex is said in the view, the table keeps its rows
        Text kernel = role(Text.class, "kernelFilter");
        typeInto(kernel, "gemm(");
        robot.waitUntil("a bad regex is reported", () -> launches.statusText().startsWith("Kernel regex 'gemm('"));
        assertEquals(wantVerdict, launches.rowCount(), "the rows of the last good filter stay");
        robot.screenshot(shell, "launches-bad-regex");
        typeInto(kernel, "");
        choose(engine, "none");
        robot.waitUntil("no filter again", () -> launches.rowCount() == launches.trace().trace().launchCount());
        // after a filter that kept one row, the window of native rows fills the table again
        robot.waitUntil("the rows fill the table again", () -> fillsTable(table));
    }

    @Test
    void hostTimeRangeFieldsAndTheTimelinesDraggedRange(@TempDir Path dir) throws Exception {
        // a generated trace: its launches spread over the whole run, so any part of the timeline holds some of them
        Path file = dir.resolve("range.phos");
        cli("generate", "--launches", "2000", "--seed", "5", "--out", file.toString());
        LaunchesView launches = open(dir, "range.phos");
        String all = launchesCsv(file);
        List<String> hosts = all.lines().skip(1).map(l -> l.split(",")[2]).toList();
        String from = hosts.get(100);
        String to = hosts.get(700);
        String cliRange = launchesCsv(file, "--from", from, "--to", to);
        long inRange = rows(cliRange);
        assertTrue(inRange >= 590 && inRange <= 610, "about launches 100..699 are issued in [from, to): " + inRange);
        typeInto(role(Text.class, "fromFilter"), from);
        typeInto(role(Text.class, "toFilter"), to);
        robot.waitUntil("the range keeps " + inRange + " launches", () -> launches.rowCount() == inRange);
        assertEquals(cliRange, launches.csv(), "the view's rows are launches --from " + from + " --to " + to);
        robot.screenshot(shell, "launches-time-range");
        typeInto(role(Text.class, "toFilter"), "soon");
        robot.waitUntil("a bad time is reported", () -> launches.statusText().startsWith("Host time to: 'soon'"));
        robot.click(robot.findByData(shell, org.eclipse.swt.widgets.Button.class, TracesView.ROLE, "clearTimeRange"));
        robot.waitUntil("All time lists every launch", () -> launches.rowCount() == hosts.size());

        // a range dragged on the Trace Timeline (stacked with Launches) becomes the view's range
        IWorkbenchPage page = window.getActivePage();
        page.showView("org.phos.workbench.ui.timeline.traceTimeline");
        Control canvas = robot.findByData(shell, Control.class, "org.phos.workbench.ui.timeline.role", "canvas");
        page.activate(page.getActiveEditor()); // the editor's trace reaches the timeline through the selection service
        Control details = robot.findByData(shell, Control.class, "org.phos.workbench.ui.timeline.role", "details");
        robot.waitUntil("the timeline has indexed the trace", () -> details instanceof org.eclipse.swt.widgets.Label l
                && !l.getText().startsWith("Indexing") && !l.getText().startsWith("W/S"), Duration.ofSeconds(30));
        int w = canvas.getSize().x;
        int y = canvas.getSize().y / 2;
        robot.drag(canvas, w / 2, y, w * 2 / 3, y);
        page.activate(launches);
        robot.waitUntil("the dragged range reaches the Launches view's fields",
                () -> !role(Text.class, "fromFilter").getText().isEmpty());
        String dragFrom = role(Text.class, "fromFilter").getText();
        String dragTo = role(Text.class, "toFilter").getText();
        assertTrue(Long.parseLong(dragFrom) < Long.parseLong(dragTo), dragFrom + " < " + dragTo);
        long want = rows(launchesCsv(file, "--from", dragFrom, "--to", dragTo));
        robot.waitUntil("the dragged range keeps the " + want + " launches the CLI keeps",
                () -> launches.rowCount() == want && launches.statusText().startsWith(want + " of "));
        assertTrue(want < hosts.size(), "a quarter of the timeline keeps fewer than all launches: " + want);
        robot.screenshot(shell, "launches-timeline-range");
        robot.click(robot.findByData(shell, org.eclipse.swt.widgets.Button.class, TracesView.ROLE, "clearTimeRange"));
        robot.waitUntil("All time again", () -> launches.rowCount() == hosts.size());
    }

    @Test
    void goToLaunchSelectsAndRevealsItsRowInAnySortOrder(@TempDir Path dir) throws Exception {
        // a generated trace larger than the screen, so that going to a launch must scroll
        Path file = dir.resolve("goto.phos");
        cli("generate", "--launches", "20k", "--seed", "3", "--out", file.toString());
        LaunchesView launches = open(dir, "goto.phos");
        Table table = role(Table.class, "launches");
        Text goTo = role(Text.class, "goToLaunch");

        // the window of native rows follows the table's size, which GTK may settle a turn of the event loop later
        try {
            robot.waitUntil("the native rows fill the table", () -> fillsTable(table), Duration.ofSeconds(5));
        } catch (AssertionError e) {
            // said below with the sizes
        }
        assertTrue(fillsTable(table), "the native rows fill the table: " + table.getItemCount() + " rows of "
                + table.getItemHeight() + " px in " + table.getSize() + ", header " + table.getHeaderHeight()
                + ", border " + table.getBorderWidth() + ", horizontal bar " + (table.getHorizontalBar() == null ? "none"
                        : table.getHorizontalBar().isVisible() + " " + table.getHorizontalBar().getSize())
                + ", client area " + table.getClientArea());
        typeInto(goTo, "12345");
        robot.waitUntil("launch 12,345 is selected", () -> launches.selectedLaunch() == 12345);
        int top = launches.topRow();
        assertTrue(top <= 12345 && 12345 < top + table.getItemCount(), "its row is on screen (top " + top + ")");
        assertEquals("12345", table.getSelection()[0].getText(0), "the selected native row shows launch 12345");
        robot.screenshot(shell, "launches-goto");

        // sorted by GPU time, descending (two clicks on its header), launch N sits where the CLI's --sort -gpu_ns puts it
        List<String> headers = Arrays.stream(table.getColumns()).map(TableColumn::getText).toList();
        TableColumn gpu = table.getColumn(headers.indexOf("gpu_ns"));
        int x = 0;
        for (int c : table.getColumnOrder()) {
            if (table.getColumn(c) == gpu) {
                break;
            }
            x += table.getColumn(c).getWidth();
        }
        int headerY = table.getItem(0).getBounds(0).y - table.getHeaderHeight() / 2;
        int headerX = Math.min(x + gpu.getWidth() / 2, x + (table.getClientArea().width - x) / 2);
        robot.click(table, headerX, headerY);
        robot.waitUntil("sorted by gpu_ns (sort: " + launches.query().sort() + ", click at " + headerX + "," + headerY
                + " in a table of " + table.getSize() + ")", () -> launches.query() != null
                        && launches.query().sort().column().equals("gpu_ns"));
        robot.spin(600);
        robot.click(table, headerX, headerY);
        robot.waitUntil("a second click sorts by gpu_ns descending", () -> launches.query().sort().column()
                .equals("gpu_ns") && launches.query().sort().descending());
        robot.screenshot(shell, "launches-sorted-gpu");
        List<String> sorted = launchesCsv(file, "--sort", "-gpu_ns").lines().skip(1).map(l -> l.split(",")[0]).toList();
        int target = 7777;
        int expectedRow = sorted.indexOf(Integer.toString(target));
        robot.click(table, 20, table.getItem(0).getBounds(0).y + 5); // the table has the focus: Ctrl+G
        robot.keyWith(SWT.CTRL, 'g', 'g');
        robot.waitUntil("Ctrl+G puts the caret into Go to launch", goTo::isFocusControl);
        robot.keyWith(SWT.CTRL, 'a', 'a');
        robot.type(Integer.toString(target));
        robot.key(SWT.CR);
        robot.waitUntil("launch " + target + " is selected in the sorted table", () -> launches.selectedLaunch() == target,
                Duration.ofSeconds(30));
        assertEquals(target, Integer.parseInt(table.getSelection()[0].getText(0)));
        int at = launches.topRow() + table.getSelectionIndex();
        assertEquals(expectedRow, at, "row of launch " + target + " by gpu_ns, as launches --sort -gpu_ns");

        // out of range and hidden by the filter: said in the view
        typeInto(goTo, "20000");
        robot.waitUntil("launch 20,000 is out of range",
                () -> launches.statusText().equals("Launch 20,000 is not in goto.phos: its launches are 0 to 19,999"));
        typeInto(goTo, "x7");
        robot.waitUntil("a non-number is reported", () -> launches.statusText().startsWith("Go to launch: 'x7'"));
        Combo stream = role(Combo.class, "streamFilter");
        robot.waitUntil("streams offered", () -> stream.getItemCount() > 2);
        String handle = stream.getItem(1).substring(0, stream.getItem(1).indexOf(' '));
        long onStream = rows(launchesCsv(file, "--stream", handle));
        choose(stream, stream.getItem(1));
        robot.waitUntil("stream filter applied", () -> launches.rowCount() == onStream, Duration.ofSeconds(30));
        List<String> onOtherStream = launchesCsv(file).lines().skip(1).filter(l -> !l.split(",")[6].equals(handle))
                .map(l -> l.split(",")[0]).toList();
        assertFalse(onOtherStream.isEmpty(), "launches on other streams than " + handle);
        String hidden = onOtherStream.get(onOtherStream.size() / 2);
        typeInto(goTo, hidden);
        robot.waitUntil("launch " + hidden + " is hidden by the stream filter",
                () -> launches.statusText().startsWith(String.format(Locale.ROOT, "Launch %,d is hidden by the filter",
                        Integer.parseInt(hidden))), Duration.ofSeconds(30));
        robot.screenshot(shell, "launches-goto-hidden");
        choose(stream, "all streams");
    }
}
