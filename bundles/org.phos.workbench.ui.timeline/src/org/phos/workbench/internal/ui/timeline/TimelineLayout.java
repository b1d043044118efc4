package org.phos.workbench.internal.ui.timeline;

/**
 * Where things are on the canvas: the ruler across the top, lane labels in a left column, lanes below the ruler; the
 * data area starts at {@code labelWidth}.
 *
 * @param labelWidth width of the label column (px)
 * @param width canvas width (px)
 * @param height canvas height (px)
 * @param firstLane the lane drawn first below the ruler (the wheel scrolls lanes)
 */
public record TimelineLayout(int labelWidth, int width, int height, int firstLane) {
    public static final int RULER_HEIGHT = 28;
    public static final int LANE_HEIGHT = 22;
    public static final int LANE_GAP = 4;

    /** A layout showing every lane from the first. */
    public TimelineLayout(int labelWidth, int width, int height) {
        this(labelWidth, width, height, 0);
    }

    /** Width of the data area, in which time is drawn. */
    public int dataWidth() {
        return Math.max(1, width - labelWidth);
    }

    /** Top of lane {@code l}. */
    public int laneTop(int l) {
        return RULER_HEIGHT + LANE_GAP + (l - firstLane) * (LANE_HEIGHT + LANE_GAP);
    }

    /** The lane under canvas row {@code y}, or -1. */
    public int laneAt(int y, int laneCount) {
        int rel = y - RULER_HEIGHT - LANE_GAP;
        if (rel < 0) {
            return -1;
        }
        int l = firstLane + rel / (LANE_HEIGHT + LANE_GAP);
        return l < laneCount && rel % (LANE_HEIGHT + LANE_GAP) < LANE_HEIGHT ? l : -1;
    }

    /** Whether lane {@code l} is (partly) on the canvas. */
    public boolean showsLane(int l) {
        return l >= firstLane && laneTop(l) < height;
    }

    /** How many whole lanes fit below the ruler. */
    public int visibleLanes() {
        return Math.max(1, (height - RULER_HEIGHT - LANE_GAP) / (LANE_HEIGHT + LANE_GAP));
    }

    public boolean inRuler(int y) {
        return y < RULER_HEIGHT;
    }

    /** Fraction (0..1) of the data area at canvas column {@code x}. */
    public double fraction(int x) {
        return Math.clamp((double) (x - labelWidth) / dataWidth(), 0.0, 1.0);
    }

    /** Height the lanes need. */
    public static int preferredHeight(int laneCount) {
        return RULER_HEIGHT + LANE_GAP + laneCount * (LANE_HEIGHT + LANE_GAP);
    }
}
