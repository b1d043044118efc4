package org.phos.workbench.internal.ui.timeline;

/**
 * Where things are on the canvas: the ruler across the top, lane labels in a left column, lanes below the ruler; the
 * data area starts at {@code labelWidth}. Lanes are {@link #LANE_HEIGHT} high unless the canvas is too short for all
 * of them: then they are made compact ({@link #fitting}), down to a line of text each, so that a run's lanes (host,
 * streams, copy engines, copy-on-write, commit, restore) are seen together in a view of a default layout.
 *
 * @param labelWidth width of the label column (px)
 * @param width canvas width (px)
 * @param height canvas height (px)
 * @param firstLane the lane drawn first below the ruler (the wheel scrolls lanes)
 * @param laneHeight height of one lane (px)
 * @param laneGap space between lanes (px)
 */
public record TimelineLayout(int labelWidth, int width, int height, int firstLane, int laneHeight, int laneGap) {
    public static final int RULER_HEIGHT = 28;
    public static final int LANE_HEIGHT = 22;
    public static final int LANE_GAP = 4;
    /** The gap between compact lanes. */
    public static final int COMPACT_GAP = 2;

    /** A layout with lanes of the full height from lane {@code firstLane}. */
    public TimelineLayout(int labelWidth, int width, int height, int firstLane) {
        this(labelWidth, width, height, firstLane, LANE_HEIGHT, LANE_GAP);
    }

    /** A layout showing every lane from the first, at the full height. */
    public TimelineLayout(int labelWidth, int width, int height) {
        this(labelWidth, width, height, 0);
    }

    /**
     * The layout of {@code laneCount} lanes in {@code height} px: full height where they all fit with {@code reserve}
     * px to spare below them (a row of marker labels), else compact: the tallest lanes of at least {@code minLane} px
     * that fit (lanes that still do not fit are scrolled to, as at full height).
     */
    public static TimelineLayout fitting(int labelWidth, int width, int height, int firstLane, int laneCount,
            int reserve, int minLane) {
        if (laneCount <= 0 || preferredHeight(laneCount) + reserve <= height) {
            return new TimelineLayout(labelWidth, width, height, firstLane);
        }
        int pitch = (height - RULER_HEIGHT - COMPACT_GAP - reserve) / laneCount;
        int lane = Math.clamp(pitch - COMPACT_GAP, Math.min(minLane, LANE_HEIGHT), LANE_HEIGHT);
        return new TimelineLayout(labelWidth, width, height, firstLane, lane, COMPACT_GAP);
    }

    /** Whether the lanes are compact (lower than {@link #LANE_HEIGHT}). */
    public boolean compact() {
        return laneHeight < LANE_HEIGHT;
    }

    /** Width of the data area, in which time is drawn. */
    public int dataWidth() {
        return Math.max(1, width - labelWidth);
    }

    /** Top of lane {@code l}. */
    public int laneTop(int l) {
        return RULER_HEIGHT + laneGap + (l - firstLane) * (laneHeight + laneGap);
    }

    /** The lane under canvas row {@code y}, or -1. */
    public int laneAt(int y, int laneCount) {
        int rel = y - RULER_HEIGHT - laneGap;
        if (rel < 0) {
            return -1;
        }
        int l = firstLane + rel / (laneHeight + laneGap);
        return l < laneCount && rel % (laneHeight + laneGap) < laneHeight ? l : -1;
    }

    /** Whether lane {@code l} is (partly) on the canvas. */
    public boolean showsLane(int l) {
        return l >= firstLane && laneTop(l) < height;
    }

    /** How many whole lanes fit below the ruler. */
    public int visibleLanes() {
        return Math.max(1, (height - RULER_HEIGHT - laneGap) / (laneHeight + laneGap));
    }

    public boolean inRuler(int y) {
        return y < RULER_HEIGHT;
    }

    /** Fraction (0..1) of the data area at canvas column {@code x}. */
    public double fraction(int x) {
        return Math.clamp((double) (x - labelWidth) / dataWidth(), 0.0, 1.0);
    }

    /** Height the lanes need at full height. */
    public static int preferredHeight(int laneCount) {
        return RULER_HEIGHT + LANE_GAP + laneCount * (LANE_HEIGHT + LANE_GAP);
    }
}
