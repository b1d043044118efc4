package org.phos.workbench.internal.ui.timeline;

/**
 * The window maths of the timeline: zoom around an anchor, pan by a fraction of the window, reveal a time, reset to
 * the whole trace; the window never leaves the trace's bounds nor shrinks below {@link #MIN_SPAN_NS}.
 */
public final class TimelineNavigator {
    /** Narrowest window: 100 ns over the whole width. */
    public static final long MIN_SPAN_NS = 100;
    /** One W/S press zooms by this factor. */
    public static final double ZOOM_STEP = 1.5;
    /** One A/D press pans by this fraction of the window. */
    public static final double PAN_STEP = 0.2;

    private final long boundsFrom;
    private final long boundsTo;
    private TimeWindow window;

    public TimelineNavigator(long boundsFrom, long boundsTo) {
        this.boundsFrom = boundsFrom;
        this.boundsTo = Math.max(boundsTo, boundsFrom + MIN_SPAN_NS);
        this.window = new TimeWindow(this.boundsFrom, this.boundsTo);
    }

    public TimeWindow window() {
        return window;
    }

    public TimeWindow bounds() {
        return new TimeWindow(boundsFrom, boundsTo);
    }

    public void reset() {
        window = bounds();
    }

    /**
     * Zooms by {@code factor} (> 1 zooms in) keeping the time under {@code anchor} (fraction of the width, 0..1) where
     * it is.
     */
    public void zoom(double factor, double anchor) {
        double a = Math.clamp(anchor, 0.0, 1.0);
        long span = window.span();
        long newSpan = Math.clamp(Math.round(span / factor), MIN_SPAN_NS, boundsTo - boundsFrom);
        long pivot = window.fromNs() + Math.round(span * a);
        set(pivot - Math.round(newSpan * a), newSpan);
    }

    /** Pans by {@code fraction} of the window (negative: earlier). */
    public void pan(double fraction) {
        set(window.fromNs() + Math.round(window.span() * fraction), window.span());
    }

    /** Sets the window to {@code [from, to)}, clamped to the bounds. */
    public void show(long from, long to) {
        long span = Math.clamp(to - from, MIN_SPAN_NS, boundsTo - boundsFrom);
        set(from, span);
    }

    /** Moves the window, keeping its span, so that {@code [from, to)} is inside it (centred when it was not). */
    public void reveal(long from, long to) {
        if (from >= window.fromNs() && to <= window.toNs()) {
            return;
        }
        long span = window.span();
        if (to - from > span) {
            set(from, span);
        } else {
            set((from + to) / 2 - span / 2, span);
        }
    }

    private void set(long from, long span) {
        long f = Math.clamp(from, boundsFrom, boundsTo - span);
        window = new TimeWindow(f, f + span);
    }
}
