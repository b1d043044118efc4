package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cli.BuiltinCommands;
import org.phos.workbench.cli.Main;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accesses.AccessesView;
import org.phos.workbench.internal.ui.accuracy.AccuracyView;
import org.phos.workbench.internal.ui.kernels.KernelsView;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * The speculation views on real sample traces, checked against the command line ({@code workbench validate}) run
 * in-process: the views must never disagree with it.
 */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class SpeculationViewsUiTest {
    private static final List<String> ENGINES = List.of("best", "phos");
    // a new instance per test, made on the UI thread: the window is brought to the front before each test
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    static Path sample(String name) {
        Path dir = Path.of(System.getProperty("user.dir"));
        for (Path d = dir; d != null; d = d.getParent()) {
            Path p = d.resolve("sample-traces").resolve(name);
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new AssertionError("sample trace " + name + " not found above " + dir);
    }

    static LoadedTrace load(String name) throws Exception {
        Path file = sample(name);
        TraceLoadResult r = TraceReader.read(file, null);
        return new LoadedTrace(file, r.trace(), r.warnings(), r.anomalies());
    }

    /** {@code workbench validate FILE --engine best,phos --csv OUT}, in-process; rows keyed "engine|kernel". */
    static Map<String, Map<String, String>> validateCsv(Path trace, Path dir) throws Exception {
        Path csv = dir.resolve("validate.csv");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(BuiltinCommands.all()).run(new String[] { "validate", trace.toString(), "--engine",
                String.join(",", ENGINES), "--csv", csv.toString() }, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertEquals(0, code, "validate failed: " + err.toString(StandardCharsets.UTF_8));
        List<String> lines = Files.readAllLines(csv);
        String[] head = lines.get(0).split(",");
        Map<String, Map<String, String>> rows = new HashMap<>();
        List<String> reported = new ArrayList<>(); // the CSV names engines by their expansion, in the order asked
        for (String line : lines.subList(1, lines.size())) {
            List<String> cells = csvCells(line);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < head.length; i++) {
                row.put(head[i], cells.get(i));
            }
            if (!reported.contains(row.get("engine"))) {
                reported.add(row.get("engine"));
            }
            rows.put(ENGINES.get(reported.indexOf(row.get("engine"))) + "|" + row.get("function_id"), row);
        }
        return rows;
    }

    static List<String> csvCells(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                if (quoted && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    b.append('"');
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == ',' && !quoted) {
                cells.add(b.toString());
                b.setLength(0);
            } else {
                b.append(c);
            }
        }
        cells.add(b.toString());
        return cells;
    }

    private static int firstLaunchOf(Trace t, String kernel) {
        for (int l = 0; l < t.launchCount(); l++) {
            FunctionInfo f = t.functionById(t.functionId(t.launchEvent(l)));
            if (f != null && f.displayName().contains(kernel)) {
                return l;
            }
        }
        throw new AssertionError("no launch of " + kernel);
    }

    private static String[] verdictLabels() {
        return new String[] { "exact", "over-approximated", "missed-read", "missed-write", "wrong-direction" };
    }

    private static String csvColumn(String label) {
        return switch (label) {
        case "over-approximated" -> "over_approximated";
        case "missed-read" -> "missed_read";
        case "missed-write" -> "missed_write";
        case "wrong-direction" -> "wrong_direction";
        default -> label;
        };
    }

    @Test
    void accessesShowTheCommandLinesVerdictsPerAllocationAndEngine(@TempDir Path dir) throws Exception {
        LoadedTrace cuda = load("cuda-suite.phos");
        Map<String, Map<String, String>> cli = validateCsv(cuda.file(), dir);
        Trace t = cuda.trace();
        int launch = firstLaunchOf(t, "indirect_sum");
        int function = t.functionId(t.launchEvent(launch));
        // the sample is interesting only if the engines disagree on this kernel (the CLI says so, not this test)
        assertNotEquals(cli.get("best|" + function).get("missed_read"), cli.get("phos|" + function).get("missed_read"),
                "best and phos should differ in missed reads on indirect_sum according to validate");
        assertEquals("1", cli.get("phos|" + function).get("launches"), "indirect_sum is launched once");

        IWorkbenchPage page = window.getActivePage();
        AccessesView view = (AccessesView) page.showView(AccessesView.ID);
        view.show(cuda, launch);
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "accesses");
        robot.waitUntil("the Accesses view lists the allocations of launch " + launch, () -> table.getItemCount() > 0,
                java.time.Duration.ofSeconds(60));
        Label header = robot.findByData(shell, Label.class, TracesView.ROLE, "accesses-header");
        assertTrue(header.getText().startsWith("Launch " + launch + " of cuda-suite.phos: "), header.getText());
        assertTrue(header.getText().contains("indirect_sum"), header.getText());

        List<String> columns = new ArrayList<>();
        for (var c : table.getColumns()) {
            columns.add(c.getText());
        }
        for (String engine : ENGINES) {
            int col = columns.indexOf(engine);
            assertTrue(col > 0, "a verdict column for " + engine + " in " + columns);
            Map<String, Integer> counts = new HashMap<>();
            for (TableItem item : table.getItems()) {
                String v = item.getText(col).replace("*", "");
                counts.merge(v, 1, Integer::sum);
                if (!v.equals("-")) {
                    // each verdict in its own theme colour, distinct from the table's text colour
                    var colour = org.phos.workbench.internal.ui.accuracy.SpeculationTheme.verdict(
                            org.phos.workbench.speculation.core.validate.AccessVerdict.valueOf(
                                    v.toUpperCase(java.util.Locale.ROOT).replace('-', '_')));
                    assertEquals(colour, item.getForeground(col), engine + " " + v + " colour");
                    assertNotEquals(table.getForeground(), colour, "verdict colour differs from text colour");
                }
            }
            for (String label : verdictLabels()) {
                assertEquals(Long.parseLong(cli.get(engine + "|" + function).get(csvColumn(label))),
                        (long) counts.getOrDefault(label, 0),
                        engine + " " + label + " allocations in the Accesses view vs validate --csv: " + counts);
            }
        }
        // the view's CSV (Copy) is the command line's: accesses FILE --launch N --engine best,phos --format csv
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(BuiltinCommands.all()).run(new String[] { "accesses", cuda.file().toString(), "--launch",
                Integer.toString(launch), "--engine", String.join(",", ENGINES), "--format", "csv" },
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                false);
        assertEquals(0, code, "accesses failed: " + err.toString(StandardCharsets.UTF_8));
        assertEquals(out.toString(StandardCharsets.UTF_8), view.csv(), "Copy gives the CLI's accesses CSV");

        // both engines' bars fit the view at the default window size: no horizontal scrolling
        int columnsWidth = 0;
        for (var c : table.getColumns()) {
            columnsWidth += c.getWidth();
        }
        assertTrue(columnsWidth <= table.getClientArea().width, "Accesses' columns (" + columnsWidth
                + " px) fit its table (" + table.getClientArea().width + " px)");
        assertTrue(table.getColumn(columns.indexOf("phos") + 2).getWidth() >= AccessesView.MIN_BAR,
                "phos's extents bar is drawn at least " + AccessesView.MIN_BAR + " px wide");
        // a real click on a row selects it (and the bar column is painted without error)
        Rectangle r = table.getItem(0).getBounds(0);
        robot.click(table, r.x + 5, r.y + r.height / 2);
        robot.waitUntil("the first row is selected by the click", () -> table.getSelectionIndex() == 0);
        zoomedScreenshot(view, "accesses-cuda-suite-indirect_sum");
    }

    // i15-val: begin
    /** A trace without truth, with the sanitizer tool's side file beside it: the views name it and the merge command. */
    @Test
    void withoutTruthTheAccuracyViewsNameTheSideFileAndTheMergeCommand(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.phos");
        try (org.phos.workbench.trace.core.TraceWriter w = org.phos.workbench.trace.core.TraceWriter.create(file,
                org.phos.workbench.trace.core.TraceHeader.builder("test", "1").build())) {
            w.write(new org.phos.workbench.trace.core.TraceEvent.Alloc(1, 0, 0x7f00_0000_0000L, 4096,
                    org.phos.workbench.trace.core.AllocKind.PLAIN, 0));
        }
        Path side = dir.resolve("run.phos.observed.phos");
        Files.copy(file, side);
        TraceLoadResult read = TraceReader.read(file, null);
        LoadedTrace loaded = new LoadedTrace(file, read.trace(), read.warnings(), read.anomalies());
        var r = org.phos.workbench.internal.ui.accuracy.Validations.validate(loaded, ENGINES, null, null);
        assertTrue(r.error() != null && r.error().contains("run.phos.observed.phos beside it holds them: "
                + "'workbench validate' uses it, and to open one trace holding both: workbench merge-observed " + file
                + " " + side + " --out " + dir.resolve("run-with-truth.phos")), String.valueOf(r.error()));
        Files.delete(side);
        var plain = org.phos.workbench.internal.ui.accuracy.Validations.validate(
                new LoadedTrace(file, read.trace(), read.warnings(), read.anomalies()), List.of("phos"), null, null);
        assertTrue(plain.error() != null && plain.error().endsWith("no ground truth to judge speculation by"),
                String.valueOf(plain.error()));
    }
    // i15-val: end

    @Test
    void accuracyTotalsEqualValidateAndAnUnsafeClickSelectsTheLaunch(@TempDir Path dir) throws Exception {
        for (String name : List.of("cuda-suite.phos", "pytorch-train.phos")) {
            LoadedTrace loaded = load(name);
            Map<String, Map<String, String>> cli = validateCsv(loaded.file(), dir);
            IWorkbenchPage page = window.getActivePage();
            AccuracyView view = (AccuracyView) page.showView(AccuracyView.ID);
            view.show(loaded);
            Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "accuracy");
            robot.waitUntil("the Accuracy view shows the engines on " + name,
                    () -> view.result() != null && view.result().trace() == loaded && table.getItemCount() > 0,
                    java.time.Duration.ofSeconds(120));
            // one column per engine (the view is narrow), one row per figure of validate's table
            for (int i = 0; i < ENGINES.size(); i++) {
                int col = i + 1;
                Map<String, String> row = cli.get(ENGINES.get(i) + "|-1");
                assertEquals(ENGINES.get(i), table.getColumn(col).getText());
                assertEquals(row.get("engine"), table.getColumn(col).getData("reported"), "the engine the CLI names");
                assertEquals(row.get("launches"), table.getItem(0).getText(col), name + " " + ENGINES.get(i) + " launches");
                assertEquals(row.get("unsafe_launches"), table.getItem(1).getText(col), name + " " + ENGINES.get(i) + " unsafe");
                assertEquals(percent(Long.parseLong(row.get("write_pairs_recalled")), Long.parseLong(row.get("write_pairs"))),
                        table.getItem(2).getText(col), name + " " + ENGINES.get(i) + " write recall");
                assertEquals(percent(Long.parseLong(row.get("read_pairs_recalled")), Long.parseLong(row.get("read_pairs"))),
                        table.getItem(3).getText(col), name + " " + ENGINES.get(i) + " read recall");
                assertEquals(percent(Long.parseLong(row.get("useful_bytes")), Long.parseLong(row.get("speculated_bytes"))),
                        table.getItem(4).getText(col), name + " " + ENGINES.get(i) + " precision");
                // i15-val: the direction figures, from the raw counts of validate's CSV
                assertEquals("Read precision", table.getItem(5).getText(0));
                assertEquals(percent(Long.parseLong(row.get("read_bytes_matched")), Long.parseLong(row.get("speculated_read_bytes"))),
                        table.getItem(5).getText(col), name + " " + ENGINES.get(i) + " read precision");
                assertEquals(percent(Long.parseLong(row.get("written_bytes_recalled")), Long.parseLong(row.get("speculated_written_bytes"))),
                        table.getItem(6).getText(col), name + " " + ENGINES.get(i) + " write precision");
                assertEquals(percent(Long.parseLong(row.get("direction_pairs_correct")), Long.parseLong(row.get("direction_pairs"))),
                        table.getItem(7).getText(col), name + " " + ENGINES.get(i) + " direction accuracy");
                assertEquals(row.get("excluded_launches"), table.getItem(9).getText(col), name + " " + ENGINES.get(i) + " excluded");
            }
            // the whole table fits the view at the default window size: no horizontal scrolling
            int columnsWidth = 0;
            for (var c : table.getColumns()) {
                columnsWidth += c.getWidth();
            }
            assertTrue(columnsWidth <= table.getClientArea().width, "Accuracy's columns (" + columnsWidth
                    + " px) fit its table (" + table.getClientArea().width + " px)");
            zoomedScreenshot(view, "accuracy-" + name.replace(".phos", ""));
            if (name.equals("cuda-suite.phos")) { // i15-val: the direction rows and the PTX line in the dark theme
                assertTrue(view.headerText().contains("\nPTX: 17 of 17 launches have their kernel's PTX"), view.headerText());
                window.getService(org.eclipse.ui.handlers.IHandlerService.class).executeCommand(
                        org.phos.workbench.internal.ui.theme.SwitchThemeHandler.DARK_COMMAND, null);
                robot.spin(800);
                zoomedScreenshot(view, "accuracy-cuda-suite-dark");
                window.getService(org.eclipse.ui.handlers.IHandlerService.class).executeCommand(
                        org.phos.workbench.internal.ui.theme.SwitchThemeHandler.LIGHT_COMMAND, null);
                robot.spin(800);
            }
            // the Accesses view on the first judged launch of this trace, for a look
            var result = org.phos.workbench.internal.ui.accuracy.Validations.cached(loaded, ENGINES);
            int first = 0;
            while (!result.answer().verdict(0, first).name().matches("EXACT|OVER_APPROXIMATED|MISSED_READ|MISSED_WRITE|WRONG_DIRECTION")) {
                first++;
            }
            AccessesView acc = (AccessesView) page.showView(AccessesView.ID);
            acc.show(loaded, first);
            Table accTable = robot.findByData(shell, Table.class, TracesView.ROLE, "accesses");
            robot.waitUntil("Accesses shows a launch of " + name, () -> accTable.getItemCount() > 0);
            zoomedScreenshot(acc, "accesses-" + name.replace(".phos", ""));

            Table unsafe = robot.findByData(shell, Table.class, TracesView.ROLE, "unsafe");
            long unsafeTotal = 0;
            for (String e : ENGINES) {
                unsafeTotal += Long.parseLong(cli.get(e + "|-1").get("unsafe_launches"));
            }
            if (unsafeTotal > 0) {
                assertTrue(unsafe.getItem(0).getData() instanceof LaunchSelection);
                AccessesView accesses = (AccessesView) page.showView(AccessesView.ID, null, IWorkbenchPage.VIEW_VISIBLE);
                page.activate(view);
                Rectangle r = unsafe.getItem(0).getBounds(1);
                robot.click(unsafe, r.x + 5, r.y + r.height / 2);
                LaunchSelection expected = (LaunchSelection) unsafe.getItem(0).getData();
                robot.waitUntil("a click on an unsafe launch shows it in Accesses",
                        () -> expected.equals(accesses.shown()));
            } else {
                assertEquals("(none)", unsafe.getItem(0).getText(0), name + ": validate reports no unsafe launch");
            }
        }
    }

    /** A screenshot of {@code view} maximized in the window (as a researcher would look at it), then restored. */
    private void zoomedScreenshot(org.eclipse.ui.IViewPart view, String name) throws Exception {
        IWorkbenchPage page = window.getActivePage();
        var ref = page.getReference(view);
        page.activate(view);
        page.toggleZoom(ref);
        robot.spin(300);
        robot.screenshot(shell, name);
        page.toggleZoom(ref);
        robot.spin(200);
    }

    private static String percent(long part, long whole) {
        return whole == 0 ? "100.00%" : String.format(java.util.Locale.ROOT, "%.2f%%", 100.0 * part / whole);
    }

    @Test
    void kernelsAgreeWithValidateSortAndEnterOnARowShowsTheFirstLaunchInAccesses(@TempDir Path dir)
            throws Exception {
        LoadedTrace cuda = load("cuda-suite.phos");
        Map<String, Map<String, String>> cli = validateCsv(cuda.file(), dir);
        Trace t = cuda.trace();
        IWorkbenchPage page = window.getActivePage();
        AccessesView accesses = (AccessesView) page.showView(AccessesView.ID);
        KernelsView kernels = (KernelsView) page.showView(KernelsView.ID);
        kernels.show(cuda);
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "kernels");
        robot.waitUntil("the Kernels view lists the kernels of cuda-suite", () -> table.getItemCount() > 1,
                java.time.Duration.ofSeconds(60));
        List<String> columns = new ArrayList<>(); // what each column holds in full (headers are short)
        for (var c : table.getColumns()) {
            columns.add(String.valueOf(c.getData(KernelsView.METRIC)));
        }
        int checked = 0;
        for (TableItem item : table.getItems()) {
            int l = firstLaunchOf(t, item.getText(0));
            int function = t.functionId(t.launchEvent(l));
            for (String e : ENGINES) {
                Map<String, String> row = cli.get(e + "|" + function);
                if (row == null || "0".equals(row.get("launches"))) {
                    continue;
                }
                assertEquals(row.get("unsafe_launches"), item.getText(columns.indexOf(e + " unsafe")), item.getText(0));
                assertEquals(percent(Long.parseLong(row.get("useful_bytes")), Long.parseLong(row.get("speculated_bytes"))),
                        item.getText(columns.indexOf(e + " precision")), e + " precision of " + item.getText(0));
                assertEquals(percent(Long.parseLong(row.get("read_pairs_recalled")), Long.parseLong(row.get("read_pairs"))),
                        item.getText(columns.indexOf(e + " read recall")), e + " read recall of " + item.getText(0));
                assertEquals(percent(Long.parseLong(row.get("direction_pairs_correct")), Long.parseLong(row.get("direction_pairs"))),
                        item.getText(columns.indexOf(e + " direction")), e + " direction accuracy of " + item.getText(0));
                checked++;
            }
        }
        assertTrue(checked >= 2, "kernels compared with validate: " + checked);

        // a click on the header "Launches" sorts by it, most launched first
        int col = columns.indexOf("Launches");
        int x = table.getColumn(0).getWidth() + table.getColumn(col).getWidth() / 2;
        // on GTK the header lies above the client area's origin (client y is negative)
        int y = Math.min(0, table.getClientArea().y) + table.getHeaderHeight() / 2;
        robot.click(table, x, y);
        robot.waitUntil("the header click sorts by launches", () -> table.getSortColumn() == table.getColumn(col));
        long previous = Long.MAX_VALUE;
        for (TableItem item : table.getItems()) {
            long v = Long.parseLong(item.getText(col));
            assertTrue(v <= previous, "descending by launches: " + v + " after " + previous);
            previous = v;
        }

        // a double-click on indirect_sum selects its first launch, which Accesses shows
        int row = -1;
        for (int i = 0; i < table.getItemCount(); i++) {
            if (table.getItem(i).getText(0).contains("indirect_sum")) {
                row = i;
            }
        }
        assertTrue(row >= 0, "a row for indirect_sum");
        Rectangle r = table.getItem(row).getBounds(0);
        // a click on the row, then Enter: the table's default selection (as a double-click; posted double-clicks
        // do not reach GTK as one under Xvfb)
        robot.click(table, r.x + 10, r.y + r.height / 2);
        robot.key(SWT.CR);
        LaunchSelection expected = new LaunchSelection(cuda, firstLaunchOf(t, "indirect_sum"));
        robot.waitUntil("Enter on the row shows launch " + expected.launch() + " in Accesses",
                () -> expected.equals(accesses.shown()));
        Table acc = robot.findByData(shell, Table.class, TracesView.ROLE, "accesses");
        robot.waitUntil("Accesses lists the launch's allocations", () -> acc.getItemCount() > 0,
                java.time.Duration.ofSeconds(60));
        zoomedScreenshot(kernels, "kernels-cuda-suite");
    }

    private static byte[] words(long... values) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(values.length * 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
            b.putLong(v);
        }
        return b.array();
    }

    /**
     * No sample trace has an unsafe launch for any engine, so this one is constructed (as in SpeculationValidatorTest):
     * a kernel writes through its const pointer (phos: wrong direction) and another writes a managed buffer phos does
     * not speculate as written (missed write). Written to a .phos file, read back, validated by the CLI.
     */
    static Path unsafeTrace(Path dir) throws Exception {
        long a = 0x7f00_0000_0000L;
        long b = 0x7f00_0001_0000L;
        long m = 0x7f00_0010_0000L;
        var builder = Trace.builder(org.phos.workbench.trace.core.TraceHeader.builder("ui-test", "1").build());
        long clock = 1000;
        builder.event(new org.phos.workbench.trace.core.TraceEvent.Alloc(clock++, 0, a, 4096,
                org.phos.workbench.trace.core.AllocKind.PLAIN, 0));
        builder.event(new org.phos.workbench.trace.core.TraceEvent.Alloc(clock++, 0, b, 65536,
                org.phos.workbench.trace.core.AllocKind.PLAIN, 0));
        builder.event(new org.phos.workbench.trace.core.TraceEvent.Alloc(clock++, 0, m, 4096,
                org.phos.workbench.trace.core.AllocKind.MANAGED, 0));
        builder.function(new FunctionInfo(1, 0, "_Z4testPKfPfi", "test(float const*, float*, int)",
                List.of(new org.phos.workbench.trace.core.ParamInfo(0, 8), new org.phos.workbench.trace.core.ParamInfo(8, 8),
                        new org.phos.workbench.trace.core.ParamInfo(16, 4))));
        builder.function(new FunctionInfo(2, 0, "triton_k", "", List.of(new org.phos.workbench.trace.core.ParamInfo(0, 8),
                new org.phos.workbench.trace.core.ParamInfo(8, 8))));
        int[] launches = new int[3];
        byte[][] params = { words(a, b, 7), words(a, b, 7), words(a, m) };
        int[] functions = { 1, 1, 2 };
        for (int i = 0; i < 3; i++) {
            builder.event(new org.phos.workbench.trace.core.TraceEvent.Launch(clock++, 0, functions[i],
                    new org.phos.workbench.trace.core.Dim3(1, 1, 1), new org.phos.workbench.trace.core.Dim3(32, 1, 1), 0,
                    0, params[i], 0, 0, org.phos.workbench.trace.core.LaunchKind.PLAIN, 0));
            launches[i] = 3 + i;
        }
        builder.observed(new org.phos.workbench.trace.core.ObservedAccess(launches[0], a,
                List.of(new org.phos.workbench.trace.core.AddressRange(a, a + 4096)), List.of(), 1, 0, "test-truth"));
        builder.observed(new org.phos.workbench.trace.core.ObservedAccess(launches[0], b,
                List.of(new org.phos.workbench.trace.core.AddressRange(b, b + 100)),
                List.of(new org.phos.workbench.trace.core.AddressRange(b, b + 100)), 1, 1, "test-truth"));
        builder.observed(new org.phos.workbench.trace.core.ObservedAccess(launches[1], a, List.of(),
                List.of(new org.phos.workbench.trace.core.AddressRange(a, a + 8)), 0, 1, "test-truth"));
        builder.observed(new org.phos.workbench.trace.core.ObservedAccess(launches[2], m,
                List.of(new org.phos.workbench.trace.core.AddressRange(m, m + 16)),
                List.of(new org.phos.workbench.trace.core.AddressRange(m, m + 16)), 1, 1, "test-truth"));
        Path file = dir.resolve("unsafe.phos");
        org.phos.workbench.trace.core.TraceWriter.write(builder.build(), file,
                org.phos.workbench.trace.core.TraceWriter.Options.DEFAULT);
        return file;
    }

    @Test
    void clickingAnUnsafeLaunchInAccuracyShowsItInAccesses(@TempDir Path dir) throws Exception {
        Path file = unsafeTrace(dir);
        TraceLoadResult loadResult = TraceReader.read(file, null);
        LoadedTrace loaded = new LoadedTrace(file, loadResult.trace(), loadResult.warnings(), loadResult.anomalies());
        Map<String, Map<String, String>> cli = validateCsv(file, dir);
        long phosUnsafe = Long.parseLong(cli.get("phos|-1").get("unsafe_launches"));
        assertTrue(phosUnsafe > 0, "validate finds phos unsafe on the constructed trace: " + cli.get("phos|-1"));
        IWorkbenchPage page = window.getActivePage();
        AccessesView accesses = (AccessesView) page.showView(AccessesView.ID, null, IWorkbenchPage.VIEW_VISIBLE);
        AccuracyView view = (AccuracyView) page.showView(AccuracyView.ID);
        view.show(loaded);
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "accuracy");
        robot.waitUntil("Accuracy shows the constructed trace",
                () -> view.result() != null && view.result().trace() == loaded && table.getItemCount() > 0,
                java.time.Duration.ofSeconds(60));
        assertEquals("phos", table.getColumn(2).getText());
        assertEquals(Long.toString(phosUnsafe), table.getItem(1).getText(2), "phos unsafe launches as validate says");
        Table unsafe = robot.findByData(shell, Table.class, TracesView.ROLE, "unsafe");
        long phosRows = java.util.Arrays.stream(unsafe.getItems()).filter(i -> i.getText(0).equals("phos")).count();
        assertEquals(phosUnsafe, phosRows, "one row per unsafe phos launch");
        int last = unsafe.getItemCount() - 1;
        unsafe.showItem(unsafe.getItem(last));
        robot.spin(100);
        LaunchSelection expected = (LaunchSelection) unsafe.getItem(last).getData();
        Rectangle r = unsafe.getItem(last).getBounds(1);
        robot.click(unsafe, r.x + 5, r.y + r.height / 2);
        robot.waitUntil("the click on unsafe launch " + expected.launch() + " shows it in Accesses",
                () -> expected.equals(accesses.shown()));
        zoomedScreenshot(view, "accuracy-unsafe-constructed");
        Table acc = robot.findByData(shell, Table.class, TracesView.ROLE, "accesses");
        robot.waitUntil("Accesses lists the unsafe launch's allocations", () -> acc.getItemCount() > 0);
        List<String> columns = new ArrayList<>();
        for (var c : acc.getColumns()) {
            columns.add(c.getText());
        }
        boolean unsafeShown = java.util.Arrays.stream(acc.getItems()).map(i -> i.getText(columns.indexOf("phos")))
                .anyMatch(v -> v.startsWith("missed-write") || v.startsWith("wrong-direction"));
        assertTrue(unsafeShown, "the Accesses view shows phos's unsafe verdict for launch " + expected.launch());
        zoomedScreenshot(accesses, "accesses-unsafe-constructed");
    }
}
