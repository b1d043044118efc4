package org.phos.workbench.internal.ui.cr;

import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Event;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.swt.ChartComposite;
import org.phos.workbench.cr.charts.ChartFiles;
import org.phos.workbench.cr.charts.ChartPalette;
import org.phos.workbench.cr.charts.ChartText;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.buffers.BuffersTheme;

/**
 * A chart built by {@code cr.charts} embedded with jfreechart-swt's {@link ChartComposite}, and what it shows as a
 * file: {@link #png()} and {@link #svg()} draw the same chart object at the size it has on screen, so a zoom (a drag
 * over an XY chart, or Ctrl+wheel) is in the file as it is on screen. Colours come from the theme
 * ({@link #palette()}: the theme's background and text, the C/R palette's run and lane colours).
 */
public final class ChartBox {
    /** Ctrl+wheel: each notch zooms the time axis by this factor around the pointer. */
    static final double WHEEL_ZOOM = 0.8;

    private final Composite parent;
    private final String role;
    private final boolean zoomable;
    private @Nullable ChartComposite composite;
    private @Nullable JFreeChart chart;

    /**
     * @param parent where the chart goes (a GridLayout: the chart fills a row)
     * @param role the chart's role for tests
     * @param zoomable whether the time axis zooms (drag a range, Ctrl+wheel; a drag to the left resets)
     */
    public ChartBox(Composite parent, String role, boolean zoomable) {
        this.parent = parent;
        this.role = role;
        this.zoomable = zoomable;
    }

    /** The palette of the current theme: its background and text colour; runs and lanes as in the CLI's charts. */
    public static ChartPalette palette() {
        RGB bg = BuffersTheme.rgb("background");
        RGB fg = BuffersTheme.rgb("foreground");
        RGB grid = new RGB((bg.red * 3 + fg.red) / 4, (bg.green * 3 + fg.green) / 4, (bg.blue * 3 + fg.blue) / 4);
        return new ChartPalette(awt(bg), awt(fg), awt(grid));
    }

    private static Color awt(RGB rgb) {
        return new Color(rgb.red, rgb.green, rgb.blue);
    }

    /**
     * Shows {@code built} (its text painted in {@code palette}'s foreground) in place of the chart shown before.
     *
     * @param heightHint the chart's height in pixels (its width follows the view)
     */
    public void setChart(JFreeChart built, ChartPalette palette, int heightHint) {
        ChartText.apply(built, palette);
        ChartComposite old = composite;
        if (old != null) {
            old.dispose();
        }
        // no properties, save or print menus (the view's toolbar exports); zoom menu only where it zooms
        ChartComposite c = new ChartComposite(parent, SWT.NONE, built, 600, heightHint, 200, 120, 4000, 3000, true,
                false, false, false, zoomable, true);
        c.setData(TracesView.ROLE, role);
        c.setDomainZoomable(zoomable);
        c.setRangeZoomable(false);
        if (zoomable) {
            // the chart is painted on an inner canvas, which receives the wheel
            c.addListener(SWT.MouseWheel, this::wheel);
            for (org.eclipse.swt.widgets.Control child : c.getChildren()) {
                child.addListener(SWT.MouseWheel, this::wheel);
            }
        }
        GridDataFactory.fillDefaults().grab(true, false).hint(200, heightHint).applyTo(c);
        composite = c;
        chart = built;
        parent.layout(true, true);
    }

    /** Removes the chart. */
    public void clear() {
        ChartComposite old = composite;
        if (old != null) {
            old.dispose();
        }
        composite = null;
        chart = null;
    }

    private void wheel(Event e) {
        ChartComposite c = composite;
        JFreeChart ch = chart;
        if ((e.stateMask & SWT.MOD1) == 0 || c == null || ch == null || !(ch.getPlot() instanceof XYPlot plot)) {
            return;
        }
        Rectangle area = c.getScreenDataArea();
        if (area.width <= 0) {
            return;
        }
        double at = Math.max(0, Math.min(1, (e.x - area.x) / (double) area.width));
        zoomDomain(plot.getDomainAxis(), at, e.count > 0 ? WHEEL_ZOOM : 1 / WHEEL_ZOOM);
        e.doit = false;
    }

    /** Scales {@code axis}'s range by {@code factor} keeping the value at fraction {@code at} of it in place. */
    static void zoomDomain(ValueAxis axis, double at, double factor) {
        double lo = axis.getLowerBound();
        double hi = axis.getUpperBound();
        double pivot = lo + at * (hi - lo);
        axis.setRange(pivot - (pivot - lo) * factor, pivot + (hi - pivot) * factor);
    }

    /** Back to the whole range (after a zoom). */
    public void resetZoom() {
        ChartComposite c = composite;
        if (c != null) {
            c.restoreAutoBounds();
        }
    }

    /** The chart shown, or null. */
    public @Nullable JFreeChart chart() {
        return chart;
    }

    /** The chart's control, or null. */
    public @Nullable ChartComposite control() {
        return composite;
    }

    /** The size the chart has on screen (what the exports draw), at least 200 by 120. */
    public Point size() {
        ChartComposite c = composite;
        Point s = c == null ? new Point(0, 0) : c.getSize();
        return new Point(Math.max(200, s.x), Math.max(120, s.y));
    }

    /** The chart as shown, as PNG. */
    public byte[] png() throws IOException {
        JFreeChart ch = requireChart();
        Point s = size();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChartFiles.writePng(ch, out, s.x, s.y);
        return out.toByteArray();
    }

    /** The chart as shown, as an SVG document. */
    public byte[] svg() {
        JFreeChart ch = requireChart();
        Point s = size();
        return ChartFiles.svg(ch, s.x, s.y).getBytes(StandardCharsets.UTF_8);
    }

    private JFreeChart requireChart() {
        JFreeChart ch = chart;
        if (ch == null) {
            throw new IllegalStateException("no chart shown");
        }
        return ch;
    }
}
