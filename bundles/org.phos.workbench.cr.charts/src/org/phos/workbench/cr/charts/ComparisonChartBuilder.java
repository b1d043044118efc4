package org.phos.workbench.cr.charts;

import java.awt.Font;
import java.awt.Paint;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;
import org.phos.workbench.cr.core.SimulationMetrics;

/**
 * Several runs of one workload side by side (policies, machines or access-set sources): one panel per
 * {@link ComparisonMetric}, stacked, sharing the run axis; each run keeps its colour in every panel and bars carry
 * their value. Units are chosen per panel from the largest value (µs to s, KiB to GiB). Runs for which a figure does
 * not apply have no bar in that panel.
 * <p>
 * The dataset of each panel has one row (the metric's label) and one column per run, in the map's order.
 */
public final class ComparisonChartBuilder {
    private final ChartPalette palette;
    private String title = "C/R policies compared";
    private List<ComparisonMetric> metrics = List.of(ComparisonMetric.values());

    public ComparisonChartBuilder(ChartPalette palette) {
        this.palette = palette;
    }

    public ComparisonChartBuilder title(String chartTitle) {
        this.title = chartTitle;
        return this;
    }

    public ComparisonChartBuilder metrics(List<ComparisonMetric> shown) {
        if (shown.isEmpty()) {
            throw new IllegalArgumentException("a comparison needs at least one metric");
        }
        this.metrics = List.copyOf(shown);
        return this;
    }

    /** A height that gives each panel room for its axis and labels. */
    public int suggestedHeight() {
        return 120 + 160 * metrics.size();
    }

    public JFreeChart build(Map<String, SimulationMetrics> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("nothing to compare: no runs");
        }
        List<String> names = new ArrayList<>(runs.keySet());
        CategoryAxis runAxis = new CategoryAxis("run");
        runAxis.setMaximumCategoryLabelLines(3);
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(runAxis);
        plot.setGap(14);
        for (ComparisonMetric metric : metrics) {
            plot.add(panel(metric, runs, names), 1);
        }
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, false);
        chart.setBackgroundPaint(palette.background());
        return chart;
    }

    private CategoryPlot panel(ComparisonMetric metric, Map<String, SimulationMetrics> runs, List<String> names) {
        double max = 0;
        for (SimulationMetrics m : runs.values()) {
            double v = metric.value(m);
            if (!Double.isNaN(v)) {
                max = Math.max(max, Math.abs(v));
            }
        }
        String unit;
        double scale;
        switch (metric.kind()) {
            case TIME -> {
                TimeUnitScale t = TimeUnitScale.forSpan((long) max);
                unit = t.label();
                scale = t.nanos();
            }
            case BYTES -> {
                ByteUnitScale b = ByteUnitScale.forMax((long) max);
                unit = b.label();
                scale = b.bytes();
            }
            default -> {
                unit = "%";
                scale = 0.01;
            }
        }
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (String run : names) {
            double v = metric.value(runs.get(run));
            data.addValue(Double.isNaN(v) ? null : v / scale, metric.label(), run);
        }
        NumberAxis axis = new NumberAxis(metric.label() + " (" + unit + ")");
        axis.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        axis.setAutoRangeIncludesZero(true);
        axis.setUpperMargin(0.18);
        BarRenderer renderer = new BarRenderer() {
            private static final long serialVersionUID = 1L;

            @Override
            public Paint getItemPaint(int row, int column) {
                return palette.run(column);
            }
        };
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setMaximumBarWidth(0.12);
        renderer.setDefaultItemLabelGenerator(
                new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat("#,##0.###")));
        renderer.setDefaultItemLabelsVisible(true);
        renderer.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        CategoryPlot p = new CategoryPlot(data, null, axis, renderer);
        p.setBackgroundPaint(palette.background());
        p.setRangeGridlinePaint(palette.grid());
        return p;
    }
}
