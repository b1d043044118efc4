package org.phos.workbench.internal.ui.timeline;

/**
 * Where the labels of a timeline's vertical marks go (checkpoint requested, instant, image complete): each right of
 * its line, else left of it, in the first of a few rows where it crosses no mark's line (the dashed lines run through
 * the label rows) and overlaps no label placed before it. Where marks are so close that every such place crosses a
 * line, the label still goes beside its own line on a free row, and the painter draws it opaque after all the lines:
 * the other line stops at the label instead of running through its text. A label with no free row at all is left out
 * (its line keeps its colour; the details and exports name it). Pure arithmetic, so a test checks the rule on any set
 * of marks.
 */
public final class MarkLabels {
    /** Space between a line and its label, and between two labels of a row (px). */
    static final int PAD = 3;

    private MarkLabels() {
    }

    /**
     * Places labels of widths {@code widths} for lines at {@code lineX} (canvas columns, in the order to place them)
     * between columns {@code left} and {@code right}; returns per mark its label's left column and its row
     * ({@code [i][0]}, {@code [i][1]}), row -1 where it is left out.
     */
    public static int[][] place(int[] lineX, int[] widths, int left, int right, int rows) {
        int n = lineX.length;
        int[][] out = new int[n][];
        int[][] taken = new int[n][]; // placed labels: from, to, row
        int placed = 0;
        for (int i = 0; i < n; i++) {
            out[i] = new int[] { 0, -1 };
            int[] candidates = { lineX[i] + PAD, lineX[i] - PAD - widths[i] };
            search: for (int row = 0; row < rows; row++) {
                for (int lx : candidates) {
                    int from = lx - 1;
                    int to = lx + widths[i] + 1;
                    if (from < left || to > right || crossesLine(lineX, from, to) || overlaps(taken, placed, from, to, row)) {
                        continue;
                    }
                    out[i] = new int[] { lx, row };
                    taken[placed++] = new int[] { from, to, row };
                    break search;
                }
            }
            if (out[i][1] < 0) { // lines close together: beside its own line all the same, over the other lines
                search: for (int row = 0; row < rows; row++) {
                    for (int lx : candidates) {
                        int from = lx - 1;
                        int to = lx + widths[i] + 1;
                        if (from >= left && to <= right && !overlaps(taken, placed, from, to, row)) {
                            out[i] = new int[] { lx, row };
                            taken[placed++] = new int[] { from, to, row };
                            break search;
                        }
                    }
                }
            }
        }
        return out;
    }

    private static boolean crossesLine(int[] lineX, int from, int to) {
        for (int x : lineX) {
            // a 2 px line at x covers x-1..x+1 (SWT centres wide lines)
            if (x + 1 >= from && x - 1 <= to) {
                return true;
            }
        }
        return false;
    }

    private static boolean overlaps(int[][] taken, int count, int from, int to, int row) {
        for (int k = 0; k < count; k++) {
            if (taken[k][2] == row && from < taken[k][1] + PAD && to + PAD > taken[k][0]) {
                return true;
            }
        }
        return false;
    }
}
