package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.trace.TraceEditor;

/**
 * i15-cost: a trace recorded with sampled GPU timing (the Triton sample), opened through the Traces view: the
 * Launches table's GPU-time columns say in their tooltips how the GPU times were taken.
 */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class GpuTimeSamplingUiTest {
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

    @Test
    void gpuTimeColumnsSayHowTheTimesWereTaken() throws Exception {
        Path sample = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces/triton-ops.phos");
        Files.copy(sample, dir.resolve("triton-ops.phos"));

        LaunchFiltersUiTest.openThroughTracesView(robot, shell, dir, "triton-ops.phos");
        IWorkbenchPage page = window.getActivePage();
        robot.waitUntil("a trace editor is active", () -> page.getActiveEditor() instanceof TraceEditor);

        LaunchesView launches = (LaunchesView) page.findView(LaunchesView.ID);
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "launches");
        robot.waitUntil("the Launches table lists the trace", () -> launches.trace() != null
                && launches.trace().file().getFileName().toString().equals("triton-ops.phos"));
        TableColumn gpu = Arrays.stream(table.getColumns()).filter(c -> c.getText().equals("gpu_ns")).findFirst().orElseThrow();
        robot.waitUntil("the gpu_ns column has its tooltip", () -> gpu.getToolTipText() != null
                && gpu.getToolTipText().contains("sample of launches"));
        String tip = gpu.getToolTipText();
        assertTrue(tip.contains("each launch shape's first 3 launches, then 1 in N") && tip.contains("estimated per launch shape"),
                tip);
        TableColumn start = Arrays.stream(table.getColumns()).filter(c -> c.getText().equals("gpu_start_ns")).findFirst()
                .orElseThrow();
        assertTrue(tip.equals(start.getToolTipText()), start.getToolTipText());
    }
}
