package org.phos.workbench.cr.charts;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;

import org.jfree.chart.JFreeChart;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

class ChartFilesTest {

    @TempDir
    Path dir;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    private static final byte[] PNG_SIGNATURE = { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

    private static void assertPng(Path file, int width, int height) throws Exception {
        byte[] head = new byte[8];
        try (InputStream in = Files.newInputStream(file)) {
            assertEquals(8, in.read(head));
        }
        assertArrayEquals(PNG_SIGNATURE, head);
        BufferedImage image = ImageIO.read(file.toFile());
        assertNotNull(image, file + " is not readable as an image");
        assertEquals(width, image.getWidth());
        assertEquals(height, image.getHeight());
    }

    private static Set<String> svgTexts(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document doc = f.newDocumentBuilder().parse(file.toFile());
        assertEquals("svg", doc.getDocumentElement().getLocalName());
        NodeList texts = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "text");
        Set<String> out = new HashSet<>();
        for (int i = 0; i < texts.getLength(); i++) {
            out.add(texts.item(i).getTextContent());
        }
        return out;
    }

    @Test
    void timelineRendersToPngAndSvgWithTheLaneLabels() throws Exception {
        JFreeChart chart = new TimelineChartBuilder(ChartPalette.LIGHT).title("fixture").widthPx(900)
                .build(TimelineFixtures.softCheckpoint());
        int h = TimelineChartBuilder.suggestedHeight(TimelineFixtures.softCheckpoint());
        ChartFiles.writeBoth(chart, dir, "timeline", 900, h);
        assertPng(dir.resolve("timeline.png"), 900, h);
        Set<String> texts = svgTexts(dir.resolve("timeline.svg"));
        for (String lane : new String[] { TimelineFixtures.HOST, TimelineFixtures.STREAM, TimelineFixtures.ENGINE,
                TimelineFixtures.COW, TimelineFixtures.COMMIT, "fixture", "simulated time (ns)" }) {
            assertTrue(texts.contains(lane), lane + " missing from " + texts);
        }
    }

    @Test
    void comparisonAndDirtyChartsRender() throws Exception {
        JFreeChart cmp = new ComparisonChartBuilder(ChartPalette.LIGHT).build(Map.of("soft-cow",
                TimelineFixtures.metrics("soft-cow", 1_000_000, 500_000, 9_000_000, 101_000_000, 100_000_000, 1L << 30)));
        ChartFiles.writeBoth(cmp, dir, "comparison", 700, 900);
        assertPng(dir.resolve("comparison.png"), 700, 900);
        assertTrue(svgTexts(dir.resolve("comparison.svg")).contains("soft-cow"));
        JFreeChart dirty = new DirtyBytesChartBuilder(ChartPalette.LIGHT).build("soft-cow",
                TimelineFixtures.softCheckpoint());
        ChartFiles.writeBoth(dirty, dir, "dirty", 640, 360);
        assertPng(dir.resolve("dirty.png"), 640, 360);
        assertTrue(svgTexts(dir.resolve("dirty.svg")).contains("bytes (KiB)"));
    }
}
