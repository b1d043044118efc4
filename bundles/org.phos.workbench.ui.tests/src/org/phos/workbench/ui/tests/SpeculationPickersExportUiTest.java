package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.jface.action.ActionContributionItem;
import org.eclipse.jface.action.IAction;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.ToolBar;
import org.eclipse.swt.widgets.ToolItem;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cli.BuiltinCommands;
import org.phos.workbench.cli.Main;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accesses.AccessesView;
import org.phos.workbench.internal.ui.accuracy.AccuracyView;
import org.phos.workbench.internal.ui.accuracy.CsvExport;
import org.phos.workbench.internal.ui.accuracy.SpeculationPicker;
import org.phos.workbench.internal.ui.kernels.KernelsView;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * The engine and tool pickers and Export CSV of Accesses, Kernels and Accuracy, driven by real clicks (check and
 * radio buttons, the toolbar's "Export CSV..." item), checked against the command line run in-process for the same
 * engines and tool ({@code validate --engine A,B,C --tool T --csv}, {@code accesses ... --format csv}). Only the file
 * dialog is answered by the test hook; the action, the rendering and the writing are the real ones.
 */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class SpeculationPickersExportUiTest {
    // a new instance per test, made on the UI thread: the window is brought to the front before each test
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @AfterEach
    void noHook() {
        CsvExport.chooserForTests = null;
    }

    /** Runs the command line in-process; fails with its error output unless it exits 0. */
    static String cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(BuiltinCommands.all()).run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertEquals(0, code, String.join(" ", args) + " failed: " + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Rows of a CSV file keyed by {@code key(row)}; cells by header. */
    static Map<String, Map<String, String>> rows(List<String> lines, java.util.function.Function<Map<String, String>, String> key) {
        List<String> head = SpeculationViewsUiTest.csvCells(lines.get(0));
        Map<String, Map<String, String>> rows = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> cells = SpeculationViewsUiTest.csvCells(line);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < head.size(); i++) {
                row.put(head.get(i), cells.get(i));
            }
            rows.put(key.apply(row), row);
        }
        return rows;
    }

    private static String percent(long part, long whole) {
        return whole == 0 ? "100.00%" : String.format(Locale.ROOT, "%.2f%%", 100.0 * part / whole);
    }

    /** Clicks the picker's button with role {@code role} (engine:NAME, tool:NAME) in the view of {@code picker}. */
    private void pick(SpeculationPicker picker, String role) {
        Button b = robot.findByData(picker.control(), Button.class, TracesView.ROLE, role);
        boolean before = b.getSelection();
        robot.click(b);
        robot.waitUntil("the click on " + role + " changed the button", () -> b.getSelection() != before || b.getSelection());
    }

    /** Clicks the toolbar item of {@code action} (the view's real Export CSV... item). */
    private void clickToolItem(IAction action) {
        for (ToolBar bar : UiRobot.findAll(shell, ToolBar.class, Control::isVisible)) {
            for (ToolItem item : bar.getItems()) {
                if (item.getData() instanceof ActionContributionItem c && c.getAction() == action) {
                    Rectangle r = item.getBounds();
                    robot.click(bar, r.x + r.width / 2, r.y + r.height / 2);
                    return;
                }
            }
        }
        throw new AssertionError("no visible tool item for " + action.getText());
    }

    /** Exports through the toolbar item into {@code file}; returns the outcome shown in the status line. */
    private String export(CsvExport export, Path file) {
        List<String> suggested = new ArrayList<>();
        CsvExport.chooserForTests = name -> {
            suggested.add(name);
            return file.toString();
        };
        clickToolItem(export.action());
        robot.waitUntil("the export reports its outcome", () -> !export.outcome().isEmpty(), Duration.ofSeconds(30));
        assertEquals(1, suggested.size(), "the action asked for one file");
        assertTrue(suggested.get(0).endsWith(".csv"), suggested.get(0));
        return export.outcome();
    }

    @Test
    void accuracyWithThreeEnginesAndOneToolExportsValidatesCsv(@TempDir Path dir) throws Exception {
        LoadedTrace cuda = SpeculationViewsUiTest.load("cuda-suite.phos");
        IWorkbenchPage page = window.getActivePage();
        AccuracyView view = (AccuracyView) page.showView(AccuracyView.ID);
        view.show(cuda);
        robot.waitUntil("Accuracy shows cuda-suite", () -> view.result() != null && view.result().trace() == cuda,
                Duration.ofSeconds(60));
        // the sample holds the records of two tools: both offered, besides all of them united
        robot.findByData(view.picker().control(), Button.class, TracesView.ROLE, "tool:ptx-instrument");
        pick(view.picker(), "engine:arg-scan");
        pick(view.picker(), "tool:sanitizer");
        List<String> engines = List.of("best", "phos", "arg-scan");
        robot.waitUntil("Accuracy shows best, phos and arg-scan judged by the sanitizer", () -> view.result() != null
                && view.result().engines().equals(engines) && "sanitizer".equals(view.result().tool()),
                Duration.ofSeconds(60));
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "accuracy");
        assertEquals(1 + engines.size(), table.getColumnCount(), "a column per engine");

        Path cliCsv = dir.resolve("validate.csv");
        cli("validate", cuda.file().toString(), "--engine", String.join(",", engines), "--tool", "sanitizer", "--csv",
                cliCsv.toString());
        List<String> lines = Files.readAllLines(cliCsv);
        List<String> reported = new ArrayList<>();
        Map<String, Map<String, String>> byEngine = rows(lines, r -> {
            if (!reported.contains(r.get("engine"))) {
                reported.add(r.get("engine"));
            }
            return engines.get(reported.indexOf(r.get("engine"))) + "|" + r.get("function_id");
        });
        for (int i = 0; i < engines.size(); i++) {
            Map<String, String> row = byEngine.get(engines.get(i) + "|-1");
            int col = i + 1;
            assertEquals(engines.get(i), table.getColumn(col).getText());
            assertEquals(row.get("launches"), table.getItem(0).getText(col), engines.get(i) + " launches (sanitizer)");
            assertEquals(row.get("unsafe_launches"), table.getItem(1).getText(col), engines.get(i) + " unsafe");
            assertEquals(percent(Long.parseLong(row.get("read_pairs_recalled")), Long.parseLong(row.get("read_pairs"))),
                    table.getItem(3).getText(col), engines.get(i) + " read recall");
            assertEquals(percent(Long.parseLong(row.get("useful_bytes")), Long.parseLong(row.get("speculated_bytes"))),
                    table.getItem(4).getText(col), engines.get(i) + " precision");
        }
        // the sanitizer observed fewer launches than both tools together: the tool choice reached the analysis
        String all = cli("validate", cuda.file().toString(), "--engine", "best");
        assertFalse(all.contains("records by sanitizer)"), "validate without --tool names both tools: " + all.lines().findFirst());

        Path exported = dir.resolve("exported-accuracy.csv");
        String outcome = export(view.export(), exported);
        assertTrue(outcome.startsWith("Exported "), outcome);
        assertArrayEquals(Files.readAllBytes(cliCsv), Files.readAllBytes(exported),
                "Export CSV writes validate --engine best,phos,arg-scan --tool sanitizer --csv");
        assertEquals(Files.readString(cliCsv), view.csv(), "Copy gives the same CSV");
        // no temporary file is left beside the export (written aside, then renamed)
        try (var files = Files.list(dir)) {
            assertEquals(List.of("exported-accuracy.csv", "validate.csv"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }

        // exporting over the trace itself is refused, naming the file, and the trace is left alone
        byte[] trace = Files.readAllBytes(cuda.file());
        String refused = export(view.export(), cuda.file());
        assertTrue(refused.startsWith("Cannot export to " + cuda.file()) && refused.contains("is the input"), refused);
        assertArrayEquals(trace, Files.readAllBytes(cuda.file()), "the trace is unchanged");
        robot.screenshot(shell, "accuracy-three-engines-sanitizer");

        // back to the default choice for the other tests
        pick(view.picker(), "engine:arg-scan");
        pick(view.picker(), SpeculationPicker.ALL_TOOLS);
        robot.waitUntil("Accuracy back to best, phos", () -> view.result() != null
                && view.result().engines().equals(List.of("best", "phos")) && view.result().tool() == null,
                Duration.ofSeconds(60));
    }

    @Test
    void kernelsWithAnotherEngineAndToolAgreeWithValidateAndExportTheirTable(@TempDir Path dir) throws Exception {
        LoadedTrace cuda = SpeculationViewsUiTest.load("cuda-suite.phos");
        Trace t = cuda.trace();
        IWorkbenchPage page = window.getActivePage();
        KernelsView view = (KernelsView) page.showView(KernelsView.ID);
        view.show(cuda);
        robot.waitUntil("Kernels shows cuda-suite", () -> view.result() != null && view.result().trace() == cuda,
                Duration.ofSeconds(60));
        pick(view.picker(), "engine:ptx-flow");
        pick(view.picker(), "tool:ptx-instrument");
        List<String> engines = List.of("best", "phos", "ptx-flow");
        robot.waitUntil("Kernels shows best, phos and ptx-flow judged by ptx-instrument", () -> view.result() != null
                && view.result().engines().equals(engines) && "ptx-instrument".equals(view.result().tool()),
                Duration.ofSeconds(60));
        Path cliCsv = dir.resolve("validate.csv");
        cli("validate", cuda.file().toString(), "--engine", String.join(",", engines), "--tool", "ptx-instrument",
                "--csv", cliCsv.toString());
        List<String> reported = new ArrayList<>();
        Map<String, Map<String, String>> cli = rows(Files.readAllLines(cliCsv), r -> {
            if (!reported.contains(r.get("engine"))) {
                reported.add(r.get("engine"));
            }
            return engines.get(reported.indexOf(r.get("engine"))) + "|" + r.get("function_id");
        });

        // the view's cells
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "kernels");
        List<String> columns = new ArrayList<>();
        for (var c : table.getColumns()) {
            columns.add(String.valueOf(c.getData(KernelsView.METRIC)));
        }
        int checked = 0;
        for (TableItem item : table.getItems()) {
            int function = functionNamed(t, item.getText(0));
            for (String e : engines) {
                Map<String, String> row = cli.get(e + "|" + function);
                if (row == null || "0".equals(row.get("launches"))) {
                    assertEquals("-", item.getText(columns.indexOf(e + " precision")), e + " on " + item.getText(0));
                    continue;
                }
                assertEquals(percent(Long.parseLong(row.get("useful_bytes")), Long.parseLong(row.get("speculated_bytes"))),
                        item.getText(columns.indexOf(e + " precision")), e + " precision of " + item.getText(0));
                assertEquals(percent(Long.parseLong(row.get("write_pairs_recalled")), Long.parseLong(row.get("write_pairs"))),
                        item.getText(columns.indexOf(e + " write recall")), e + " write recall of " + item.getText(0));
                assertEquals(row.get("unsafe_launches"), item.getText(columns.indexOf(e + " unsafe")), item.getText(0));
                checked++;
            }
        }
        assertTrue(checked >= 6, "kernel figures compared with validate: " + checked);

        // the exported file: the analysis layer's kernel table; its figures are validate's
        Path exported = dir.resolve("kernels.csv");
        String outcome = export(view.export(), exported);
        assertTrue(outcome.startsWith("Exported " + table.getItemCount() + " rows"), outcome);
        List<String> lines = Files.readAllLines(exported);
        assertEquals(table.getItemCount() + 1, lines.size(), "a header and a line per kernel");
        assertEquals(Files.readString(exported), view.csv(), "Copy gives the exported bytes");
        Map<String, Map<String, String>> file = rows(lines, r -> r.get("function"));
        int compared = 0;
        for (Map.Entry<String, Map<String, String>> k : file.entrySet()) {
            for (String e : engines) {
                String h = e.replaceAll("[^a-z0-9]", "_");
                Map<String, String> row = cli.get(e + "|" + k.getKey());
                String launches = row == null ? "0" : row.get("launches");
                assertEquals(launches, k.getValue().get(h + "_compared"), e + " launches judged of function " + k.getKey());
                if (!"0".equals(launches)) {
                    double precision = Long.parseLong(row.get("speculated_bytes")) == 0 ? 1
                            : (double) Long.parseLong(row.get("useful_bytes")) / Long.parseLong(row.get("speculated_bytes"));
                    assertEquals(precision, Double.parseDouble(k.getValue().get(h + "_precision")), 1e-5,
                            e + " precision of function " + k.getKey());
                    assertEquals(row.get("unsafe_launches"), k.getValue().get(h + "_unsafe"));
                    compared++;
                }
            }
        }
        assertTrue(compared >= 6, "exported kernel figures compared with validate: " + compared);
        robot.screenshot(shell, "kernels-three-engines-ptx-instrument");

        pick(view.picker(), "engine:ptx-flow");
        pick(view.picker(), SpeculationPicker.ALL_TOOLS);
        robot.waitUntil("Kernels back to best, phos", () -> view.result() != null
                && view.result().engines().equals(List.of("best", "phos")) && view.result().tool() == null,
                Duration.ofSeconds(60));
    }

    private static int functionNamed(Trace t, String kernel) {
        for (FunctionInfo f : t.functions()) {
            if (f.displayName().equals(kernel) || f.demangledName().equals(kernel) || f.mangledName().equals(kernel)) {
                return f.id();
            }
        }
        throw new AssertionError("no function named " + kernel);
    }

    @Test
    void accessesWithAToolPickedExportsTheCommandLinesAccesses(@TempDir Path dir) throws Exception {
        LoadedTrace cuda = SpeculationViewsUiTest.load("cuda-suite.phos");
        Trace t = cuda.trace();
        int launch = -1;
        for (int l = 0; l < t.launchCount() && launch < 0; l++) {
            FunctionInfo f = t.functionById(t.functionId(t.launchEvent(l)));
            if (f != null && f.displayName().contains("indirect_sum")) {
                launch = l;
            }
        }
        assertTrue(launch >= 0, "cuda-suite launches indirect_sum");
        IWorkbenchPage page = window.getActivePage();
        AccessesView view = (AccessesView) page.showView(AccessesView.ID);
        view.show(cuda, launch);
        int shown = launch;
        robot.waitUntil("Accesses shows the launch", () -> view.answer() != null
                && view.answer().query().launch() == shown, Duration.ofSeconds(60));
        pick(view.picker(), "engine:arg-scan");
        pick(view.picker(), "tool:sanitizer");
        List<String> engines = List.of("best", "phos", "arg-scan");
        robot.waitUntil("Accesses shows three engines against the sanitizer", () -> view.answer() != null
                && view.answer().query().engines().equals(engines)
                && view.answer().query().tools().equals(List.of("sanitizer")), Duration.ofSeconds(60));
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "accesses");
        assertEquals(3 + 3 * engines.size(), table.getColumnCount());
        String expected = cli("accesses", cuda.file().toString(), "--launch", Integer.toString(launch), "--engine",
                String.join(",", engines), "--tool", "sanitizer", "--format", "csv");
        String header = expected.lines().findFirst().orElseThrow();
        assertTrue(header.contains("sanitizer_read") && !header.contains("ptx_instrument"),
                "only the sanitizer's records with --tool sanitizer: " + header);
        Path exported = dir.resolve("accesses.csv");
        String outcome = export(view.export(), exported);
        assertTrue(outcome.startsWith("Exported "), outcome);
        assertEquals(expected, Files.readString(exported), "Export CSV writes accesses ... --tool sanitizer --format csv");
        // each verdict cell is the command line's
        List<String> cliLines = expected.lines().toList();
        List<String> head = SpeculationViewsUiTest.csvCells(cliLines.get(0));
        for (int r = 0; r < table.getItemCount(); r++) {
            List<String> cells = SpeculationViewsUiTest.csvCells(cliLines.get(r + 1));
            for (int i = 0; i < engines.size(); i++) {
                String verdict = cells.get(head.indexOf(engines.get(i).replace('-', '_') + "_verdict"));
                String shownVerdict = table.getItem(r).getText(3 + 3 * i);
                assertTrue(shownVerdict.equals(verdict) || shownVerdict.equals("-") && verdict.equals("not-named"),
                        "row " + r + " " + engines.get(i) + ": " + shownVerdict + " vs " + verdict);
            }
        }
        robot.screenshot(shell, "accesses-three-engines-sanitizer");

        pick(view.picker(), "engine:arg-scan");
        pick(view.picker(), SpeculationPicker.ALL_TOOLS);
        robot.waitUntil("Accesses back to best, phos", () -> view.answer() != null
                && view.answer().query().engines().equals(List.of("best", "phos"))
                && view.answer().query().tools().isEmpty(), Duration.ofSeconds(60));
        assertNotNull(view.shown());
    }
}
