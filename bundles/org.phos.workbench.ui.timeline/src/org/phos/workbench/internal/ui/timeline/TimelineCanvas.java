package org.phos.workbench.internal.ui.timeline;

import java.util.List;
import java.util.function.IntConsumer;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Event;

/**
 * The timeline's input: W/S zoom in/out around the mouse (or the centre), A/D pan, Ctrl+wheel zoom at the mouse, a
 * drag selects a time range, a click picks a slice, a double-click on the ruler shows the whole trace, {@code .} and
 * {@code ,} step to the next/previous launch. It owns no data: it asks the {@link SliceFetcher} and hands the result
 * to the {@link TimelinePainter} (double-buffered canvas). What it draws is a {@link TimelineContent}: the trace
 * timeline's {@link TimelineIndex} or a simulated run's lanes; window listeners let views move timelines together.
 */
public final class TimelineCanvas {
    /** What the canvas reports to its view. */
    public interface Callbacks {
        void picked(int event);

        void rangeSelected(long fromNs, long toNs);

        void step(int direction);
    }

    private static final int DRAG_THRESHOLD = 4;

    private final Canvas canvas;
    private TimelinePainter painter;
    private TimelinePalette palette;
    private final Callbacks callbacks;
    private TimelineContent index;
    private final List<java.util.function.Consumer<TimeWindow>> windowListeners = new java.util.ArrayList<>();
    private SliceFetcher fetcher;
    private TimelineNavigator navigator;
    private TimelinePainter.Marks marks = TimelinePainter.Marks.NONE;
    private int labelWidth = 100;
    private int textHeight = 15;
    private String emptyText = "No trace: open one in an editor or select it in the Traces view.";
    private int dragStart = -1;
    private int dragNow = -1;
    private int firstLane;
    private long lastPressMs;
    private TimeWindow fetchedWindow;
    private int fetchedWidth;
    private List<LaneSlices> fetchedLanes;
    private int lastPressX = Integer.MIN_VALUE;
    private int lastPressY;

    public TimelineCanvas(Composite parent, TimelinePalette palette, Callbacks callbacks) {
        this.palette = palette;
        this.painter = new TimelinePainter(palette);
        this.callbacks = callbacks;
        canvas = new Canvas(parent, SWT.DOUBLE_BUFFERED | SWT.NO_BACKGROUND);
        canvas.addListener(SWT.Paint, this::paint);
        canvas.addListener(SWT.KeyDown, this::key);
        canvas.addListener(SWT.MouseDown, this::mouseDown);
        canvas.addListener(SWT.MouseMove, this::mouseMove);
        canvas.addListener(SWT.MouseUp, this::mouseUp);
        canvas.addListener(SWT.MouseVerticalWheel, this::wheel);
        canvas.addListener(SWT.Resize, e -> canvas.redraw());
    }

    /** The line shown while there is nothing to draw. */
    public void setEmptyText(String text) {
        emptyText = text;
        canvas.redraw();
    }

    /** Paints with {@code palette} from now on (the theme changed). */
    public void setPalette(TimelinePalette palette) {
        this.palette = palette;
        this.painter = new TimelinePainter(palette);
        canvas.redraw();
    }

    /** The colours painted with. */
    public TimelinePalette palette() {
        return palette;
    }

    public Canvas control() {
        return canvas;
    }

    /** Draws {@code index} (a trace's lanes, a simulated run's), showing all of it. */
    public void setIndex(TimelineContent index) {
        setIndex(index, index.start(), index.end());
    }

    /**
     * Draws {@code index} with navigation bounds {@code [from, to)} (wider than the content where two timelines share
     * one time axis), showing all of them.
     */
    public void setIndex(TimelineContent index, long from, long to) {
        this.index = index;
        this.fetcher = new SliceFetcher(index);
        this.fetchedLanes = null;
        this.navigator = new TimelineNavigator(from, to);
        this.marks = TimelinePainter.Marks.NONE;
        this.firstLane = 0;
        GC gc = new GC(canvas);
        try {
            labelWidth = TimelinePainter.labelWidth(gc, index);
            textHeight = gc.getFontMetrics().getHeight();
        } finally {
            gc.dispose();
        }
        canvas.redraw();
    }

    /** What is drawn, or null before the first {@link #setIndex}. */
    public TimelineContent index() {
        return index;
    }

    /**
     * Calls {@code listener} with the new window after each zoom or pan made by input on this canvas (keys, wheel,
     * double-click on the ruler), so that views can move other timelines with it; {@link #showWindow} does not call it.
     */
    public void addWindowListener(java.util.function.Consumer<TimeWindow> listener) {
        windowListeners.add(listener);
    }

    public void removeWindowListener(java.util.function.Consumer<TimeWindow> listener) {
        windowListeners.remove(listener);
    }

    /** Shows {@code [from, to)} (clamped to the bounds) because another timeline moved; tells no window listener. */
    public void showWindow(long from, long to) {
        if (navigator != null) {
            navigator.show(from, to);
            canvas.redraw();
        }
    }

    private void windowMoved(TimeWindow before) {
        TimeWindow now = navigator.window();
        if (!now.equals(before)) {
            for (var l : List.copyOf(windowListeners)) {
                l.accept(now);
            }
        }
    }

    public TimelineNavigator navigator() {
        return navigator;
    }

    /**
     * Where things are now: lanes at full height where the canvas has room for all of them (and a row of marker
     * labels under them), else compact lanes of at least a line of text each ({@link TimelineLayout#fitting}).
     */
    public TimelineLayout layout() {
        Rectangle r = canvas.getClientArea();
        if (index == null) {
            return new TimelineLayout(labelWidth, r.width, r.height, firstLane);
        }
        int lanes = index.lanes().size();
        // room under the lanes for two rows of marker labels where that keeps every lane a line of text high, else one
        int reserve = 0;
        for (int rows = Math.min(2, index.marks().size()); rows > 0; rows--) {
            reserve = rows * (textHeight + 1) + 2;
            TimelineLayout all = TimelineLayout.fitting(labelWidth, r.width, r.height, 0, lanes, reserve,
                    textHeight + 1);
            if (all.laneTop(lanes) + reserve <= r.height) {
                break;
            }
        }
        if (r.height > 0) {
            // no empty space below the last lane while lanes above are scrolled away (a lane revealed while the
            // view was hidden, at height 0, would otherwise keep the lanes above it out of sight)
            int visible = TimelineLayout.fitting(labelWidth, r.width, r.height, 0, lanes, reserve, textHeight + 1)
                    .visibleLanes();
            firstLane = Math.clamp(firstLane, 0, Math.max(0, lanes - visible));
        }
        return TimelineLayout.fitting(labelWidth, r.width, r.height, firstLane, lanes, reserve, textHeight + 1);
    }

    public TimelinePainter.Marks marks() {
        return marks;
    }

    public void setMarks(TimelinePainter.Marks marks) {
        this.marks = marks;
        canvas.redraw();
    }

    private void paint(Event e) {
        TimelineLayout layout = layout();
        if (index == null) {
            e.gc.setBackground(palette.background());
            e.gc.setForeground(palette.foreground());
            e.gc.fillRectangle(canvas.getClientArea());
            e.gc.drawText(emptyText, 8, 8, true);
            return;
        }
        paintInto(e.gc, layout);
    }

    /**
     * Fetches and paints the current window into {@code gc} at {@code layout}'s size (also for benchmarks). The
     * fetch is kept while the window and the width stay the same: a repaint for a selection, a drag or an expose
     * only paints.
     */
    public void paintInto(GC gc, TimelineLayout layout) {
        TimeWindow w = navigator.window();
        List<LaneSlices> lanes = fetched(w, layout.dataWidth());
        TimelinePainter.Marks m = marks;
        if (dragStart >= 0 && Math.abs(dragNow - dragStart) > DRAG_THRESHOLD) {
            long a = timeAt(Math.min(dragStart, dragNow));
            long b = timeAt(Math.max(dragStart, dragNow));
            m = new TimelinePainter.Marks(marks.selectedEvent(), a, b);
        }
        painter.paint(gc, layout, index, w, lanes, m);
    }

    /** The level-of-detail fetch of window {@code w} at {@code width} px, reused while both are unchanged. */
    private List<LaneSlices> fetched(TimeWindow w, int width) {
        if (!w.equals(fetchedWindow) || width != fetchedWidth || fetchedLanes == null) {
            fetchedLanes = fetcher.fetch(w, width);
            fetchedWindow = w;
            fetchedWidth = width;
        }
        return fetchedLanes;
    }

    private long timeAt(int x) {
        TimelineLayout l = layout();
        return navigator.window().time(Math.clamp(x - l.labelWidth(), 0, l.dataWidth()), l.dataWidth());
    }

    /** Fraction of the data area under the mouse, or the centre when the mouse is elsewhere. */
    private double anchor() {
        Point p = canvas.toControl(canvas.getDisplay().getCursorLocation());
        TimelineLayout l = layout();
        if (p.x >= l.labelWidth() && p.x < l.width() && p.y >= 0 && p.y < l.height()) {
            return l.fraction(p.x);
        }
        return 0.5;
    }

    private void key(Event e) {
        if (index == null) {
            return;
        }
        TimeWindow before = navigator.window();
        switch (Character.toLowerCase(e.character)) {
            case 'w' -> navigator.zoom(TimelineNavigator.ZOOM_STEP, anchor());
            case 's' -> navigator.zoom(1 / TimelineNavigator.ZOOM_STEP, anchor());
            case 'a' -> navigator.pan(-TimelineNavigator.PAN_STEP);
            case 'd' -> navigator.pan(TimelineNavigator.PAN_STEP);
            case '.' -> callbacks.step(1);
            case ',' -> callbacks.step(-1);
            default -> {
                return;
            }
        }
        e.doit = false;
        canvas.redraw();
        windowMoved(before);
    }

    private void mouseDown(Event e) {
        atPointer(e);
        canvas.setFocus();
        // double-click detected here: GTK sends no MouseDoubleClick (count stays 1) for presses posted through XTest
        long now = System.currentTimeMillis();
        boolean second = now - lastPressMs <= canvas.getDisplay().getDoubleClickTime()
                && Math.abs(e.x - lastPressX) <= DRAG_THRESHOLD && Math.abs(e.y - lastPressY) <= DRAG_THRESHOLD;
        lastPressMs = second ? 0 : now;
        lastPressX = e.x;
        lastPressY = e.y;
        if (second || e.count >= 2) {
            doubleClick(e);
            return;
        }
        if (index != null && e.button == 1 && !layout().inRuler(e.y) && e.x >= labelWidth) {
            dragStart = e.x;
            dragNow = e.x;
        }
    }

    /**
     * Takes a button event's position from the pointer itself: buttons pressed through XTest (UI tests under Xvfb
     * without a window manager) arrive with coordinates relative to the wrong window; for a person's click the two are
     * the same point.
     */
    private void atPointer(Event e) {
        Point p = canvas.toControl(canvas.getDisplay().getCursorLocation());
        e.x = p.x;
        e.y = p.y;
    }

    private void mouseMove(Event e) {
        if (dragStart >= 0) {
            atPointer(e);
            dragNow = e.x;
            canvas.redraw();
        }
    }

    private void mouseUp(Event e) {
        atPointer(e);
        if (dragStart < 0) {
            return;
        }
        int start = dragStart;
        dragStart = -1;
        if (Math.abs(e.x - start) > DRAG_THRESHOLD) {
            long a = timeAt(Math.min(start, e.x));
            long b = timeAt(Math.max(start, e.x));
            marks = new TimelinePainter.Marks(marks.selectedEvent(), a, b);
            callbacks.rangeSelected(a, b);
        } else {
            TimelineLayout l = layout();
            int lane = l.laneAt(e.y, index.lanes().size());
            if (lane >= 0) {
                long pxNs = Math.max(1, navigator.window().span() / l.dataWidth());
                // what is painted over the lane (a stall over the host's work) is what the click means
                TimelineLane overlay = index.overlay(lane);
                int picked = overlay == null ? -1 : SlicePicker.pick(overlay, timeAt(e.x), 2 * pxNs);
                callbacks.picked(picked >= 0 ? picked : SlicePicker.pick(index.lanes().get(lane), timeAt(e.x), 2 * pxNs));
            }
        }
        canvas.redraw();
    }

    private void doubleClick(Event e) {
        if (index != null && layout().inRuler(e.y)) {
            TimeWindow before = navigator.window();
            navigator.reset();
            canvas.redraw();
            windowMoved(before);
        }
    }

    /** Scrolls the lanes so that lane {@code l} is shown. */
    public void revealLane(int l) {
        TimelineLayout layout = layout();
        if (l < firstLane || l >= firstLane + layout.visibleLanes()) {
            firstLane = Math.max(0, l - layout.visibleLanes() / 2);
            canvas.redraw();
        }
    }

    private void wheel(Event e) {
        if (index != null && (e.stateMask & SWT.CTRL) == 0 && e.count != 0) {
            int max = Math.max(0, index.lanes().size() - layout().visibleLanes());
            firstLane = Math.clamp(firstLane - Integer.signum(e.count), 0, max);
            e.doit = false;
            canvas.redraw();
        } else if (index != null && (e.stateMask & SWT.CTRL) != 0 && e.count != 0) {
            TimelineLayout l = layout();
            TimeWindow before = navigator.window();
            double factor = e.count > 0 ? TimelineNavigator.ZOOM_STEP : 1 / TimelineNavigator.ZOOM_STEP;
            navigator.zoom(factor, e.x >= l.labelWidth() ? l.fraction(e.x) : 0.5);
            e.doit = false;
            canvas.redraw();
            windowMoved(before);
        }
    }
}
