package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.analysis.core.LaunchRow;
import org.phos.workbench.cli.BuiltinCommands;
import org.phos.workbench.cli.Main;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/** Opening traces through the Traces view and working with the Launches view, by real input. */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class TraceViewsUiTest {
    // a new instance per test, made on the UI thread: the window is brought to the front before each test
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @AfterEach
    void closeEditors() {
        window.getActivePage().closeAllEditors(false);
    }

    private void openThroughTracesView(Path folder, String name) {
        LaunchFiltersUiTest.openThroughTracesView(robot, shell, folder, name);
    }

    @Test
    void openedTraceFillsLaunchesWhichFilterSortAndStep() throws Exception {
        Path samples = Path.of(System.getProperty("phos.samples")).toAbsolutePath().normalize();
        Path file = samples.resolve("cuda-suite.phos");
        Trace expected = TraceReader.read(file, new NullProgressMonitor()).trace();

        openThroughTracesView(samples, "cuda-suite.phos");
        IWorkbenchPage page = window.getActivePage();
        robot.waitUntil("a trace editor is active", () -> page.getActiveEditor() instanceof TraceEditor);
        TraceEditor editor = (TraceEditor) page.getActiveEditor();
        robot.waitUntil("the trace has loaded", () -> editor.loadedTrace() != null);
        assertEquals(file, editor.file());
        assertEquals("", editor.bannerText(), "a clean sample shows no warning banner");

        LaunchesView launches = (LaunchesView) page.findView(LaunchesView.ID);
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "launches");
        // the native table holds only the rows on screen (a windowed table): the view counts the rows
        robot.waitUntil("the Launches table fills", () -> launches.rowCount() == expected.launchCount());
        assertTrue(expected.launchCount() > 10, "sample has launches");
        assertEquals(LaunchRow.TABLE.headers(), Arrays.stream(table.getColumns()).map(TableColumn::getText).toList());
        robot.spin(300);
        assertEquals("0", table.getItem(0).getText(0));
        robot.screenshot(shell, "launches-opened");

        // filter by a kernel regex: same rows as a regex over the trace's own kernel names
        FunctionInfo first = expected.functionById(expected.functionId(expected.launchEvent(0)));
        String regex = first.displayName().replaceAll("[^A-Za-z0-9_].*", "");
        String cliCsv = cli("launches", file.toString(), "--kernel", regex, "--format", "csv", "--limit",
                Integer.toString(Integer.MAX_VALUE));
        long matching = cliCsv.lines().count() - 1;
        assertTrue(matching > 0 && matching < expected.launchCount(), regex + " keeps " + matching);
        Text filter = robot.findByData(shell, Text.class, TracesView.ROLE, "kernelFilter");
        robot.click(table); // activate the Launches view first (see the report: first click into the filter)
        robot.spin(200);
        robot.click(filter);
        robot.waitUntil("the filter field has the focus (focus: " + shell.getDisplay().getFocusControl() + ")",
                filter::isFocusControl);
        robot.type(regex);
        robot.key(SWT.CR);
        robot.screenshot(shell, "launches-filter-typed");
        long want = matching;
        robot.waitUntil("the filter keeps the " + want + " launches of " + regex, () -> launches.rowCount() == want);
        Label status = robot.findByData(shell, Label.class, TracesView.ROLE, "launchesStatus");
        assertTrue(status.getText().startsWith(String.format(java.util.Locale.ROOT, "%,d of ", want)),
                status.getText());

        // Export CSV writes what the CLI writes for the same filter
        Path exported = Files.createTempFile("launches", ".csv");
        launches.exportCsv(exported);
        assertEquals(cliCsv, Files.readString(exported));
        Files.delete(exported);

        // clicking the launch header (the current order, ascending) sorts descending
        TableColumn index = table.getColumn(0);
        int x = index.getWidth() / 2;
        int headerY = table.getItem(0).getBounds(0).y - table.getHeaderHeight() / 2;
        robot.click(table, x, headerY);
        robot.waitUntil("the # column sorts descending", () -> {
            int[] rows = launches.rows();
            return rows.length > 1 && rows[0] > rows[rows.length - 1];
        });

        // select the first row, '.' steps to the next one
        robot.click(table, 20, table.getItem(0).getBounds(0).y + 5);
        robot.waitUntil("the first row is selected", () -> table.getSelectionIndex() == 0);
        int[] rows = launches.rows();
        robot.type(".");
        robot.waitUntil("'.' selects the next launch", () -> launches.selectedLaunch() == rows[1]);
        robot.type(",");
        robot.waitUntil("',' goes back", () -> launches.selectedLaunch() == rows[0]);
        Table properties = robot.findByData(shell, Table.class, TracesView.ROLE, "properties");
        robot.waitUntil("the Properties view shows the selected launch", () -> Arrays.stream(properties.getItems())
                .anyMatch(i -> i.getText(0).equals("launch") && i.getText(1).equals(Integer.toString(rows[0]))));
        assertTrue(Arrays.stream(properties.getItems()).anyMatch(i -> i.getText(0).equals("kernel")
                && i.getText(1).startsWith(regex)), "Properties name the kernel");
        robot.screenshot(shell, "launches-filtered-sorted");
    }

    /** Runs one command line of the CLI in-process; returns its standard output (exit code must be 0). */
    private static String cli(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(BuiltinCommands.all()).run(argv, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void fileMenuOffersOpenTrace() {
        org.eclipse.swt.widgets.Menu bar = shell.getMenuBar();
        org.eclipse.swt.widgets.MenuItem file = Arrays.stream(bar.getItems())
                .filter(i -> i.getText().replace("&", "").equals("File")).findFirst()
                .orElseThrow(() -> new AssertionError("no File menu"));
        file.getMenu().notifyListeners(SWT.Show, new org.eclipse.swt.widgets.Event()); // let e4 fill it
        assertTrue(Arrays.stream(file.getMenu().getItems())
                .anyMatch(i -> i.getText().replace("&", "").startsWith("Open Trace...")), "File > Open Trace...");
    }

    @Test
    void damagedTraceShowsItsWarning(@TempDir Path dir) throws Exception {
        Path samples = Path.of(System.getProperty("phos.samples")).toAbsolutePath().normalize();
        byte[] bytes = Files.readAllBytes(samples.resolve("cuda-suite.phos"));
        Files.write(dir.resolve("damaged.phos"), Arrays.copyOf(bytes, bytes.length * 2 / 3));
        openThroughTracesView(dir, "damaged.phos");
        IWorkbenchPage page = window.getActivePage();
        robot.waitUntil("a trace editor is active", () -> page.getActiveEditor() instanceof TraceEditor);
        TraceEditor editor = (TraceEditor) page.getActiveEditor();
        robot.waitUntil("the damaged trace shows a banner", () -> !editor.bannerText().isEmpty());
        assertTrue(editor.bannerText().contains("damaged.phos"), editor.bannerText());
        robot.screenshot(shell, "damaged-trace-banner");
        IEditorPart active = page.getActiveEditor();
        assertEquals("damaged.phos", active.getTitle());
    }
}
