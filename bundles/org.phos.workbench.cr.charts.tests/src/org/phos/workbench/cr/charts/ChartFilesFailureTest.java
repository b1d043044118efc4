package org.phos.workbench.cr.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.awt.Graphics2D;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotRenderingInfo;
import org.jfree.chart.plot.PlotState;
import org.jfree.chart.plot.XYPlot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A chart that fails while being drawn leaves no file under its name, and no temporary file (issue #10). */
class ChartFilesFailureTest {

    @TempDir
    Path dir;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    private static JFreeChart failing() {
        return new JFreeChart(new XYPlot() {
            private static final long serialVersionUID = 1L;

            @Override
            public void draw(Graphics2D g2, Rectangle2D area, Point2D anchor, PlotState parentState,
                    PlotRenderingInfo info) {
                throw new IllegalStateException("drawing failed");
            }
        });
    }

    @Test
    void aFailedPngLeavesNothingBehind() throws Exception {
        assertThrows(IllegalStateException.class, () -> ChartFiles.writePng(failing(), dir.resolve("t.png"), 400, 300));
        assertThrows(IllegalStateException.class, () -> ChartFiles.writeBoth(failing(), dir, "u", 400, 300));
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList());
        }
    }
}
