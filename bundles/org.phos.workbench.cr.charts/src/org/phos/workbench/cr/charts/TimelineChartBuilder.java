package org.phos.workbench.cr.charts;

import java.awt.BasicStroke;
import java.awt.Font;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.LaneIntervals;
import org.phos.workbench.cr.core.Marker;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.TimelineModel;

/**
 * The timeline of one simulated run as a chart: one row per lane (application streams and host, copy engines, CoW
 * D2D, commit D2H, restore H2D) in the model's order, top to bottom; work as bars coloured by category; stalls drawn
 * taller over the lane they hit, coloured by cause; checkpoint and restore markers as vertical lines. Intervals are
 * merged per lane and series below one pixel ({@link IntervalDecimator}), so a run with millions of launches still
 * gives a chart of a few thousand bars.
 * <p>
 * Series keys are the interval categories ({@code kernel}, {@code cow}, ...) followed by {@code stall: CAUSE}; the
 * row axis is a {@link SymbolAxis} whose symbols are the lane names.
 */
public final class TimelineChartBuilder {
    /** Prefix of the series keys of stalls. */
    public static final String STALL_PREFIX = "stall: ";
    /** Markers are labelled only when there are at most this many (repeated checkpoints would overprint). */
    static final int MAX_LABELLED_MARKERS = 8;

    private final ChartPalette palette;
    private String title = "C/R timeline";
    private int widthPx = 1600;
    private long windowFromNs = -1;
    private long windowToNs = -1;

    public TimelineChartBuilder(ChartPalette palette) {
        this.palette = palette;
    }

    public TimelineChartBuilder title(String chartTitle) {
        this.title = chartTitle;
        return this;
    }

    /** The width the chart will be drawn at; it sets the decimation resolution (one pixel). */
    public TimelineChartBuilder widthPx(int width) {
        if (width < 100) {
            throw new IllegalArgumentException("chart width must be >= 100 px, was " + width);
        }
        this.widthPx = width;
        return this;
    }

    /**
     * Shows only {@code [fromNs, toNs)} (a zoom on the checkpoint, say); intervals crossing the edges are clipped.
     * Without a window the chart shows 0 to the last end.
     */
    public TimelineChartBuilder window(long fromNs, long toNs) {
        if (fromNs < 0 || toNs <= fromNs) {
            throw new IllegalArgumentException("window must satisfy 0 <= from < to, was " + fromNs + ".." + toNs);
        }
        this.windowFromNs = fromNs;
        this.windowToNs = toNs;
        return this;
    }

    /**
     * A window around the checkpoint/restore activity of a run: from the first marker or C/R interval to the last
     * one, with a margin of a quarter of that span on each side; null when the run has no C/R activity.
     */
    public static long @org.eclipse.jdt.annotation.Nullable [] crWindow(TimelineModel model) {
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        for (Marker m : model.markers()) {
            from = Math.min(from, m.timeNs());
            to = Math.max(to, m.timeNs());
        }
        for (Lane lane : model.lanes()) {
            if (lane.kind() == org.phos.workbench.cr.core.LaneKind.CHECKPOINT_RESTORE) {
                LaneIntervals l = model.laneIntervals(lane.id());
                for (int i = 0; i < l.size(); i++) {
                    from = Math.min(from, l.startNs(i));
                    to = Math.max(to, l.endNs(i));
                }
            }
        }
        for (StallInterval s : model.stalls()) {
            from = Math.min(from, s.startNs());
            to = Math.max(to, s.endNs());
        }
        if (from > to) {
            return null;
        }
        long margin = Math.max(1_000, (to - from) / 4);
        return new long[] { Math.max(0, from - margin), to + margin };
    }

    /** A height that gives each lane a readable row at the usual font size. */
    public static int suggestedHeight(TimelineModel model) {
        return 170 + 34 * Math.max(1, model.lanes().size());
    }

    /** Stalls of one cause on one lane, merged below a pixel. */
    private record StallGroup(StallCause cause, int lane) {
    }

    /** A lane's intervals within the chart's window: indices {@code [from, to)} of its sorted columns. */
    private record Shown(LaneIntervals intervals, int from, int to) {
    }

    public JFreeChart build(TimelineModel model) {
        // rows: the lanes with something to show, in the model's order; stalls may hit a lane without intervals.
        // A lane's intervals are read through their columns (sorted once by the model) and a window is found by
        // binary search: a million-interval lane costs one sequential pass over two arrays, not a copy, a sort and
        // a visit of every interval object for each chart
        Map<Integer, Shown> intervals = new LinkedHashMap<>();
        List<StallInterval> stalls = model.stalls().stream()
                .filter(st -> windowToNs < 0 || (st.endNs() >= windowFromNs && st.startNs() <= windowToNs)).toList();
        Map<Integer, Integer> row = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        long span = 1;
        for (Lane lane : model.lanes()) {
            Shown l = inWindow(model.laneIntervals(lane.id()));
            long end = lastEnd(l);
            boolean stalled = stalls.stream().anyMatch(s -> s.lane() == lane.id());
            if (end == Long.MIN_VALUE && !stalled) {
                continue;
            }
            intervals.put(lane.id(), l);
            row.put(lane.id(), row.size());
            names.add(lane.name());
            span = Math.max(span, end);
        }
        for (StallInterval s : stalls) {
            if (!row.containsKey(s.lane())) {
                row.put(s.lane(), row.size());
                names.add(s.lane() == Lane.HOST ? "host" : "lane " + s.lane());
            }
            span = Math.max(span, s.endNs());
        }
        for (Marker m : model.markers()) {
            span = Math.max(span, m.timeNs());
        }
        long from = 0;
        if (windowToNs >= 0) {
            from = windowFromNs;
            span = windowToNs;
        }
        TimeUnitScale unit = TimeUnitScale.forSpan(span - from);
        // the plot area is narrower than the chart (row labels, margins): a conservative pixel
        long resolution = Math.max(0, (span - from) / Math.max(1, widthPx - 220));

        Map<String, List<IntervalDecimator.Bar>> bySeries = new LinkedHashMap<>();
        Map<String, List<Integer>> rowsBySeries = new LinkedHashMap<>();
        for (Map.Entry<Integer, Shown> lane : intervals.entrySet()) {
            Shown l = lane.getValue();
            LaneIntervals li = l.intervals();
            // one decimator per category, in the order of the categories' first interval in the window
            IntervalDecimator[] perCategory = new IntervalDecimator[li.categories().size()];
            int[] order = new int[perCategory.length];
            int categories = 0;
            for (int i = l.from(); i < l.to(); i++) {
                if (windowToNs >= 0 && li.endNs(i) < windowFromNs) {
                    continue;
                }
                int k = li.categoryIndex(i);
                IntervalDecimator d = perCategory[k];
                if (d == null) {
                    d = new IntervalDecimator(resolution);
                    perCategory[k] = d;
                    order[categories++] = k;
                }
                d.add(li.startNs(i), li.endNs(i));
            }
            int r = row.get(lane.getKey());
            for (int c = 0; c < categories; c++) {
                collect(bySeries, rowsBySeries, li.categories().get(order[c]), r, perCategory[order[c]].bars());
            }
        }
        Map<StallGroup, IntervalDecimator> stallDecimators = new LinkedHashMap<>();
        for (StallInterval s : stalls) {
            stallDecimators.computeIfAbsent(new StallGroup(s.cause(), s.lane()),
                    k -> new IntervalDecimator(resolution)).add(s.startNs(), s.endNs());
        }

        XYIntervalSeriesCollection data = new XYIntervalSeriesCollection();
        XYBarRenderer renderer = new XYBarRenderer();
        renderer.setUseYInterval(true);
        renderer.setBarPainter(new StandardXYBarPainter());
        renderer.setShadowVisible(false);
        renderer.setDrawBarOutline(false);
        int series = 0;
        for (Map.Entry<String, List<IntervalDecimator.Bar>> e : bySeries.entrySet()) {
            XYIntervalSeries s = new XYIntervalSeries(e.getKey(), false, true);
            List<Integer> rows = rowsBySeries.get(e.getKey());
            List<IntervalDecimator.Bar> bars = e.getValue();
            for (int k = 0; k < bars.size(); k++) {
                addBar(s, rows.get(k), 0.32, bars.get(k), unit);
            }
            data.addSeries(s);
            renderer.setSeriesPaint(series++, palette.category(e.getKey()));
        }
        // one series per stall cause (lanes merged into it), drawn after the work so that it lies on top
        Map<StallCause, XYIntervalSeries> stallSeries = new LinkedHashMap<>();
        for (Map.Entry<StallGroup, IntervalDecimator> e : stallDecimators.entrySet()) {
            XYIntervalSeries s = stallSeries.computeIfAbsent(e.getKey().cause(),
                    c -> new XYIntervalSeries(stallKey(c), false, true));
            for (IntervalDecimator.Bar b : e.getValue().bars()) {
                addBar(s, row.get(e.getKey().lane()), 0.45, b, unit);
            }
        }
        for (Map.Entry<StallCause, XYIntervalSeries> e : stallSeries.entrySet()) {
            data.addSeries(e.getValue());
            renderer.setSeriesPaint(series++, palette.stall(e.getKey()));
        }

        SymbolAxis laneAxis = new SymbolAxis(null, names.toArray(String[]::new));
        laneAxis.setInverted(true);
        laneAxis.setGridBandsVisible(false);
        laneAxis.setRange(-0.6, Math.max(0.6, names.size() - 0.4));
        NumberAxis timeAxis = new NumberAxis("simulated time (" + unit.label() + ")");
        if (windowToNs >= 0) {
            timeAxis.setRange(unit.of(from), unit.of(span));
        } else {
            timeAxis.setRange(0, unit.of(span) * 1.02);
        }
        XYPlot plot = new XYPlot(data, laneAxis, timeAxis, renderer);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        plot.setBackgroundPaint(palette.background());
        plot.setRangeGridlinePaint(palette.grid());
        plot.setDomainGridlinesVisible(false);
        addMarkers(plot, model.markers().stream()
                .filter(m -> windowToNs < 0 || (m.timeNs() >= windowFromNs && m.timeNs() <= windowToNs)).toList(),
                unit);

        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
        chart.setBackgroundPaint(palette.background());
        LegendTitle legend = chart.getLegend();
        if (legend != null) {
            legend.setPosition(RectangleEdge.BOTTOM);
            legend.setBackgroundPaint(palette.background());
        }
        return chart;
    }

    /** The legend key of stalls of one cause: {@code stall: copy on write}. */
    public static String stallKey(StallCause cause) {
        return STALL_PREFIX + cause.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** The candidates of the window (all of the lane without one); ends before the window are still to skip. */
    private Shown inWindow(LaneIntervals all) {
        if (windowToNs < 0) {
            return new Shown(all, 0, all.size());
        }
        return new Shown(all, all.firstMayEndFrom(windowFromNs), all.endAfterStartsUpTo(windowToNs));
    }

    /** The latest end of the lane's intervals in the window; {@link Long#MIN_VALUE} when there is none. */
    private long lastEnd(Shown l) {
        long end = Long.MIN_VALUE;
        LaneIntervals li = l.intervals();
        for (int i = l.from(); i < l.to(); i++) {
            long e = li.endNs(i);
            if (windowToNs < 0 || e >= windowFromNs) {
                end = Math.max(end, e);
            }
        }
        return end;
    }

    private static void collect(Map<String, List<IntervalDecimator.Bar>> bySeries,
            Map<String, List<Integer>> rowsBySeries, String key, int row, List<IntervalDecimator.Bar> bars) {
        bySeries.computeIfAbsent(key, k -> new ArrayList<>()).addAll(bars);
        List<Integer> rows = rowsBySeries.computeIfAbsent(key, k -> new ArrayList<>());
        for (int i = 0; i < bars.size(); i++) {
            rows.add(row);
        }
    }

    private static void addBar(XYIntervalSeries s, int row, double halfHeight, IntervalDecimator.Bar b,
            TimeUnitScale unit) {
        double from = unit.of(b.startNs());
        double to = unit.of(b.endNs());
        s.add(row, row - halfHeight, row + halfHeight, from, from, to);
    }

    private void addMarkers(XYPlot plot, List<Marker> markers, TimeUnitScale unit) {
        boolean label = markers.size() <= MAX_LABELLED_MARKERS;
        int n = 0;
        for (Marker m : markers) {
            ValueMarker line = new ValueMarker(unit.of(m.timeNs()));
            line.setPaint(palette.marker(m.label()));
            line.setStroke(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[] { 5f, 3f }, 0f));
            if (label) {
                line.setLabel(m.label().replace("checkpoint ", "ckpt "));
                line.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
                line.setLabelPaint(palette.marker(m.label()));
                // alternate label rows so that markers close in time do not print over each other
                line.setLabelAnchor(n % 2 == 0 ? RectangleAnchor.TOP_RIGHT : RectangleAnchor.BOTTOM_RIGHT);
                line.setLabelTextAnchor(n % 2 == 0 ? TextAnchor.TOP_LEFT : TextAnchor.BOTTOM_LEFT);
            }
            plot.addRangeMarker(line);
            n++;
        }
    }
}
