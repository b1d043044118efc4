package org.phos.workbench.internal.ui.timeline;

/**
 * Where the labels of a timeline's vertical marks go (checkpoint requested, instant, image complete), in a few rows
 * under the lanes through which the dashed lines run. Each label, in the first row that has a place for it:
 * <ol>
 * <li>whole, right of its line, else left of it, crossing no mark's line and overlapping no label placed before it;
 * <li>else right of its line, shortened ({@link LabelFit}) to end before the next line or the canvas's edge;
 * <li>else (lines closer than a short word) right of its line, shortened to the canvas's edge, over the other lines:
 * the painter draws the labels opaque after all the lines, so a line stops at a label instead of running through it.
 * </ol>
 * A label with no place at all is left out (its line keeps its colour; the details and exports name it). Pure
 * arithmetic, so a test checks the rules on any set of marks.
 */
public final class MarkLabels {
    /** Space between a line and its label, and between two labels of a row (px). */
    static final int PAD = 3;

    private MarkLabels() {
    }

    /**
     * Places labels of widths {@code widths} for lines at {@code lineX} (canvas columns, in time order) between
     * columns {@code left} and {@code right}, with {@code shortest} px the least room a shortened label is given;
     * returns per mark {left column, row, room}: row -1 where it is left out, room (px) less than its width where the
     * label is to be shortened to fit it.
     */
    public static int[][] place(int[] lineX, int[] widths, int left, int right, int rows, int shortest) {
        int n = lineX.length;
        int[][] out = new int[n][];
        int[][] taken = new int[n][]; // placed labels: from, to, row
        int placed = 0;
        for (int i = 0; i < n; i++) {
            out[i] = new int[] { 0, -1, 0 };
            int[] candidates = { lineX[i] + PAD, lineX[i] - PAD - widths[i] };
            for (int pass = 0; pass < 3 && out[i][1] < 0; pass++) {
                for (int row = 0; row < rows && out[i][1] < 0; row++) {
                    for (int c = 0; c < (pass == 0 ? 2 : 1) && out[i][1] < 0; c++) {
                        int lx = candidates[c];
                        int room = widths[i];
                        if (pass == 1) { // right of its line, up to the next line
                            room = Math.min(widths[i], Math.min(nextLine(lineX, lineX[i]) - 1, right) - 1 - lx);
                        } else if (pass == 2) { // right of its line, up to the edge, over the lines
                            room = Math.min(widths[i], right - 1 - lx);
                        }
                        if (pass > 0 && room < Math.min(shortest, widths[i])) {
                            continue;
                        }
                        int from = lx - 1;
                        int to = lx + room + 1;
                        if (from < left || to > right || (pass < 2 && crossesLine(lineX, from, to))
                                || overlaps(taken, placed, from, to, row)) {
                            continue;
                        }
                        out[i] = new int[] { lx, row, room };
                        taken[placed++] = new int[] { from, to, row };
                    }
                }
            }
        }
        return out;
    }

    /** The first column covered by a line right of {@code x} (lines cover x-1..x+1), or a column far right. */
    private static int nextLine(int[] lineX, int x) {
        int next = Integer.MAX_VALUE;
        for (int l : lineX) {
            if (l > x && l - 1 < next) {
                next = l - 1;
            }
        }
        return next;
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
