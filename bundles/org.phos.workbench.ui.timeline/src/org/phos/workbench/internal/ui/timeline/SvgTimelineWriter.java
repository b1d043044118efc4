package org.phos.workbench.internal.ui.timeline;

import java.util.List;
import java.util.Locale;

import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.RGB;

/**
 * Writes timelines as SVG exactly as the canvas shows them: per panel a title, the ruler of the window (ticks from the
 * content's origin), each lane's label and what the {@link SliceFetcher} chooses for the window at that width (busy
 * runs in their density shades, slices, the overlay over them), and the content's marks; colours from the same
 * {@link TimelinePalette}. Several panels stack (the compare view's two runs). Vector output, so a figure for a paper
 * keeps its sharpness; the level of detail keeps it to a few thousand rectangles whatever the run's size.
 */
public final class SvgTimelineWriter {
    /** One timeline to write: a title line, then the content in {@code window}. */
    public record Panel(String title, TimelineContent content, TimeWindow window, TimelinePalette palette) {
    }

    private static final int TITLE = 22;
    private static final int CHAR = 7;

    private SvgTimelineWriter() {
    }

    /** The SVG document of {@code panels}, {@code width} px wide. */
    public static String svg(List<Panel> panels, int width) {
        int labelWidth = 120;
        for (Panel p : panels) {
            for (TimelineLane l : p.content().lanes()) {
                labelWidth = Math.max(labelWidth, CHAR * l.label().length() + 16);
            }
        }
        int height = 0;
        for (Panel p : panels) {
            height += TITLE + TimelineLayout.preferredHeight(p.content().lanes().size());
        }
        StringBuilder b = new StringBuilder(64 * 1024);
        TimelinePalette first = panels.isEmpty() ? null : panels.get(0).palette();
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(width).append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width)
                .append(' ').append(height).append("\" font-family=\"sans-serif\" font-size=\"11\">\n");
        if (first != null) {
            rect(b, 0, 0, width, height, first.background());
        }
        int y = 0;
        for (Panel p : panels) {
            y = panel(b, p, y, width, labelWidth);
        }
        b.append("</svg>\n");
        return b.toString();
    }

    private static int panel(StringBuilder b, Panel p, int y0, int width, int labelWidth) {
        TimelinePalette pal = p.palette();
        TimeWindow w = p.window();
        int dw = Math.max(1, width - labelWidth);
        text(b, 6, y0 + 15, p.title(), pal.foreground(), true);
        int top = y0 + TITLE;
        // ruler
        int bottom = top + TimelineLayout.RULER_HEIGHT - 1;
        line(b, 0, bottom, width, bottom, pal.grid());
        long step = TimeFormat.tickStep(75.0 * w.span() / dw);
        long origin = p.content().origin();
        long firstTick = origin + Math.floorDiv(w.fromNs() - origin + step - 1, step) * step;
        int lanes = p.content().lanes().size();
        int end = top + TimelineLayout.preferredHeight(lanes);
        for (long t = firstTick; t < w.toNs(); t += step) {
            int x = labelWidth + (int) Math.round(w.x(t, dw));
            line(b, x, bottom - 6, x, end, pal.grid());
            text(b, x + 3, bottom - 8, "+" + TimeFormat.tick(t - origin, step), pal.foreground(), false);
        }
        text(b, 6, bottom - 8, "window " + TimeFormat.duration(w.span()), pal.foreground(), false);
        for (int l = 0; l < lanes; l++) {
            TimelineLane lane = p.content().lanes().get(l);
            int lt = top + TimelineLayout.RULER_HEIGHT + TimelineLayout.LANE_GAP
                    + l * (TimelineLayout.LANE_HEIGHT + TimelineLayout.LANE_GAP);
            int h = TimelineLayout.LANE_HEIGHT;
            rect(b, labelWidth, lt, dw, h, pal.laneBackground());
            text(b, 6, lt + 15, lane.label(), pal.foreground(), false);
            LaneSlices s = SliceFetcher.fetch(lane, w, dw);
            for (int k = 0; k < s.busyCount(); k++) {
                rect(b, labelWidth + s.busyX0(k), lt + 2, s.busyX1(k) - s.busyX0(k), h - 4,
                        pal.shade(s.busyCategory(k), s.busyLevel(k)));
            }
            for (int k = 0; k < s.sliceCount(); k++) {
                rect(b, labelWidth + s.sliceX0(k), lt + 2, s.sliceX1(k) - s.sliceX0(k), h - 4,
                        pal.category(s.sliceCategory(k)));
            }
            TimelineLane overlay = p.content().overlay(l);
            if (overlay != null) {
                LaneSlices o = SliceFetcher.fetch(overlay, w, dw);
                for (int k = 0; k < o.busyCount(); k++) {
                    rect(b, labelWidth + o.busyX0(k), lt, o.busyX1(k) - o.busyX0(k), h, pal.category(o.busyCategory(k)));
                }
                for (int k = 0; k < o.sliceCount(); k++) {
                    rect(b, labelWidth + o.sliceX0(k), lt, Math.max(2, o.sliceX1(k) - o.sliceX0(k)), h,
                            pal.category(o.sliceCategory(k)));
                }
            }
        }
        for (TimelineContent.Mark m : p.content().marks()) {
            if (m.timeNs() >= w.fromNs() && m.timeNs() <= w.toNs()) {
                int x = labelWidth + (int) Math.clamp(Math.round(w.x(m.timeNs(), dw)), 0, dw - 1);
                b.append(String.format(Locale.ROOT,
                        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\" "
                                + "stroke-dasharray=\"6,3\"><title>%s</title></line>\n",
                        x, top + TimelineLayout.RULER_HEIGHT, x, end, hex(pal.category(m.category())), escape(m.label())));
            }
        }
        line(b, labelWidth - 1, top, labelWidth - 1, end, pal.grid());
        return end;
    }

    private static void rect(StringBuilder b, int x, int y, int w, int h, Color c) {
        b.append("<rect x=\"").append(x).append("\" y=\"").append(y).append("\" width=\"").append(w)
                .append("\" height=\"").append(h).append("\" fill=\"").append(hex(c)).append("\"/>\n");
    }

    private static void line(StringBuilder b, int x1, int y1, int x2, int y2, Color c) {
        b.append("<line x1=\"").append(x1).append("\" y1=\"").append(y1).append("\" x2=\"").append(x2)
                .append("\" y2=\"").append(y2).append("\" stroke=\"").append(hex(c)).append("\"/>\n");
    }

    private static void text(StringBuilder b, int x, int y, String s, Color c, boolean bold) {
        b.append("<text x=\"").append(x).append("\" y=\"").append(y).append("\" fill=\"").append(hex(c))
                .append(bold ? "\" font-weight=\"bold\">" : "\">").append(escape(s)).append("</text>\n");
    }

    static String hex(Color c) {
        RGB r = c.getRGB();
        return String.format(Locale.ROOT, "#%02x%02x%02x", r.red, r.green, r.blue);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
