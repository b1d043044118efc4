package org.phos.workbench.internal.ui.timeline;

import org.phos.workbench.analysis.core.format.KernelNames;

import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;

/**
 * Draws the timeline into a GC from what the {@link SliceFetcher} chose: ruler with ticks in readable units (time
 * since the content's origin: a trace's first event, a simulated run's 0), a label column, then per lane the busy runs (density shades)
 * and the slices; kernel names inside slices wide enough; the selected slice outlined and a selected time range
 * shaded. It reads nothing but its arguments, so a benchmark paints exactly what the view paints.
 */
public final class TimelinePainter {
    /** Characters of a kernel name on a slice and in the details line (templates collapsed first, as in info). */
    static final int KERNEL_NAME_WIDTH = 60;

    /** A slice this wide (px) or more carries its kernel name. */
    static final int NAMED_SLICE = 60;

    /** A stall this wide (px) or more carries its label, or as much of it as fits ({@link LabelFit}). */
    static final int NAMED_OVERLAY = 24;

    private final TimelinePalette palette;

    public TimelinePainter(TimelinePalette palette) {
        this.palette = palette;
    }

    /** What the user marked: a selected event ({@code -1}: none), a selected range ({@code to <= from}: none). */
    public record Marks(int selectedEvent, long rangeFrom, long rangeTo) {
        public static final Marks NONE = new Marks(-1, 0, 0);
    }

    /** Label column width for these lanes' labels. */
    public static int labelWidth(GC gc, TimelineContent content) {
        int w = 80;
        for (TimelineLane l : content.lanes()) {
            w = Math.max(w, gc.textExtent(l.label()).x);
        }
        // sized by the lanes' names: the head above them says which lanes are shown only where it has room, so a
        // narrow view keeps its width for the data
        w = Math.max(w, gc.textExtent("window 999.999 ms").x);
        return w + 12;
    }

    public void paint(GC gc, TimelineLayout layout, TimelineContent index, TimeWindow w, List<LaneSlices> lanes,
            Marks marks) {
        gc.setBackground(palette.background());
        gc.fillRectangle(0, 0, layout.width(), layout.height());
        gc.setForeground(palette.foreground());
        paintRuler(gc, layout, index, w);
        int textHeight = gc.getFontMetrics().getHeight();
        for (int l = 0; l < lanes.size(); l++) {
            if (!layout.showsLane(l)) {
                continue;
            }
            int top = layout.laneTop(l);
            gc.setBackground(palette.laneBackground());
            gc.fillRectangle(layout.labelWidth(), top, layout.dataWidth(), layout.laneHeight());
            paintLane(gc, layout, index, lanes.get(l), top, textHeight);
            gc.setForeground(palette.foreground());
            gc.setBackground(palette.background());
            gc.setClipping(0, top, layout.labelWidth() - 4, layout.laneHeight());
            gc.drawText(index.lanes().get(l).label(), 6, top + (layout.laneHeight() - textHeight) / 2, true);
            gc.setClipping((org.eclipse.swt.graphics.Rectangle) null);
        }
        paintContentMarks(gc, layout, index, w);
        paintMarks(gc, layout, index, w, marks);
        gc.setBackground(palette.background());
        gc.fillRectangle(0, 0, layout.labelWidth() - 1, TimelineLayout.RULER_HEIGHT - 1);
        gc.setForeground(palette.foreground());
        int hidden = lanes.size() - layout.firstLane() - layout.visibleLanes();
        String head = "window " + TimeFormat.duration(w.span());
        if (layout.firstLane() > 0 || hidden > 0) {
            String shown = (layout.firstLane() + 1) + "-"
                    + Math.min(lanes.size(), layout.firstLane() + layout.visibleLanes()) + "/" + lanes.size();
            int room = layout.labelWidth() - 12;
            if (gc.textExtent(head + "  (lanes " + shown + ")").x <= room) {
                head += "  (lanes " + shown + ")";
            } else if (gc.textExtent(head + "  " + shown).x <= room) {
                head += "  " + shown;
            }
        }
        gc.drawText(head, 6, Math.max(1, TimelineLayout.RULER_HEIGHT - 7 - gc.getFontMetrics().getHeight()), true);
        gc.setForeground(palette.grid());
        gc.drawLine(layout.labelWidth() - 1, 0, layout.labelWidth() - 1, layout.height());
    }

    private void paintRuler(GC gc, TimelineLayout layout, TimelineContent index, TimeWindow w) {
        int dw = layout.dataWidth();
        int x0 = layout.labelWidth();
        long step = TimeFormat.tickStep(75.0 * w.span() / dw);
        long origin = index.origin();
        long firstTick = origin + Math.floorDiv(w.fromNs() - origin + step - 1, step) * step;
        int bottom = TimelineLayout.RULER_HEIGHT - 1;
        gc.setForeground(palette.grid());
        gc.drawLine(0, bottom, layout.width(), bottom);
        int textHeight = gc.getFontMetrics().getHeight();
        int lastLabelEnd = Integer.MIN_VALUE;
        for (long t = firstTick; t < w.toNs(); t += step) {
            int x = x0 + (int) Math.round(w.x(t, dw));
            gc.setForeground(palette.grid());
            gc.drawLine(x, bottom - 6, x, layout.height());
            gc.setForeground(palette.foreground());
            String label = "+" + TimeFormat.tick(t - origin, step);
            Point e = gc.textExtent(label);
            int lx = x + 3;
            if (lx > lastLabelEnd + 6 && lx + e.x <= layout.width()) { // a label never overlaps nor is cut
                gc.drawText(label, lx, Math.max(1, bottom - 6 - textHeight), true);
                lastLabelEnd = lx + e.x;
            }
        }
    }

    private void paintLane(GC gc, TimelineLayout layout, TimelineContent content, LaneSlices s, int top,
            int textHeight) {
        int x0 = layout.labelWidth();
        int h = layout.laneHeight();
        int inset = layout.compact() ? 1 : 2; // compact lanes keep their slices' height for the names
        for (int b = 0; b < s.busyCount(); b++) {
            gc.setBackground(palette.shade(s.busyCategory(b), s.busyLevel(b)));
            int bx = s.busyX0(b);
            gc.fillRectangle(x0 + bx, top + inset, s.busyX1(b) - bx, h - 2 * inset);
        }
        for (int k = 0; k < s.sliceCount(); k++) {
            int sx = s.sliceX0(k);
            int sw = s.sliceX1(k) - sx;
            gc.setBackground(palette.category(s.sliceCategory(k)));
            gc.fillRectangle(x0 + sx, top + inset, sw, h - 2 * inset);
            if (sw >= NAMED_SLICE) {
                drawName(gc, content.sliceName(s.sliceEvent(k)), x0 + sx, sw, top, h, textHeight);
            }
        }
        LaneSlices o = s.overlay();
        if (o != null) { // over the lane's own work, the full lane height and outlined: it must not be missed
            for (int b = 0; b < o.busyCount(); b++) {
                gc.setBackground(palette.category(o.busyCategory(b)));
                gc.fillRectangle(x0 + o.busyX0(b), top, o.busyX1(b) - o.busyX0(b), h);
            }
            for (int k = 0; k < o.sliceCount(); k++) {
                int sx = o.sliceX0(k);
                int sw = o.sliceX1(k) - sx;
                gc.setBackground(palette.category(o.sliceCategory(k)));
                gc.fillRectangle(x0 + sx, top, Math.max(2, sw), h);
                if (sw >= 4) {
                    gc.setForeground(palette.foreground());
                    gc.drawRectangle(x0 + sx, top, sw - 1, h - 1);
                }
                if (sw >= NAMED_OVERLAY) {
                    drawName(gc, content.sliceName(o.sliceEvent(k)), x0 + sx, sw, top, h, textHeight);
                }
            }
        }
    }

    /**
     * A slice's name inside it: whole where it fits, else its leading words and an ellipsis ({@link LabelFit}), never
     * a word cut at the slice's end; nothing where not even that fits.
     */
    private void drawName(GC gc, String name, int x, int w, int top, int h, int textHeight) {
        String shown = LabelFit.fit(name, w - 6, t -> gc.textExtent(t).x);
        if (shown != null) {
            gc.setForeground(palette.background());
            gc.drawText(shown, x + 3, top + (h - textHeight) / 2, true);
        }
    }

    /**
     * The content's vertical marks (checkpoint requested, instant, image complete): a dashed line over the lanes and
     * its label in a row below the lanes, beside its line where no other line crosses it ({@link MarkLabels}); the
     * labels are drawn opaque after all the lines, so where marks crowd a line stops at a label, never runs through it.
     */
    private void paintContentMarks(GC gc, TimelineLayout layout, TimelineContent content, TimeWindow w) {
        List<TimelineContent.Mark> marks = content.marks();
        if (marks.isEmpty()) {
            return;
        }
        int dw = layout.dataWidth();
        int x0 = layout.labelWidth();
        int textHeight = gc.getFontMetrics().getHeight();
        // labels under the last lane (where the lanes leave room; at the bottom edge otherwise), not over the work
        int labelY = Math.max(TimelineLayout.RULER_HEIGHT + 1,
                Math.min(layout.height() - textHeight - 2, layout.laneTop(content.lanes().size())));
        List<TimelineContent.Mark> shown = new java.util.ArrayList<>();
        for (TimelineContent.Mark m : marks) {
            if (m.timeNs() >= w.fromNs() && m.timeNs() <= w.toNs()) {
                shown.add(m);
            }
        }
        int[] lineX = new int[shown.size()];
        int[] widths = new int[shown.size()];
        for (int i = 0; i < lineX.length; i++) {
            lineX[i] = x0 + (int) Math.clamp(Math.round(w.x(shown.get(i).timeNs(), dw)), 0, dw - 1);
            widths[i] = gc.textExtent(shown.get(i).label()).x;
        }
        int rows = Math.clamp((layout.height() - labelY) / (textHeight + 1), 1, 3);
        // every label where no line crosses it (MarkLabels), then the lines, then the labels over them
        int[][] at = MarkLabels.place(lineX, widths, x0, layout.width() - 1, rows,
                gc.textExtent("requ" + LabelFit.ELLIPSIS).x);
        gc.setLineStyle(SWT.LINE_DASH);
        gc.setLineWidth(2);
        for (int i = 0; i < lineX.length; i++) {
            gc.setForeground(palette.category(shown.get(i).category()));
            gc.drawLine(lineX[i], TimelineLayout.RULER_HEIGHT, lineX[i], layout.height());
        }
        gc.setLineWidth(1);
        gc.setLineStyle(SWT.LINE_SOLID);
        for (int i = 0; i < lineX.length; i++) {
            if (at[i][1] < 0) {
                continue;
            }
            String label = at[i][2] >= widths[i] ? shown.get(i).label()
                    : LabelFit.fit(shown.get(i).label(), at[i][2], t -> gc.textExtent(t).x);
            if (label == null) {
                continue;
            }
            int y = labelY + at[i][1] * (textHeight + 1);
            gc.setBackground(palette.background());
            gc.fillRectangle(at[i][0] - 1, y, gc.textExtent(label).x + 2, textHeight);
            gc.setForeground(palette.category(shown.get(i).category()));
            gc.drawText(label, at[i][0], y, true);
        }
    }

    /** Short name drawn in a slice: the kernel's name without its template and parameter lists. */
    static String sliceName(Trace trace, int event) {
        if (trace.kind(event) == EventKind.LAUNCH) {
            FunctionInfo f = trace.functionById(trace.functionId(event));
            return f == null ? "kernel " + trace.functionId(event) : KernelNames.shorten(f.displayName(), KERNEL_NAME_WIDTH);
        }
        return trace.kind(event).name().toLowerCase(java.util.Locale.ROOT);
    }

    private void paintMarks(GC gc, TimelineLayout layout, TimelineContent index, TimeWindow w, Marks marks) {
        int dw = layout.dataWidth();
        int x0 = layout.labelWidth();
        if (marks.rangeTo() > marks.rangeFrom()) {
            int a = x0 + (int) Math.clamp(Math.round(w.x(marks.rangeFrom(), dw)), 0, dw);
            int b = x0 + (int) Math.clamp(Math.round(w.x(marks.rangeTo(), dw)), 0, dw);
            gc.setAlpha(60);
            gc.setBackground(palette.selection());
            gc.fillRectangle(a, TimelineLayout.RULER_HEIGHT, Math.max(1, b - a), layout.height());
            gc.setAlpha(255);
            gc.setForeground(palette.selection());
            gc.drawLine(a, TimelineLayout.RULER_HEIGHT, a, layout.height());
            gc.drawLine(b, TimelineLayout.RULER_HEIGHT, b, layout.height());
        }
        int e = marks.selectedEvent();
        if (e >= 0) {
            int l = index.laneIndexOf(e);
            long s = index.itemStart(e);
            long en = index.itemEnd(e);
            if (l >= 0 && en >= w.fromNs() && s < w.toNs() && layout.showsLane(l)) {
                int a = x0 + (int) Math.clamp(Math.floor(w.x(s, dw)), 0, dw - 1);
                int b = x0 + (int) Math.clamp(Math.ceil(w.x(en, dw)), 0, dw);
                gc.setForeground(palette.selection());
                gc.setLineWidth(2);
                int top = layout.laneTop(l);
                gc.drawRectangle(a - 2, top, Math.max(4, b - a + 3), layout.laneHeight());
                gc.setLineWidth(1);
                gc.setLineStyle(SWT.LINE_SOLID);
            }
        }
    }
}
