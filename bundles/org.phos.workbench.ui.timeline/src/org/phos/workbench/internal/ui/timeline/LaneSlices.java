package org.phos.workbench.internal.ui.timeline;

import java.util.Arrays;

/**
 * What to draw in one lane for one window and width: individual slices (pixel span, category, event index) and
 * merged busy runs (pixel span, category, density level {@code 0..}{@link #LEVELS}{@code -1}) where more than one
 * event falls into a pixel column. Growable primitive arrays; nothing per event is allocated.
 */
public final class LaneSlices {
    /** Density levels of a busy column: level = events in the column on a log scale. */
    public static final int LEVELS = 6;

    private int[] slices = new int[64];
    private int sliceCount;
    private int[] busy = new int[64];
    private int busyCount;
    private @org.eclipse.jdt.annotation.Nullable LaneSlices overlay;

    void addSlice(int x0, int x1, int category, int event) {
        if (4 * sliceCount + 4 > slices.length) {
            slices = Arrays.copyOf(slices, slices.length * 2);
        }
        int k = 4 * sliceCount++;
        slices[k] = x0;
        slices[k + 1] = x1;
        slices[k + 2] = category;
        slices[k + 3] = event;
    }

    /** Adds a busy column, merged into the previous run when adjacent with the same category and level. */
    void addBusy(int x, int category, int level) {
        if (busyCount > 0) {
            int k = 4 * (busyCount - 1);
            if (busy[k + 1] == x && busy[k + 2] == category && busy[k + 3] == level) {
                busy[k + 1] = x + 1;
                return;
            }
        }
        if (4 * busyCount + 4 > busy.length) {
            busy = Arrays.copyOf(busy, busy.length * 2);
        }
        int k = 4 * busyCount++;
        busy[k] = x;
        busy[k + 1] = x + 1;
        busy[k + 2] = category;
        busy[k + 3] = level;
    }

    /** What is painted over this lane (its content's overlay), or null. */
    public @org.eclipse.jdt.annotation.Nullable LaneSlices overlay() {
        return overlay;
    }

    void setOverlay(LaneSlices overlay) {
        this.overlay = overlay;
    }

    public int sliceCount() {
        return sliceCount;
    }

    public int sliceX0(int s) {
        return slices[4 * s];
    }

    /** Exclusive end column, {@code > sliceX0}. */
    public int sliceX1(int s) {
        return slices[4 * s + 1];
    }

    public int sliceCategory(int s) {
        return slices[4 * s + 2];
    }

    public int sliceEvent(int s) {
        return slices[4 * s + 3];
    }

    public int busyCount() {
        return busyCount;
    }

    public int busyX0(int b) {
        return busy[4 * b];
    }

    public int busyX1(int b) {
        return busy[4 * b + 1];
    }

    public int busyCategory(int b) {
        return busy[4 * b + 2];
    }

    public int busyLevel(int b) {
        return busy[4 * b + 3];
    }

    /** Density level of {@code count} events in one column: 1 → 0, 2-3 → 1, 4-7 → 2, ... capped. */
    static int level(int count) {
        return Math.min(LEVELS - 1, 31 - Integer.numberOfLeadingZeros(Math.max(1, count)));
    }
}
