package org.phos.workbench.cr.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.title.LegendTitle;
import org.jfree.data.category.CategoryDataset;
import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.TimelineInterval;

/** The lanes' panels under a comparison chart, and a chart's text in a dark palette. */
class LaneBytesChartTest {
    private static Map<String, SimulationMetrics> runs() {
        Map<String, SimulationMetrics> runs = new LinkedHashMap<>();
        runs.put("stop-the-world", TimelineFixtures.metrics("stop-the-world", 5_000_000, 5_000_000, 5_000_000,
                105_000_000, 100_000_000, 250L << 20));
        runs.put("soft-cow", TimelineFixtures.metrics("soft-cow", 1_000_000, 500_000, 9_000_000, 101_000_000,
                100_000_000, 400L << 20));
        return runs;
    }

    @Test
    void lanesAndCopyOnWritesGoUnderTheComparisonsPanels() {
        ChartPalette palette = ChartPalette.LIGHT;
        JFreeChart chart = new ComparisonChartBuilder(palette).build(runs());
        LaneBytesChartBuilder lanes = new LaneBytesChartBuilder(palette);
        lanes.addPanels(chart, runs());
        List<?> panels = ((CombinedDomainCategoryPlot) chart.getPlot()).getSubplots();
        assertEquals(ComparisonMetric.values().length + 2, panels.size());
        CategoryPlot bytesPanel = (CategoryPlot) panels.get(ComparisonMetric.values().length);
        CategoryDataset bytes = bytesPanel.getDataset();
        // lanes by name, runs as columns; about 400 MiB the largest: MiB
        assertEquals(List.of("C/R commit D2H", "engine D2H", "stream 0"), bytes.getRowKeys());
        assertEquals(List.of("stop-the-world", "soft-cow"), bytes.getColumnKeys());
        assertEquals(400.0, bytes.getValue("C/R commit D2H", "soft-cow").doubleValue(), 1e-9);
        assertEquals("bytes by lane (MiB)", bytesPanel.getRangeAxis().getLabel());
        assertEquals(palette.category(TimelineInterval.COMMIT), bytesPanel.getRenderer().getSeriesPaint(0));
        CategoryDataset cows = ((CategoryPlot) panels.get(ComparisonMetric.values().length + 1)).getDataset();
        assertEquals(0, cows.getValue(0, 1).intValue());
        assertTrue(chart.getSubtitles().stream().anyMatch(t -> t instanceof LegendTitle), "the lanes' legend");
        assertEquals(palette.category(TimelineInterval.COW), lanes.laneColor("C/R CoW D2D"));
        assertEquals(palette.category(TimelineInterval.RESTORE), lanes.laneColor("C/R restore H2D"));
    }

    @Test
    void chartTextTakesThePalettesForeground() {
        Color fg = new Color(222, 222, 222);
        ChartPalette dark = new ChartPalette(new Color(30, 31, 34), fg, new Color(80, 80, 80));
        JFreeChart chart = new ComparisonChartBuilder(dark).build(runs());
        new LaneBytesChartBuilder(dark).addPanels(chart, runs());
        ChartText.apply(chart, dark);
        assertEquals(fg, chart.getTitle().getPaint());
        CombinedDomainCategoryPlot plot = (CombinedDomainCategoryPlot) chart.getPlot();
        assertEquals(fg, plot.getDomainAxis().getTickLabelPaint());
        for (Object p : plot.getSubplots()) {
            CategoryPlot c = (CategoryPlot) p;
            assertEquals(fg, c.getRangeAxis().getLabelPaint());
            assertEquals(fg, c.getRangeAxis().getTickLabelPaint());
            assertEquals(fg, c.getRenderer().getDefaultItemLabelPaint());
        }
        LegendTitle legend = (LegendTitle) chart.getSubtitles().stream().filter(t -> t instanceof LegendTitle)
                .findFirst().orElseThrow();
        assertEquals(fg, legend.getItemPaint());
    }
}
