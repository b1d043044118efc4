package org.phos.workbench.ui.tests;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.trace.TraceEditor;
import org.phos.workbench.internal.ui.trace.TraceEditorInput;

/**
 * Repaint time of the Launches table while scrolling, in the running workbench, the view maximized in a 1600 px wide
 * window: each scroll is the view's own path (the windowed table moves, the rows on screen are filled from pages of
 * the analysis layer's {@code LaunchQuery}, decoded on demand) followed by a synchronous paint ({@code Table.update}).
 * Three moves, in launch order and sorted by {@code -gpu_ns}: one row down (the wheel), one screen down (Page Down)
 * and a jump to a random row (the slider dragged far: mostly a page never decoded before). Runs only with
 * {@code -Dphos.launches.bench=TRACE.phos}; prints and writes the figures to {@code target/launches-bench.txt}.
 */
class LaunchesScrollBenchmark {
    private static final int RUNS = 60;

    private static String figures(long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        return String.format("median %.2f ms, p95 %.2f ms, max %.2f ms", s[s.length / 2] / 1e6,
                s[(int) Math.ceil(s.length * 0.95) - 1] / 1e6, s[s.length - 1] / 1e6);
    }

    @Test
    void scrollRepaintTimes() throws Exception {
        String file = System.getProperty("phos.launches.bench", "");
        if (file.isBlank()) {
            System.out.println("launches scroll benchmark skipped: no -Dphos.launches.bench=TRACE");
            return; // a measurement, not a check: the default run stays fast
        }
        Shell shell = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell();
        UiRobot robot = new UiRobot(shell.getDisplay());
        shell.setBounds(0, 0, 1600, 1000);
        IWorkbenchPage page = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
        TraceEditor editor = (TraceEditor) page.openEditor(new TraceEditorInput(Path.of(file)), TraceEditor.ID);
        robot.waitUntil("the trace has loaded", () -> editor.loadedTrace() != null, Duration.ofMinutes(3));
        int all = editor.loadedTrace().trace().launchCount();
        LaunchesView view = (LaunchesView) page.showView(LaunchesView.ID);
        robot.waitUntil("the Launches view lists all launches", () -> view.trace() == editor.loadedTrace()
                && view.rowCount() == all, Duration.ofMinutes(3));
        page.activate(view);
        page.setPartState(page.getReference(view), IWorkbenchPage.STATE_MAXIMIZED);
        robot.spin(1000);
        List<String> lines = new ArrayList<>();
        lines.add(String.format("trace %s: %,d launches; table %d px wide, %d rows on screen", file, all,
                view.tableWidth(), view.visibleRows()));
        for (String order : new String[] { "launch order", "sorted by -gpu_ns" }) {
            if (order.startsWith("sorted")) {
                view.sortByHeader("gpu_ns");
                view.sortByHeader("gpu_ns"); // a second click: descending
                robot.waitUntil("the sorted listing", () -> view.query() != null
                        && view.query().sort().descending() && view.rowCount() == all, Duration.ofMinutes(3));
                robot.spin(500);
            }
            Random random = new Random(1);
            int screen = view.visibleRows();
            long[] step = new long[RUNS];
            long[] pageDown = new long[RUNS];
            long[] jump = new long[RUNS];
            int row = all / 3;
            for (int i = -10; i < RUNS; i++) { // 10 warm-up rounds of each move
                long t0 = System.nanoTime();
                view.scrollToRow(++row);
                long t1 = System.nanoTime();
                row += screen;
                view.scrollToRow(row);
                long t2 = System.nanoTime();
                row = random.nextInt(Math.max(1, all - screen));
                view.scrollToRow(row);
                long t3 = System.nanoTime();
                if (i >= 0) {
                    step[i] = t1 - t0;
                    pageDown[i] = t2 - t1;
                    jump[i] = t3 - t2;
                }
                robot.spin(5);
            }
            lines.add(order + ", one row down:    " + figures(step));
            lines.add(order + ", one screen down: " + figures(pageDown));
            lines.add(order + ", random jump:     " + figures(jump));
        }
        page.setPartState(page.getReference(view), IWorkbenchPage.STATE_RESTORED);
        for (String l : lines) {
            System.out.println("launches-bench: " + l);
        }
        Path out = Path.of(System.getProperty("phos.screenshots", "target/screenshots")).getParent()
                .resolve("launches-bench.txt");
        Files.write(out, lines);
        robot.screenshot(shell, "launches-bench");
        page.closeAllEditors(false);
    }
}
