package org.phos.workbench.cr.charts;

import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.category.DefaultCategoryDataset;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.TimelineInterval;

/**
 * Where the bytes of several runs went, side by side: per run, one bar per lane that moved bytes (the application's
 * copy engines and the C/R lanes: copy-on-write, commit, restore), and under it the copy-on-write count. Completes
 * {@link ComparisonChartBuilder}, whose C/R-bytes panel sums the C/R lanes. Lanes keep the colour of their work in
 * the timeline chart ({@link ChartPalette#category}: C/R lanes warm, copy engines in shades of the copy colour); the
 * count bars keep each run's colour.
 * <p>
 * The lanes panel's dataset has one row per lane (by name) and one column per run, in the map's order; the count
 * panel's one row and one column per run.
 */
public final class LaneBytesChartBuilder {
    /** The row key of the copy-on-write count panel. */
    public static final String COW_COUNT = "CoW count";

    private final ChartPalette palette;
    private String title = "C/R bytes by lane and copy-on-writes";

    public LaneBytesChartBuilder(ChartPalette palette) {
        this.palette = palette;
    }

    public LaneBytesChartBuilder title(String chartTitle) {
        this.title = chartTitle;
        return this;
    }

    /** A height that gives both panels room for their axes, labels and the legend, in a chart of their own. */
    public int suggestedHeight() {
        return 120 + addedHeight();
    }

    /** The colour of lane {@code lane} (a key of {@link SimulationMetrics#bytesPerLane()}). */
    public Color laneColor(String lane) {
        String l = lane.toLowerCase(Locale.ROOT);
        if (l.contains("cow")) {
            return palette.category(TimelineInterval.COW);
        }
        if (l.contains("commit")) {
            return palette.category(TimelineInterval.COMMIT);
        }
        if (l.contains("restore")) {
            return palette.category(TimelineInterval.RESTORE);
        }
        if (l.contains("recopy")) {
            return palette.category(TimelineInterval.RECOPY);
        }
        Color copy = palette.category(TimelineInterval.COPY);
        if (l.contains("h2d")) {
            return copy.darker();
        }
        if (l.contains("d2d")) {
            return new Color((copy.getRed() + 255) / 2, (copy.getGreen() + 255) / 2, (copy.getBlue() + 255) / 2);
        }
        return copy;
    }

    /** A chart of its own: the two panels over the run axis, the lanes' legend under them. */
    public JFreeChart build(Map<String, SimulationMetrics> runs) {
        CategoryAxis runAxis = new CategoryAxis("run");
        runAxis.setMaximumCategoryLabelLines(3);
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(runAxis);
        plot.setGap(14);
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, false);
        chart.setBackgroundPaint(palette.background());
        addPanels(chart, runs);
        return chart;
    }

    /** Extra height {@link #addPanels} needs under a chart's own. */
    public int addedHeight() {
        return 3 * 160 + 40;
    }

    /**
     * Adds the two panels under the panels of {@code chart}, a {@link ComparisonChartBuilder} chart of the same runs
     * (its plot shares the run axis), and the lanes' legend at its bottom: one figure, one file.
     */
    public void addPanels(JFreeChart chart, Map<String, SimulationMetrics> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("nothing to compare: no runs");
        }
        if (!(chart.getPlot() instanceof CombinedDomainCategoryPlot plot)) {
            throw new IllegalArgumentException("the lanes' panels go under a comparison chart's run axis");
        }
        List<String> names = new ArrayList<>(runs.keySet());
        TreeSet<String> lanes = new TreeSet<>();
        long max = 0;
        for (SimulationMetrics m : runs.values()) {
            lanes.addAll(m.bytesPerLane().keySet());
            for (long b : m.bytesPerLane().values()) {
                max = Math.max(max, b);
            }
        }
        ByteUnitScale unit = ByteUnitScale.forMax(max);
        DefaultCategoryDataset bytes = new DefaultCategoryDataset();
        for (String lane : lanes) {
            for (String run : names) {
                Long b = runs.get(run).bytesPerLane().get(lane);
                bytes.addValue(b == null ? null : unit.of(b), lane, run);
            }
        }
        List<String> laneList = new ArrayList<>(lanes);
        BarRenderer laneBars = renderer("#,##0.##"); // a few bytes on a KiB axis still read as more than 0
        for (int s = 0; s < laneList.size(); s++) {
            laneBars.setSeriesPaint(s, laneColor(laneList.get(s)));
        }
        laneBars.setMaximumBarWidth(0.05);
        laneBars.setItemMargin(0.04);
        plot.add(panel(bytes, "bytes by lane (" + unit.label() + ")", laneBars), 2);

        DefaultCategoryDataset cows = new DefaultCategoryDataset();
        for (String run : names) {
            cows.addValue(runs.get(run).cowCount(), COW_COUNT, run);
        }
        BarRenderer cowBars = new BarRenderer() {
            private static final long serialVersionUID = 1L;

            @Override
            public Paint getItemPaint(int row, int column) {
                return palette.run(column);
            }
        };
        style(cowBars, "#,##0");
        cowBars.setMaximumBarWidth(0.12);
        plot.add(panel(cows, "copy-on-writes", cowBars), 1);

        LegendTitle legend = new LegendTitle(laneBars);
        legend.setPosition(RectangleEdge.BOTTOM);
        legend.setBackgroundPaint(palette.background());
        chart.addSubtitle(legend);
    }

    private CategoryPlot panel(DefaultCategoryDataset data, String label, BarRenderer renderer) {
        NumberAxis axis = new NumberAxis(label);
        axis.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        axis.setAutoRangeIncludesZero(true);
        axis.setUpperMargin(0.18);
        if (label.startsWith("copy-on-writes")) {
            axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        }
        CategoryPlot p = new CategoryPlot(data, null, axis, renderer);
        p.setBackgroundPaint(palette.background());
        p.setRangeGridlinePaint(palette.grid());
        return p;
    }

    private static BarRenderer renderer(String format) {
        BarRenderer r = new BarRenderer();
        style(r, format);
        return r;
    }

    private static void style(BarRenderer r, String format) {
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat(format)));
        r.setDefaultItemLabelsVisible(true);
        r.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
    }
}
