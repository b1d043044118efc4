package org.phos.workbench.cr.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.xy.XYDataset;
import org.jfree.data.xy.XYIntervalSeriesCollection;
import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.CounterSample;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.LaneKind;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.TimelineModel;

class ChartBuildersTest {

    private static List<String> seriesKeys(XYDataset d) {
        List<String> keys = new ArrayList<>();
        for (int s = 0; s < d.getSeriesCount(); s++) {
            keys.add(d.getSeriesKey(s).toString());
        }
        return keys;
    }

    @Test
    void timelineHasOneRowPerLaneWithContentAndSeriesPerCategoryThenStalls() {
        JFreeChart chart = new TimelineChartBuilder(ChartPalette.LIGHT).widthPx(1600)
                .build(TimelineFixtures.softCheckpoint());
        XYPlot plot = chart.getXYPlot();
        SymbolAxis lanes = (SymbolAxis) plot.getDomainAxis();
        // model order: application (host, streams), copy engines, C/R by id (CoW 5 before commit 6); the empty
        // "C/R control" lane (markers only) gets no row
        assertEquals(List.of(TimelineFixtures.HOST, TimelineFixtures.STREAM, TimelineFixtures.ENGINE,
                TimelineFixtures.COW, TimelineFixtures.COMMIT), Arrays.asList(lanes.getSymbols()));
        XYIntervalSeriesCollection data = (XYIntervalSeriesCollection) plot.getDataset();
        assertEquals(List.of("kernel", "commit", "cow", TimelineChartBuilder.stallKey(StallCause.COPY_ON_WRITE)),
                seriesKeys(data));
        // span 1000 ns at 1600 px: one pixel < 1 ns, nothing merges: 2 kernels, 2 commits (engine and C/R lane)
        assertEquals(2, data.getItemCount(0));
        assertEquals(2, data.getItemCount(1));
        // kernel 2 sits on row 1 (stream 0) from 250 to 400 ns, in the ns unit chosen for a 1 us span
        assertEquals(1.0, data.getXValue(0, 1));
        assertEquals(250.0, data.getStartYValue(0, 1));
        assertEquals(400.0, data.getEndYValue(0, 1));
        // the stall lies on the host row, taller than work bars
        assertEquals(0.0, data.getXValue(3, 0));
        assertTrue(data.getEndXValue(3, 0) - data.getStartXValue(3, 0) > data.getEndXValue(0, 0)
                - data.getStartXValue(0, 0));
        assertEquals("simulated time (ns)", plot.getRangeAxis().getLabel());
        assertEquals(2, plot.getRangeMarkers(org.jfree.chart.ui.Layer.FOREGROUND).size());
        assertTrue(plot.getRenderer().getSeriesPaint(3).equals(ChartPalette.LIGHT.stall(StallCause.COPY_ON_WRITE)));
    }

    @Test
    void aWindowKeepsOnlyWhatCrossesIt() {
        TimelineModel m = TimelineFixtures.softCheckpoint();
        long[] w = TimelineChartBuilder.crWindow(m);
        // C/R activity 100..1000 ns (markers, CoW, commit, stall), a margin of max(1 us, span/4)
        assertEquals(0, w[0]);
        assertEquals(2000, w[1]);
        JFreeChart chart = new TimelineChartBuilder(ChartPalette.LIGHT).window(260, 500).build(m);
        XYIntervalSeriesCollection data = (XYIntervalSeriesCollection) chart.getXYPlot().getDataset();
        // in [260, 500]: kernel 2 and the commits; not kernel 1, the CoW or the stall
        assertEquals(List.of("kernel", "commit"), seriesKeys(data));
        assertEquals(1, data.getItemCount(0));
        assertEquals(List.of(TimelineFixtures.STREAM, TimelineFixtures.ENGINE, TimelineFixtures.COMMIT),
                Arrays.asList(((SymbolAxis) chart.getXYPlot().getDomainAxis()).getSymbols()));
    }

    /**
     * A window over a lane of out-of-order, overlapping intervals of several categories with some long ones: the
     * chart's bars (read from the model's columns, the window found by binary search) are those of the plain way,
     * every interval filtered by the window and decimated per category in the order of their first appearance.
     */
    @Test
    void windowedBarsAreThoseOfFilteringEveryInterval() {
        java.util.Random r = new java.util.Random(7);
        TimelineModel m = new TimelineModel();
        m.lane(Lane.forStream(0));
        List<TimelineInterval> all = new ArrayList<>();
        String[] categories = { TimelineInterval.KERNEL, TimelineInterval.COPY, TimelineInterval.SET };
        for (int n = 0; n < 20_000; n++) {
            long start = r.nextInt(10_000_000);
            long length = r.nextInt(50) == 0 ? r.nextInt(2_000_000) : 1 + r.nextInt(3_000);
            TimelineInterval i = new TimelineInterval(Lane.FIRST_STREAM, start, start + length, "k",
                    categories[r.nextInt(categories.length)], -1, 0, n);
            all.add(i);
            m.interval(i);
        }
        all.sort(java.util.Comparator.comparingLong(TimelineInterval::startNs));
        for (long[] w : new long[][] { { 4_000_000, 4_100_000 }, { 0, 500 }, { 9_990_000, 12_000_000 },
                { 2_500_000, 7_000_000 } }) {
            int width = 1000;
            JFreeChart chart = new TimelineChartBuilder(ChartPalette.LIGHT).widthPx(width).window(w[0], w[1])
                    .build(m);
            XYIntervalSeriesCollection data = (XYIntervalSeriesCollection) chart.getXYPlot().getDataset();
            long resolution = (w[1] - w[0]) / (width - 220);
            Map<String, IntervalDecimator> expected = new LinkedHashMap<>();
            for (TimelineInterval i : all) {
                if (i.endNs() >= w[0] && i.startNs() <= w[1]) {
                    expected.computeIfAbsent(i.category(), c -> new IntervalDecimator(resolution)).add(i.startNs(),
                            i.endNs());
                }
            }
            assertEquals(List.copyOf(expected.keySet()), seriesKeys(data), "window " + Arrays.toString(w));
            TimeUnitScale unit = TimeUnitScale.forSpan(w[1] - w[0]);
            int s = 0;
            for (IntervalDecimator d : expected.values()) {
                List<IntervalDecimator.Bar> bars = d.bars();
                assertEquals(bars.size(), data.getItemCount(s), "bars of " + data.getSeriesKey(s));
                for (int k = 0; k < bars.size(); k++) {
                    assertEquals(unit.of(bars.get(k).startNs()), data.getStartYValue(s, k));
                    assertEquals(unit.of(bars.get(k).endNs()), data.getEndYValue(s, k));
                }
                s++;
            }
        }
    }

    @Test
    void manyIntervalsAreDecimatedToAtMostAboutOneBarPerPixel() {
        TimelineModel m = new TimelineModel();
        m.lane(Lane.forStream(0));
        m.lane(new Lane(Lane.CR_COMMIT_D2H, "C/R commit D2H", LaneKind.CHECKPOINT_RESTORE));
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            // 1 us kernels, 1 us apart, a 50 us hole every 1000 kernels
            long t = 2_000L * i + 50_000L * (i / 1000);
            m.interval(new TimelineInterval(Lane.FIRST_STREAM, t, t + 1_000, "k", TimelineInterval.KERNEL, -1, 0, i));
        }
        m.interval(new TimelineInterval(Lane.CR_COMMIT_D2H, 0, 5_000_000, "commit", TimelineInterval.COMMIT, 0, 1, -1));
        int width = 1200;
        JFreeChart chart = new TimelineChartBuilder(ChartPalette.LIGHT).widthPx(width).build(m);
        XYIntervalSeriesCollection data = (XYIntervalSeriesCollection) chart.getXYPlot().getDataset();
        int bars = data.getItemCount(0);
        // span 410 ms over 980 px: ~418 us a pixel; the 50 us holes are sub-pixel, so everything merges
        assertTrue(bars >= 1 && bars <= width, "bars: " + bars);
        assertEquals(1, data.getItemCount(1));
        // coverage is kept: the merged bars reach from the first start to the last end
        double lastEnd = 0;
        for (int i = 0; i < bars; i++) {
            lastEnd = Math.max(lastEnd, data.getEndYValue(0, i));
        }
        assertEquals(2_000.0 * (n - 1) + 50_000.0 * ((n - 1) / 1000) + 1_000, lastEnd * 1e6, 1.0);
    }

    @Test
    void comparisonHasOnePanelPerMetricAndOneBarPerRun() {
        Map<String, SimulationMetrics> runs = new LinkedHashMap<>();
        runs.put("stop-the-world", TimelineFixtures.metrics("stop-the-world", 5_000_000, 5_000_000, 5_000_000,
                105_000_000, 100_000_000, 250L << 20));
        runs.put("soft-cow", TimelineFixtures.metrics("soft-cow", 1_000_000, 500_000, 9_000_000, 101_000_000,
                100_000_000, 400L << 20));
        runs.put("restore", TimelineFixtures.metrics("restore", 8_000_000, 2_000_000, -1, 112_000_000, 100_000_000,
                0));
        JFreeChart chart = new ComparisonChartBuilder(ChartPalette.LIGHT).build(runs);
        CombinedDomainCategoryPlot plot = (CombinedDomainCategoryPlot) chart.getPlot();
        List<CategoryPlot> panels = plot.getSubplots();
        assertEquals(ComparisonMetric.values().length, panels.size());
        CategoryDataset stall = panels.get(0).getDataset();
        assertEquals(List.of("stop-the-world", "soft-cow", "restore"), stall.getColumnKeys());
        // 8 ms the largest: milliseconds
        assertEquals(5.0, stall.getValue(0, 0).doubleValue(), 1e-9);
        assertEquals(1.0, stall.getValue(0, 1).doubleValue(), 1e-9);
        assertEquals("stall total (ms)", panels.get(0).getRangeAxis().getLabel());
        CategoryDataset done = panels.get(2).getDataset();
        assertNull(done.getValue(0, 2), "a restore run without restore figures has no completion bar");
        CategoryDataset slowdown = panels.get(3).getDataset();
        assertEquals(12.0, slowdown.getValue(0, 2).doubleValue(), 1e-9);
        CategoryDataset bytes = panels.get(4).getDataset();
        // only C/R lanes count (the engine lane carries application copies too)
        assertEquals(400.0, bytes.getValue(0, 1).doubleValue(), 1e-9);
        assertEquals("C/R bytes (MiB)", panels.get(4).getRangeAxis().getLabel());
        assertEquals(ChartPalette.LIGHT.run(1), panels.get(0).getRenderer().getItemPaint(0, 1));
    }

    @Test
    void dirtyBytesAreAStepSeriesPerRunWithTheBudgetForASingleRun() {
        TimelineModel m = TimelineFixtures.softCheckpoint();
        JFreeChart one = new DirtyBytesChartBuilder(ChartPalette.LIGHT).build("soft-cow", m);
        XYDataset d = one.getXYPlot().getDataset();
        assertEquals(List.of("soft-cow", "soft-cow" + DirtyBytesChartBuilder.BUDGET_SUFFIX), seriesKeys(d));
        assertEquals(3, d.getItemCount(0));
        assertEquals(8.0, d.getYValue(0, 2), 1e-9, "8192 bytes in KiB");
        assertEquals(2, one.getXYPlot().getDomainMarkers(org.jfree.chart.ui.Layer.FOREGROUND).size());
        Map<String, TimelineModel> two = new LinkedHashMap<>();
        two.put("a", m);
        two.put("b", TimelineFixtures.softCheckpoint());
        assertEquals(List.of("a", "b"),
                seriesKeys(new DirtyBytesChartBuilder(ChartPalette.LIGHT).build(two).getXYPlot().getDataset()));
    }

    @Test
    void thinningKeepsFirstLowestHighestAndLastPerPixel() {
        List<CounterSample> s = new ArrayList<>();
        long[] values = { 5, 9, 1, 7, 3, 4 };
        for (int i = 0; i < values.length; i++) {
            s.add(new CounterSample(i, CounterSample.DIRTY_BYTES, values[i]));
        }
        s.add(new CounterSample(100, CounterSample.DIRTY_BYTES, 42));
        List<CounterSample> t = DirtyBytesChartBuilder.thin(s, 10);
        assertEquals(List.of(5L, 9L, 1L, 4L, 42L), t.stream().map(CounterSample::value).toList());
    }
}
