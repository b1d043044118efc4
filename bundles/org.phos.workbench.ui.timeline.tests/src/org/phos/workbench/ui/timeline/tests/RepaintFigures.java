package org.phos.workbench.ui.timeline.tests;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.widgets.Display;
import org.phos.workbench.internal.ui.timeline.SliceFetcher;
import org.phos.workbench.internal.ui.timeline.TimeWindow;
import org.phos.workbench.internal.ui.timeline.TimelineCanvas;
import org.phos.workbench.internal.ui.timeline.TimelineLayout;
import org.phos.workbench.internal.ui.timeline.TimelineNavigator;

/**
 * The repaint measurement of a timeline canvas (the Trace Timeline's and the C/R Timeline's benchmarks share it):
 * fetch with level of detail + paint into an offscreen image at {@code width} px of data, exactly the view's code
 * path, at whole, mid (1/100) and deep (1/100,000) zoom around the middle: after a one-pixel pan (the fetch runs),
 * for the same window (the fetch is reused), and the fetch alone. One line per zoom level.
 */
final class RepaintFigures {
    static final int RUNS = 40;

    /** Median of each zoom's repaints after a one-pixel pan, filled by {@link #measure}, in ns: whole, mid, deep. */
    final long[] pannedMedians = new long[3];

    /**
     * A benchmark's system property, "" when unset: the pom passes its empty default, which Tycho hands to the test
     * runtime as the text {@code null}.
     */
    static String property(String name) {
        String v = System.getProperty(name, "").trim();
        return v.equals("null") ? "" : v;
    }

    static String figures(long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        return String.format("median %.2f ms, p95 %.2f ms, max %.2f ms", s[s.length / 2] / 1e6,
                s[(int) Math.ceil(s.length * 0.95) - 1] / 1e6, s[s.length - 1] / 1e6);
    }

    private static long median(long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    List<String> measure(Display display, TimelineCanvas canvas, int width) {
        TimelineNavigator nav = canvas.navigator();
        TimeWindow whole = nav.bounds();
        int lanes = canvas.index().lanes().size();
        int labelWidth = canvas.layout().labelWidth();
        TimelineLayout layout = new TimelineLayout(labelWidth, labelWidth + width, TimelineLayout.preferredHeight(lanes));
        List<String> lines = new ArrayList<>();
        long mid = whole.fromNs() + whole.span() / 2;
        long[] spans = { whole.span(), Math.max(1000, whole.span() / 100), Math.max(1000, whole.span() / 100_000) };
        String[] names = { "whole", "mid zoom (1/100)", "deep zoom (1/100000)" };
        Image image = new Image(display, layout.width(), layout.height());
        GC gc = new GC(image);
        try {
            for (int z = 0; z < spans.length; z++) {
                long from = mid - spans[z] / 2;
                long px = Math.max(1, spans[z] / layout.dataWidth());
                for (int i = 0; i < 10; i++) { // warm-up: the same moves as measured below
                    long f = from + (i % 2) * px;
                    nav.show(f, f + spans[z] - px);
                    canvas.paintInto(gc, layout);
                }
                nav.show(from, from + spans[z]);
                // each repaint after a one-pixel move: a new window every time (also at whole zoom, where a pan is
                // clamped: the window is one pixel narrower, alternately at either end), so the fetch runs
                long[] panned = new long[RUNS];
                TimeWindow previous = nav.window();
                for (int i = 0; i < RUNS; i++) {
                    long f = from + (i % 2) * px;
                    nav.show(f, f + spans[z] - px);
                    if (nav.window().equals(previous)) {
                        throw new AssertionError("the window did not move: " + previous);
                    }
                    previous = nav.window();
                    long a = System.nanoTime();
                    canvas.paintInto(gc, layout);
                    panned[i] = System.nanoTime() - a;
                }
                pannedMedians[z] = median(panned);
                // the same window repainted (an expose, a new selection mark): the fetch is reused
                nav.show(from, from + spans[z]);
                canvas.paintInto(gc, layout);
                long[] same = new long[RUNS];
                for (int i = 0; i < RUNS; i++) {
                    long a = System.nanoTime();
                    canvas.paintInto(gc, layout);
                    same[i] = System.nanoTime() - a;
                }
                // the fetch alone, for the breakdown
                SliceFetcher fetcher = new SliceFetcher(canvas.index());
                long[] fetch = new long[RUNS];
                for (int i = 0; i < RUNS; i++) {
                    long f = from + (i % 2) * px;
                    long a = System.nanoTime();
                    fetcher.fetch(new TimeWindow(f, f + spans[z] - px), layout.dataWidth());
                    fetch[i] = System.nanoTime() - a;
                }
                lines.add(String.format("%-22s window %,15d ns, %d px: repaint after a 1-px pan: %s; same window: %s;"
                        + " fetch alone: %s", names[z], nav.window().span(), layout.dataWidth(), figures(panned),
                        figures(same), figures(fetch)));
            }
        } finally {
            gc.dispose();
            image.dispose();
        }
        lines.add(String.format("(%d repaints each; median / p95 / max)", RUNS));
        return lines;
    }
}
