package org.phos.workbench.cr.charts;

import java.awt.Rectangle;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.text.TextUtils;
import org.jfree.svg.SVGGraphics2D;
import org.phos.workbench.cr.core.io.OutputFile;

/**
 * Renders a built chart to files without a display: PNG through AWT's off-screen images, SVG through JFreeSVG (text
 * stays text, so labels can be searched and styled). Call with {@code java.awt.headless=true} on machines without a
 * display (the CLI sets it); the same chart objects are drawn on screen by the workbench's views.
 * <p>
 * Files are written through {@link OutputFile}: under a temporary name, renamed into place when complete, so a
 * stopped or failed run never leaves a truncated image under the final name.
 */
public final class ChartFiles {
    private ChartFiles() {
    }

    public static void writePng(JFreeChart chart, Path file, int width, int height) throws IOException {
        OutputFile.write(file, out -> writePng(chart, out, width, height));
    }

    /** The chart as PNG into {@code out}, which stays open. */
    public static void writePng(JFreeChart chart, OutputStream out, int width, int height) throws IOException {
        ChartUtils.writeChartAsPNG(out, chart, width, height);
    }

    public static void writeSvg(JFreeChart chart, Path file, int width, int height) throws IOException {
        OutputFile.write(file, out -> writeSvg(chart, out, width, height));
    }

    /** The chart as an SVG document ({@link #svg}) into {@code out}, which stays open. */
    public static void writeSvg(JFreeChart chart, OutputStream out, int width, int height) throws IOException {
        out.write(svg(chart, width, height).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The chart as a standalone SVG document: an XML declaration and the {@code svg} element, without the SVG 1.1
     * DOCTYPE (a parser would fetch its DTD from w3.org; browsers and editors do not need it).
     */
    public static String svg(JFreeChart chart, int width, int height) {
        SVGGraphics2D g = new SVGGraphics2D(width, height);
        // JFreeChart draws rotated strings (vertical axis labels) through TextLayout by default, which SVG receives
        // as glyph outlines; plain drawString under a rotation keeps them as searchable <text>
        boolean workaround = TextUtils.isUseDrawRotatedStringWorkaround();
        TextUtils.setUseDrawRotatedStringWorkaround(false);
        try {
            chart.draw(g, new Rectangle(0, 0, width, height));
        } finally {
            TextUtils.setUseDrawRotatedStringWorkaround(workaround);
        }
        g.dispose();
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + g.getSVGElement() + "\n";
    }

    /** Writes {@code base.png} and {@code base.svg} in {@code dir}. */
    public static void writeBoth(JFreeChart chart, Path dir, String base, int width, int height) throws IOException {
        writePng(chart, dir.resolve(base + ".png"), width, height);
        writeSvg(chart, dir.resolve(base + ".svg"), width, height);
    }
}
