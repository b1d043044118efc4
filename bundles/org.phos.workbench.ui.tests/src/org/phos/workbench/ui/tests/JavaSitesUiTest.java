package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cli.BuiltinCommands;
import org.phos.workbench.cli.Main;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * A trace with the JCuda agent's side file next to it: opened through the Traces view, its launches show their Java
 * call site in the Launches table's {@code java_site} column, as {@code workbench launches} prints it.
 */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class JavaSitesUiTest {
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @TempDir
    Path dir;

    @AfterEach
    void closeEditors() {
        window.getActivePage().closeAllEditors(false);
    }

    private static TraceEvent.Launch launch(long t, int function) {
        return new TraceEvent.Launch(t, 0, function, new Dim3(4, 1, 1), new Dim3(128, 1, 1), 0, 0, new byte[0], 0, 0,
                LaunchKind.PLAIN, 0);
    }

    /**
     * Writes {@code dir/name}: 6 launches of jacobi_step and row_residual with the JCuda agent's side file next to
     * it, whose sites are lines 62 (jacobi_step) and 65 (row_residual) of {@code JCudaJacobi.java} (the
     * {@code cuLaunchKernel} lines of sample-traces/programs/jcuda/JCudaJacobi.java). Returns the trace file.
     */
    static Path writeJacobiWithSites(Path dir, String name) throws Exception { // i14-jsrc: shared with JavaSourceUiTest
        long base = 7_000_000_000L;
        byte[] ptx = "// k\n.version 8.0\n.entry step() { ret; }\n".getBytes(StandardCharsets.UTF_8);
        Path trace = dir.resolve(name);
        try (TraceWriter w = TraceWriter.create(trace, TraceHeader.builder("test", "1").startMonoNs(base).build())) {
            w.module(ModuleInfo.of(1, ModuleKind.PTX, ptx, "cuModuleLoadData"));
            w.function(new FunctionInfo(1, 1, "jacobi_step", "jacobi_step", List.of()));
            w.function(new FunctionInfo(2, 1, "row_residual", "row_residual", List.of()));
            for (int i = 0; i < 6; i++) {
                w.write(launch(1_000 + i * 1_000L, i % 3 == 2 ? 2 : 1));
            }
        }
        StringBuilder side = new StringBuilder("# phos-java-sites 1\tpid=9\tjcuda=12.0.0\tclock=CLOCK_MONOTONIC\n");
        for (int i = 0; i < 6; i++) {
            long t = base + 1_000 + i * 1_000L;
            boolean residual = i % 3 == 2;
            side.append("L\t").append(t - 100).append('\t').append(t + 100).append("\t0\tmain\tJCudaJacobi\tmain\t")
                    .append(residual ? 65 : 62).append("\tJCudaJacobi.java\t")
                    .append(residual ? "row_residual" : "jacobi_step").append("\tdata@JCudaJacobi.main:34\t\n");
        }
        Files.writeString(dir.resolve(name + ".java-sites"), side.toString());
        return trace;
    }

    @Test
    void launchesShowTheirJavaLine() throws Exception {
        Path trace = writeJacobiWithSites(dir, "jacobi-java.phos");

        LaunchFiltersUiTest.openThroughTracesView(robot, shell, dir, "jacobi-java.phos");
        IWorkbenchPage page = window.getActivePage();
        robot.waitUntil("a trace editor is active", () -> page.getActiveEditor() instanceof TraceEditor);

        LaunchesView launches = (LaunchesView) page.findView(LaunchesView.ID);
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "launches");
        // an earlier test may have left a kernel filter: clear it as a person would
        Text filter = robot.findByData(shell, Text.class, TracesView.ROLE, "kernelFilter");
        if (!filter.getText().isEmpty()) {
            robot.click(table);
            robot.spin(200);
            robot.click(filter);
            robot.waitUntil("the filter field has the focus", filter::isFocusControl);
            robot.keyWith(SWT.CTRL, 'a', 'a');
            robot.key(SWT.BS);
            robot.key(SWT.CR);
        }
        robot.waitUntil("the Launches table fills", () -> launches.rowCount() == 6);
        List<String> headers = Arrays.stream(table.getColumns()).map(TableColumn::getText).toList();
        int column = headers.indexOf("java_site");
        robot.waitUntil("the java_site column is shown", () -> table.getColumn(column).getWidth() > 0);
        robot.spin(300);
        // an earlier test may have left another sort order: find the rows by their launch number
        int launchColumn = headers.indexOf("launch");
        java.util.Map<String, String> siteOf = new java.util.HashMap<>();
        for (int i = 0; i < 6; i++) {
            siteOf.put(table.getItem(i).getText(launchColumn), table.getItem(i).getText(column));
        }
        assertEquals("JCudaJacobi.main(JCudaJacobi.java:62)", siteOf.get("0"), siteOf.toString());
        assertEquals("JCudaJacobi.main(JCudaJacobi.java:65)", siteOf.get("2"), siteOf.toString());
        assertEquals("JCudaJacobi.main(JCudaJacobi.java:65)", siteOf.get("5"), siteOf.toString());
        robot.screenshot(shell, "launches-java-sites");

        // the view's CSV is the command line's, java_site included
        Path exported = dir.resolve("launches.csv");
        launches.exportCsv(exported);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = new Main(BuiltinCommands.all()).run(new String[] { "launches", trace.toString(), "--format", "csv" },
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, false);
        assertEquals(0, exit);
        // the same lines (the view keeps whatever sort order an earlier test chose)
        assertEquals(out.toString(StandardCharsets.UTF_8).lines().sorted().toList(),
                Files.readString(exported).lines().sorted().toList());
        assertTrue(Files.readString(exported).contains("JCudaJacobi.main(JCudaJacobi.java:65)"));
    }
}
