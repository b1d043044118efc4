package org.phos.workbench.cr.charts;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.text.DecimalFormat;
import java.util.List;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.SeriesRenderingOrder;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYAreaRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Small charts for overview pages (a trace's kernels by GPU time, its live memory by kind, launches per stream):
 * compact, without a title (the page titles them), in the colours given, built UI-free so that they render to PNG/SVG
 * headless and embed in SWT alike. Values arrive already scaled; the axis label names the unit.
 */
public final class SmallChartBuilder {
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final Font TICK = new Font(Font.SANS_SERIF, Font.PLAIN, 10);
    private final ChartPalette palette;

    public SmallChartBuilder(ChartPalette palette) {
        this.palette = palette;
    }

    /**
     * Horizontal bars, one per category, largest expected first (top), each labelled with its value.
     *
     * @param valueLabel the value axis label, with its unit
     * @param categories the bar names (shown at the left; keep them short)
     * @param values one value per category
     * @param color the bars' colour
     * @param format how bar labels print a value
     */
    public JFreeChart bars(String valueLabel, List<String> categories, double[] values, Color color, String format) {
        if (categories.size() != values.length) {
            throw new IllegalArgumentException(categories.size() + " categories but " + values.length + " values");
        }
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (int i = 0; i < values.length; i++) {
            // categories must be unique keys: a repeated name gets an invisible suffix
            String key = categories.get(i);
            while (data.getColumnIndex(key) >= 0) {
                key = key + "\u200b";
            }
            data.addValue(values[i], valueLabel, key);
        }
        CategoryAxis names = new CategoryAxis(null);
        names.setTickLabelFont(TICK);
        names.setTickLabelPaint(palette.foreground());
        names.setMaximumCategoryLabelWidthRatio(0.45f);
        names.setCategoryMargin(0.15);
        names.setLowerMargin(0.02);
        names.setUpperMargin(0.02);
        NumberAxis axis = axis(valueLabel);
        axis.setUpperMargin(0.3); // room for the value label right of the longest bar
        BarRenderer renderer = new BarRenderer();
        renderer.setSeriesPaint(0, color);
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setMaximumBarWidth(0.08);
        renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat(format)));
        renderer.setDefaultItemLabelsVisible(true);
        renderer.setDefaultItemLabelFont(TICK);
        renderer.setDefaultItemLabelPaint(palette.foreground());
        // the value just right of the bar's end, where it stays readable for short bars too
        renderer.setDefaultPositiveItemLabelPosition(new ItemLabelPosition(ItemLabelAnchor.OUTSIDE3,
                TextAnchor.CENTER_LEFT));
        renderer.setItemLabelAnchorOffset(3);
        CategoryPlot plot = new CategoryPlot(data, names, axis, renderer);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        plot.setRangeAxisLocation(AxisLocation.BOTTOM_OR_LEFT);
        plot.setBackgroundPaint(palette.background());
        plot.setRangeGridlinePaint(palette.grid());
        plot.setOutlineVisible(false);
        plot.setInsets(new RectangleInsets(4, 4, 4, 12));
        return chart(plot, false);
    }

    /**
     * Stacked areas over x: series {@code s} is drawn on top of series {@code 0..s-1}.
     *
     * @param xLabel the x axis label, with its unit
     * @param yLabel the y axis label, with its unit
     * @param series the series names (legend)
     * @param x the sample positions, ascending
     * @param y {@code y[s][i]}: series {@code s} at {@code x[i]}
     * @param colors one colour per series
     */
    public JFreeChart stackedArea(String xLabel, String yLabel, List<String> series, double[] x, double[][] y,
            List<Color> colors) {
        if (series.size() != y.length || colors.size() != y.length) {
            throw new IllegalArgumentException(series.size() + " series names, " + y.length + " series and "
                    + colors.size() + " colours");
        }
        XYSeriesCollection data = new XYSeriesCollection();
        double[] sum = new double[x.length];
        XYSeries[] stacked = new XYSeries[y.length];
        for (int s = 0; s < y.length; s++) {
            stacked[s] = new XYSeries(series.get(s), false, true);
            for (int i = 0; i < x.length; i++) {
                sum[i] += y[s][i];
                stacked[s].add(x[i], sum[i]);
            }
        }
        // painted in reverse order (the plot's setting below): the highest cumulative curve, the last series, goes
        // first, behind; series 0 ends in front
        for (int s = 0; s < y.length; s++) {
            data.addSeries(stacked[s]);
        }
        XYAreaRenderer renderer = new XYAreaRenderer(XYAreaRenderer.AREA);
        for (int s = 0; s < y.length; s++) {
            renderer.setSeriesPaint(s, colors.get(s));
        }
        renderer.setOutline(false);
        NumberAxis xAxis = axis(xLabel);
        xAxis.setAutoRangeIncludesZero(false);
        xAxis.setLowerMargin(0);
        xAxis.setUpperMargin(0);
        NumberAxis yAxis = axis(yLabel);
        yAxis.setUpperMargin(0.08);
        XYPlot plot = new XYPlot(data, xAxis, yAxis, renderer);
        plot.setSeriesRenderingOrder(SeriesRenderingOrder.REVERSE);
        plot.setBackgroundPaint(palette.background());
        plot.setDomainGridlinePaint(palette.grid());
        plot.setRangeGridlinePaint(palette.grid());
        plot.setDomainGridlineStroke(new BasicStroke(0.5f));
        plot.setRangeGridlineStroke(new BasicStroke(0.5f));
        plot.setOutlineVisible(false);
        plot.setInsets(new RectangleInsets(4, 4, 4, 12));
        JFreeChart chart = chart(plot, true);
        return chart;
    }

    private NumberAxis axis(String label) {
        NumberAxis axis = new NumberAxis(label);
        axis.setLabelFont(LABEL);
        axis.setTickLabelFont(TICK);
        axis.setLabelPaint(palette.foreground());
        axis.setTickLabelPaint(palette.foreground());
        axis.setAxisLinePaint(palette.grid());
        return axis;
    }

    private JFreeChart chart(org.jfree.chart.plot.Plot plot, boolean legend) {
        JFreeChart chart = new JFreeChart(null, LABEL, plot, legend);
        chart.setBackgroundPaint(palette.background());
        chart.setAntiAlias(true);
        chart.setTextAntiAlias(true);
        chart.setPadding(new RectangleInsets(2, 2, 2, 2));
        if (legend) {
            LegendTitle l = chart.getLegend();
            l.setItemFont(TICK);
            l.setItemPaint(palette.foreground());
            l.setBackgroundPaint(palette.background());
            l.setFrame(BlockBorder.NONE);
            l.setPosition(RectangleEdge.TOP);
        }
        return chart;
    }

    /** @return a colour's AWT form from red, green, blue (for callers holding theme RGB values) */
    public static Color color(int red, int green, int blue) {
        return new Color(red, green, blue);
    }
}
