package org.phos.workbench.internal.ui.timeline.cr;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.widgets.Display;
import org.phos.workbench.cr.core.CsvTimelineExporter;
import org.phos.workbench.cr.core.Marker;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.TimelineChromeExporter;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.TimelineSink;
import org.phos.workbench.internal.ui.timeline.SvgTimelineWriter;
import org.phos.workbench.internal.ui.timeline.TimeWindow;
import org.phos.workbench.internal.ui.timeline.TimelineCanvas;
import org.phos.workbench.internal.ui.timeline.TimelineLane;
import org.phos.workbench.internal.ui.timeline.TimelineLayout;

/**
 * Exports what a C/R timeline shows, as shown: the window it is zoomed to, its lanes. PNG is the canvas painted
 * off screen at its width with every lane; SVG the same drawing in vectors ({@link SvgTimelineWriter}); Chrome JSON
 * (opens in ui.perfetto.dev) and CSV replay the items of the window (every interval and stall that overlaps it, with
 * its true times, and the markers inside it) into cr.core's {@link TimelineChromeExporter} and
 * {@link CsvTimelineExporter}, so the files have the command line's format.
 */
public final class CrTimelineExport {
    /** What can be exported, with the file name's extension. */
    public enum Format {
        PNG("png", "PNG image"), SVG("svg", "SVG image"), CHROME_JSON("json", "Chrome JSON (Perfetto)"), CSV("csv", "CSV");

        private final String extension;
        private final String label;

        Format(String extension, String label) {
            this.extension = extension;
            this.label = label;
        }

        public String extension() {
            return extension;
        }

        public String label() {
            return label;
        }
    }

    private CrTimelineExport() {
    }

    /**
     * Whether an item over {@code [start, end]} is in window {@code w}: it overlaps {@code [from, to)}, or, taking no
     * time, lies in it.
     */
    public static boolean inWindow(long start, long end, TimeWindow w) {
        return start < w.toNs() && (end > w.fromNs() || (end == start && start >= w.fromNs()));
    }

    /**
     * Sends the lanes of {@code c} and its items in window {@code w} to {@code sink}, lane by lane in start order:
     * intervals, then the lane's stalls; then the markers inside the window.
     */
    public static void replay(CrTimelineContent c, TimeWindow w, TimelineSink sink) {
        for (int l = 0; l < c.lanes().size(); l++) {
            sink.lane(c.crLane(l));
        }
        for (int l = 0; l < c.lanes().size(); l++) {
            replayLane(c, c.lanes().get(l), w, sink);
            TimelineLane o = c.overlay(l);
            if (o != null) {
                replayLane(c, o, w, sink);
            }
        }
        for (Marker m : c.run().timeline().markers()) {
            if (m.timeNs() >= w.fromNs() && m.timeNs() < w.toNs()) {
                sink.marker(m);
            }
        }
    }

    private static void replayLane(CrTimelineContent c, TimelineLane lane, TimeWindow w, TimelineSink sink) {
        int last = lane.firstStartingAtOrAfter(w.toNs());
        for (int k = lane.firstEndingAtOrAfter(w.fromNs()); k < last; k++) {
            if (inWindow(lane.starts()[k], lane.ends()[k], w)) {
                Object o = c.item(lane.events()[k]);
                if (o instanceof StallInterval s) {
                    sink.stall(s);
                } else {
                    sink.interval((TimelineInterval) o);
                }
            }
        }
    }

    /** Chrome Trace Event JSON of the window, with the run's metrics under {@code otherData}. */
    public static void chromeJson(CrTimelineContent c, TimeWindow w, Path file) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            TimelineChromeExporter chrome = new TimelineChromeExporter(out, true);
            replay(c, w, chrome);
            chrome.finish(c.run().metrics());
        }
    }

    /** The window's items as cr.core's timeline CSV. */
    public static void csv(CrTimelineContent c, TimeWindow w, Path file) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            CsvTimelineExporter csv = new CsvTimelineExporter(out, true);
            replay(c, w, csv);
            csv.flush();
        }
    }

    /** The canvases painted as shown (their windows, every lane), stacked under their titles, as one PNG. */
    public static void png(List<TimelineCanvas> canvases, List<String> titles, Path file) {
        Display display = canvases.get(0).control().getDisplay();
        int titleHeight = 22;
        int width = 0;
        int height = 0;
        for (TimelineCanvas c : canvases) {
            width = Math.max(width, c.control().getSize().x);
            height += titleHeight + TimelineLayout.preferredHeight(c.index().lanes().size());
        }
        width = Math.max(width, 400);
        Image image = new Image(display, width, height);
        GC gc = new GC(image);
        try {
            int y = 0;
            for (int i = 0; i < canvases.size(); i++) {
                TimelineCanvas c = canvases.get(i);
                gc.setBackground(c.palette().background());
                gc.setForeground(c.palette().foreground());
                gc.fillRectangle(0, y, width, titleHeight);
                gc.drawText(titles.get(i), 6, y + 3, true);
                y += titleHeight;
                TimelineLayout shown = c.layout();
                int h = TimelineLayout.preferredHeight(c.index().lanes().size());
                gc.setClipping(0, y, width, h);
                org.eclipse.swt.graphics.Transform t = new org.eclipse.swt.graphics.Transform(display);
                t.translate(0, y);
                gc.setTransform(t);
                c.paintInto(gc, new TimelineLayout(shown.labelWidth(), width, h, 0));
                gc.setTransform(null);
                t.dispose();
                gc.setClipping((org.eclipse.swt.graphics.Rectangle) null);
                y += h;
            }
        } finally {
            gc.dispose();
        }
        try {
            ImageLoader loader = new ImageLoader();
            loader.data = new ImageData[] { image.getImageData() };
            loader.save(file.toString(), SWT.IMAGE_PNG);
        } finally {
            image.dispose();
        }
    }

    /** The panels as one SVG {@code width} px wide. */
    public static void svg(List<SvgTimelineWriter.Panel> panels, int width, Path file) throws IOException {
        Files.writeString(file, SvgTimelineWriter.svg(panels, width), StandardCharsets.UTF_8);
    }

    /** {@code file} with {@code suffix} before its extension: {@code a.json} → {@code a-left.json}. */
    public static Path withSuffix(Path file, String suffix) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String n = dot > 0 ? name.substring(0, dot) + suffix + name.substring(dot) : name + suffix;
        return file.resolveSibling(n);
    }

    /** {@code file}, with {@code format}'s extension added when it has none. */
    public static Path withExtension(Path file, Format format) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith("." + format.extension()) ? file
                : file.resolveSibling(file.getFileName() + "." + format.extension());
    }
}
