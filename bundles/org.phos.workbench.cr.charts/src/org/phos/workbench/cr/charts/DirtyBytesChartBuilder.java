package org.phos.workbench.cr.charts;

import java.awt.BasicStroke;
import java.awt.Font;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.phos.workbench.cr.core.CounterSample;
import org.phos.workbench.cr.core.Marker;
import org.phos.workbench.cr.core.TimelineModel;

/**
 * Dirty bytes over time: the bytes written (by the policy's sets) or allocated after a checkpoint's instant, as a
 * step function per run, and for a single run also the spare budget in use by copy-on-write. This is what a recopy
 * or log-and-recompute has to move, and how it grows. Long series are thinned per pixel to first, lowest, highest
 * and last sample, which keeps the step shape's extremes.
 * <p>
 * Series keys are the run names (with {@code : budget used} for the budget series).
 */
public final class DirtyBytesChartBuilder {
    public static final String BUDGET_SUFFIX = ": budget used";

    private final ChartPalette palette;
    private String title = "Dirty bytes after the checkpoint instant";
    private int widthPx = 1200;

    public DirtyBytesChartBuilder(ChartPalette palette) {
        this.palette = palette;
    }

    public DirtyBytesChartBuilder title(String chartTitle) {
        this.title = chartTitle;
        return this;
    }

    public DirtyBytesChartBuilder widthPx(int width) {
        this.widthPx = Math.max(100, width);
        return this;
    }

    /** One run: its dirty bytes, its budget in use, and its markers. */
    public JFreeChart build(String run, TimelineModel model) {
        return build(Map.of(run, model), true);
    }

    /** Several runs overlaid (dirty bytes only). */
    public JFreeChart build(Map<String, TimelineModel> runs) {
        return build(runs, runs.size() == 1);
    }

    private JFreeChart build(Map<String, TimelineModel> runs, boolean detail) {
        long span = 1;
        long max = 1;
        for (TimelineModel m : runs.values()) {
            for (String counter : List.of(CounterSample.DIRTY_BYTES, CounterSample.BUDGET_USED)) {
                for (CounterSample c : m.counter(counter)) {
                    span = Math.max(span, c.timeNs());
                    max = Math.max(max, c.value());
                }
            }
            for (Marker mk : m.markers()) {
                span = Math.max(span, mk.timeNs());
            }
        }
        TimeUnitScale time = TimeUnitScale.forSpan(span);
        ByteUnitScale bytes = ByteUnitScale.forMax(max);
        long resolution = Math.max(1, span / Math.max(1, widthPx - 150));
        XYSeriesCollection data = new XYSeriesCollection();
        XYStepRenderer renderer = new XYStepRenderer();
        renderer.setDefaultShapesVisible(false);
        int index = 0;
        int series = 0;
        for (Map.Entry<String, TimelineModel> run : runs.entrySet()) {
            data.addSeries(series(run.getKey(), run.getValue().counter(CounterSample.DIRTY_BYTES), resolution, time,
                    bytes));
            renderer.setSeriesPaint(series, palette.run(index));
            renderer.setSeriesStroke(series++, new BasicStroke(2f));
            if (detail) {
                List<CounterSample> budget = run.getValue().counter(CounterSample.BUDGET_USED);
                if (!budget.isEmpty()) {
                    data.addSeries(series(run.getKey() + BUDGET_SUFFIX, budget, resolution, time, bytes));
                    renderer.setSeriesPaint(series, palette.runSecondary(index));
                    renderer.setSeriesStroke(series++, new BasicStroke(1.5f, BasicStroke.CAP_BUTT,
                            BasicStroke.JOIN_MITER, 10f, new float[] { 6f, 3f }, 0f));
                }
            }
            index++;
        }
        NumberAxis x = new NumberAxis("simulated time (" + time.label() + ")");
        x.setAutoRangeIncludesZero(false);
        NumberAxis y = new NumberAxis("bytes (" + bytes.label() + ")");
        XYPlot plot = new XYPlot(data, x, y, renderer);
        plot.setBackgroundPaint(palette.background());
        plot.setDomainGridlinePaint(palette.grid());
        plot.setRangeGridlinePaint(palette.grid());
        plot.setNoDataMessage("no dirty-byte samples: the policy tracks no writes after a checkpoint instant");
        if (detail) {
            for (TimelineModel m : runs.values()) {
                for (Marker mk : m.markers()) {
                    ValueMarker line = new ValueMarker(time.of(mk.timeNs()));
                    line.setPaint(palette.marker(mk.label()));
                    line.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                            new float[] { 4f, 3f }, 0f));
                    plot.addDomainMarker(line);
                }
            }
        }
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
        chart.setBackgroundPaint(palette.background());
        LegendTitle legend = chart.getLegend();
        if (legend != null) {
            legend.setPosition(RectangleEdge.BOTTOM);
            legend.setBackgroundPaint(palette.background());
        }
        return chart;
    }

    private static XYSeries series(String key, List<CounterSample> samples, long resolution, TimeUnitScale time,
            ByteUnitScale bytes) {
        XYSeries s = new XYSeries(key, false, true);
        for (CounterSample c : thin(samples, resolution)) {
            s.add(time.of(c.timeNs()), bytes.of(c.value()), false);
        }
        return s;
    }

    /**
     * Keeps, per pixel-wide bucket, the first, lowest, highest and last sample (in time order, without repeats), so
     * that a step function with millions of changes keeps its shape and extremes. Samples must be in time order.
     */
    static List<CounterSample> thin(List<CounterSample> samples, long resolution) {
        if (samples.size() <= 4 || resolution <= 1) {
            return samples;
        }
        List<CounterSample> out = new ArrayList<>();
        int i = 0;
        while (i < samples.size()) {
            long bucket = samples.get(i).timeNs() / resolution;
            int first = i;
            int lo = i;
            int hi = i;
            while (i < samples.size() && samples.get(i).timeNs() / resolution == bucket) {
                if (samples.get(i).value() < samples.get(lo).value()) {
                    lo = i;
                }
                if (samples.get(i).value() > samples.get(hi).value()) {
                    hi = i;
                }
                i++;
            }
            int last = i - 1;
            int[] keep = { first, Math.min(lo, hi), Math.max(lo, hi), last };
            int prev = -1;
            for (int k : keep) {
                if (k > prev) {
                    out.add(samples.get(k));
                    prev = k;
                }
            }
        }
        return out;
    }
}
