package org.phos.workbench.cr.charts;

import java.awt.Color;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.Axis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.CategoryItemRenderer;
import org.jfree.chart.renderer.xy.XYItemRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.title.Title;

/**
 * Paints a built chart's text in its palette's foreground: title, axis labels and ticks, legend items, bar values.
 * JFreeChart draws them dark grey by default, which reads on white but vanishes on a dark theme's background; the
 * builders leave them at the default so the files stay as they were, and the workbench applies this for its theme.
 */
public final class ChartText {
    private ChartText() {
    }

    /** Every text of {@code chart} in {@code palette}'s foreground, axis lines in its grid colour. */
    public static JFreeChart apply(JFreeChart chart, ChartPalette palette) {
        Color fg = palette.foreground();
        TextTitle title = chart.getTitle();
        if (title != null) {
            title.setPaint(fg);
        }
        for (int i = 0; i < chart.getSubtitleCount(); i++) {
            Title t = chart.getSubtitle(i);
            if (t instanceof LegendTitle l) {
                l.setItemPaint(fg);
                l.setBackgroundPaint(palette.background());
            } else if (t instanceof TextTitle tt) {
                tt.setPaint(fg);
            }
        }
        plot(chart.getPlot(), palette);
        return chart;
    }

    private static void plot(Plot plot, ChartPalette palette) {
        if (plot instanceof CombinedDomainCategoryPlot c) {
            axis(c.getDomainAxis(), palette);
            for (Object p : c.getSubplots()) {
                plot((Plot) p, palette);
            }
        } else if (plot instanceof CombinedDomainXYPlot c) {
            axis(c.getDomainAxis(), palette);
            for (Object p : c.getSubplots()) {
                plot((Plot) p, palette);
            }
        }
        if (plot instanceof CategoryPlot p) {
            for (int i = 0; i < p.getDomainAxisCount(); i++) {
                axis(p.getDomainAxis(i), palette);
            }
            for (int i = 0; i < p.getRangeAxisCount(); i++) {
                axis(p.getRangeAxis(i), palette);
            }
            for (int i = 0; i < p.getRendererCount(); i++) {
                CategoryItemRenderer r = p.getRenderer(i);
                if (r != null) {
                    r.setDefaultItemLabelPaint(palette.foreground());
                }
            }
        } else if (plot instanceof XYPlot p) {
            for (int i = 0; i < p.getDomainAxisCount(); i++) {
                axis(p.getDomainAxis(i), palette);
            }
            for (int i = 0; i < p.getRangeAxisCount(); i++) {
                axis(p.getRangeAxis(i), palette);
            }
            for (int i = 0; i < p.getRendererCount(); i++) {
                XYItemRenderer r = p.getRenderer(i);
                if (r != null) {
                    r.setDefaultItemLabelPaint(palette.foreground());
                }
            }
        }
        plot.setNoDataMessagePaint(palette.foreground());
    }

    private static void axis(Axis axis, ChartPalette palette) {
        if (axis == null) {
            return;
        }
        axis.setLabelPaint(palette.foreground());
        axis.setTickLabelPaint(palette.foreground());
        axis.setAxisLinePaint(palette.grid());
        axis.setTickMarkPaint(palette.grid());
    }
}
