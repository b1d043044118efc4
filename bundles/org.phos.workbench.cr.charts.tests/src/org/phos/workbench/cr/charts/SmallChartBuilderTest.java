package org.phos.workbench.cr.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.List;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.junit.jupiter.api.Test;

/** The small overview charts: data as given, stacked sums, legend in the caller's order, headless rendering. */
class SmallChartBuilderTest {
    private final SmallChartBuilder builder = new SmallChartBuilder(ChartPalette.LIGHT);

    @Test
    void barsHoldEveryValueEvenForRepeatedNames() {
        JFreeChart chart = builder.bars("GPU time (ms)", List.of("gemm", "gemm", "reduce"), new double[] { 3, 2, 1 },
                Color.BLUE, "#,##0.0");
        CategoryPlot plot = chart.getCategoryPlot();
        assertEquals(3, plot.getDataset().getColumnCount());
        assertEquals(2.0, plot.getDataset().getValue(0, 1).doubleValue());
        BufferedImage image = chart.createBufferedImage(400, 200);
        assertEquals(400, image.getWidth());
        assertThrows(IllegalArgumentException.class,
                () -> builder.bars("x", List.of("a"), new double[] { 1, 2 }, Color.BLUE, "0"));
    }

    @Test
    void stackedAreaSumsSeriesAndKeepsTheLegendOrder() {
        JFreeChart chart = builder.stackedArea("host time (s)", "live (MiB)", List.of("device", "managed"),
                new double[] { 0, 1, 2 }, new double[][] { { 1, 2, 3 }, { 10, 0, 5 } }, List.of(Color.BLUE, Color.RED));
        XYPlot plot = chart.getXYPlot();
        // series 1 is the top curve (device + managed), drawn first (reverse order), behind series 0
        assertEquals(2, plot.getDataset().getSeriesCount());
        assertEquals(3.0, plot.getDataset().getYValue(0, 2));
        assertEquals(8.0, plot.getDataset().getYValue(1, 2));
        assertEquals(org.jfree.chart.plot.SeriesRenderingOrder.REVERSE, plot.getSeriesRenderingOrder());
        List<String> legend = new java.util.ArrayList<>();
        org.jfree.chart.LegendItemCollection items = chart.getLegend().getSources()[0].getLegendItems();
        for (int i = 0; i < items.getItemCount(); i++) {
            legend.add(items.get(i).getLabel());
        }
        assertEquals(List.of("device", "managed"), legend);
        assertEquals(Color.RED, plot.getRenderer().getSeriesPaint(1));
        BufferedImage image = chart.createBufferedImage(400, 200);
        assertTrue(image.getHeight() == 200);
    }
}
