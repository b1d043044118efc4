package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.trace.TraceEditor;

/**
 * The Properties view shows the launch a person clicks in Launches with the values the command line's
 * {@code launches --format csv} gives for it: kernel, grid, block, stream, times and each decoded parameter.
 */
@org.junit.jupiter.api.extension.ExtendWith(ScreenshotOnFailure.class)
class PropertiesUiTest {
    private static final String SAMPLE = "cupy-ops.phos";
    // a new instance per test, made on the UI thread: the window is brought to the front before each test
    private final WorkbenchUi ui = WorkbenchUi.inFront();
    private final IWorkbenchWindow window = ui.window();
    private final Shell shell = ui.shell();
    private final UiRobot robot = ui.robot();

    @AfterEach
    void closeEditors() {
        window.getActivePage().closeAllEditors(false);
    }

    @Test
    void clickedLaunchShowsTheCommandLinesValues() throws Exception {
        LaunchFiltersUiTest.openThroughTracesView(robot, shell, LaunchFiltersUiTest.samples(), SAMPLE);
        IWorkbenchPage page = window.getActivePage();
        robot.waitUntil("a trace editor for " + SAMPLE + " is active", () -> page.getActiveEditor() instanceof TraceEditor e
                && e.file().getFileName().toString().equals(SAMPLE));
        TraceEditor editor = (TraceEditor) page.getActiveEditor();
        robot.waitUntil("the trace has loaded", () -> editor.loadedTrace() != null, Duration.ofSeconds(60));
        LaunchesView launches = (LaunchesView) page.showView(LaunchesView.ID);
        int all = editor.loadedTrace().trace().launchCount();
        robot.waitUntil("Launches shows " + SAMPLE, () -> launches.trace() == editor.loadedTrace());

        // the CLI's row of a launch with pointer parameters, whatever filter an earlier test left in the view
        String csv = LaunchFiltersUiTest.cli("launches", LaunchFiltersUiTest.samples().resolve(SAMPLE).toString(),
                "--format", "csv");
        List<String> lines = csv.lines().toList();
        List<String> head = SpeculationViewsUiTest.csvCells(lines.get(0));
        int launch = 9;
        List<String> row = SpeculationViewsUiTest.csvCells(lines.stream()
                .filter(l -> l.startsWith(launch + ",")).findFirst().orElseThrow());
        Map<String, String> expected = new LinkedHashMap<>();
        for (String column : List.of("launch", "event", "host_ns", "gpu_ns", "stream", "kernel", "grid", "block")) {
            expected.put(column, row.get(head.indexOf(column)));
        }
        String[] params = row.get(head.indexOf("params")).split(" ");
        for (int i = 0; i < params.length; i++) {
            expected.put("param " + i, params[i]);
        }

        // a click on a neighbour, then on the launch: the selection changes and reaches Properties
        Table table = robot.findByData(shell, Table.class, TracesView.ROLE, "launches");
        robot.waitUntil("Launches lists launch " + launch, () -> launches.rowCount() > 0);
        launches.reveal(launch);
        robot.spin(300);
        for (int target : new int[] { launch + 1, launch }) {
            for (int attempt = 0; attempt < 3 && launches.selectedLaunch() != target; attempt++) {
                int index = IntStream.range(0, table.getItemCount())
                        .filter(i -> table.getItem(i).getText(0).equals(Integer.toString(target))).findFirst()
                        .orElseThrow(() -> new AssertionError("launch " + target + " is not on screen in Launches ("
                                + launches.rowCount() + " of " + all + " rows listed)"));
                Rectangle r = table.getItem(index).getBounds(0);
                robot.click(table, r.x + 20, r.y + r.height / 2);
                robot.spin(300);
            }
        }
        Table properties = robot.findByData(shell, Table.class, TracesView.ROLE, "properties");
        robot.waitUntil("Properties show launch " + launch, () -> Arrays.stream(properties.getItems())
                .anyMatch(i -> i.getText(0).equals("launch") && i.getText(1).equals(Integer.toString(launch))));
        Map<String, String> shown = new LinkedHashMap<>();
        for (TableItem item : properties.getItems()) {
            shown.put(item.getText(0), item.getText(1));
        }
        for (Map.Entry<String, String> e : expected.entrySet()) {
            assertEquals(e.getValue(), shown.get(e.getKey()), "Properties' " + e.getKey() + " of launch " + launch
                    + " (shown: " + shown + ")");
        }
        robot.screenshot(shell, "properties-launch-9");
    }
}
