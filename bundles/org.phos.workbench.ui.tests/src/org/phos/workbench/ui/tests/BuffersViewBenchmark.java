package org.phos.workbench.ui.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.ui.buffers.BuffersView;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * Figures of the Buffers view on a large trace, in the running workbench under Xvfb: time from {@code show(trace)} to
 * the memory map's first paint with allocations (allocation table query and address layout in a Job, then table and
 * map filled), then the map's repaint at 1600 px wide into an offscreen image (the view's own paint code), with the
 * allocations redrawn (cold: as after a resize) and from the cached allocations image (warm: as when the selected
 * launch or allocation changes). Runs only with {@code -Dphos.buffers.bench=TRACE.phos}; figures go to stdout and to
 * {@code target/buffers-bench.txt}.
 */
class BuffersViewBenchmark {
    private static final int WIDTH = 1600;
    private static final int HEIGHT = 600;

    @Test
    void firstPaintAndRepaint() throws Exception {
        String file = System.getProperty("phos.buffers.bench", "");
        if (file.isEmpty()) {
            System.out.println("buffers benchmark skipped: no -Dphos.buffers.bench=TRACE");
            return;
        }
        IWorkbenchWindow window = PlatformUI.getWorkbench().getWorkbenchWindows()[0];
        Shell shell = window.getShell();
        UiRobot robot = new UiRobot(shell.getDisplay());
        long t0 = System.nanoTime();
        TraceLoadResult r = TraceReader.read(Path.of(file), null);
        long loadNs = System.nanoTime() - t0;
        LoadedTrace trace = new LoadedTrace(Path.of(file), r.trace(), r.warnings(), r.anomalies());
        IWorkbenchPage page = window.getActivePage();
        BuffersView view = (BuffersView) page.showView(BuffersView.ID);
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "trace %s: %,d events, %,d launches; load %.2f s%n", file,
                r.trace().eventCount(), r.trace().launchCount(), loadNs / 1e9));
        double[] first = new double[3];
        for (int run = 0; run < first.length; run++) {
            view.show(null);
            robot.spin(200);
            view.show(trace);
            robot.waitUntil("the map paints the allocations", () -> view.firstPaintNanos() > 0, Duration.ofMinutes(3));
            first[run] = view.firstPaintNanos() / 1e6;
        }
        out.append(String.format(Locale.ROOT, "show -> first map paint with %,d allocations: %s ms (median %.1f)%n",
                view.rows().size(), Arrays.toString(first), median(first)));
        // the selected launch: accesses of a launch in the middle (walks the engines from the start)
        int launch = r.trace().launchCount() / 2;
        long s0 = System.nanoTime();
        view.showLaunch(new LaunchSelection(trace, launch));
        robot.waitUntil("the map draws launch " + launch, () -> view.overlayLaunch() == launch, Duration.ofMinutes(5));
        out.append(String.format(Locale.ROOT, "launch %,d selected -> its ranges drawn: %.0f ms (access query, cold)%n",
                launch, (System.nanoTime() - s0) / 1e6));
        assertTrue(view.rows().size() > 0);
        for (boolean cold : new boolean[] { true, false }) {
            view.timeRepaints(WIDTH, HEIGHT, 5, cold);
            long[] ns = view.timeRepaints(WIDTH, HEIGHT, 40, cold);
            double[] ms = Arrays.stream(ns).mapToDouble(n -> n / 1e6).sorted().toArray();
            out.append(String.format(Locale.ROOT, "repaint %dx%d, %s: median %.2f ms, p95 %.2f ms, max %.2f ms%n", WIDTH,
                    HEIGHT, cold ? "allocations redrawn" : "allocations cached, overlay drawn", median(ms),
                    ms[(int) Math.ceil(0.95 * ms.length) - 1], ms[ms.length - 1]));
        }
        System.out.print(out);
        Path report = Path.of(System.getProperty("phos.screenshots", "target")).getParent().resolve("buffers-bench.txt");
        Files.writeString(report, out.toString());
        robot.screenshot(shell, "buffers-bench");
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
