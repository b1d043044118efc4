package org.phos.workbench.ui.timeline.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.ToIntFunction;

import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.widgets.Display;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.ui.timeline.LabelFit;
import org.phos.workbench.internal.ui.timeline.MarkLabels;
import org.phos.workbench.internal.ui.timeline.TimelineLayout;

/**
 * The timeline's label rules: a label in a slice is whole, or its leading words with an ellipsis, never a word cut at
 * the slice's end ("stall: draini"); marker labels sit where no marker's dashed line crosses them and no two overlap;
 * compact lanes let every lane of a run fit a short view and never go below a line of text.
 */
class TimelineLabelsTest {
    private static final ToIntFunction<String> SEVEN_PX = s -> 7 * s.length();

    @Test
    void aLabelIsWholeOrShortenedAtAWordNeverCut() {
        String stall = "stall: draining the stream";
        assertEquals(stall, LabelFit.fit(stall, 7 * stall.length(), SEVEN_PX));
        assertEquals("stall: draining the" + LabelFit.ELLIPSIS, LabelFit.fit(stall, 7 * 20, SEVEN_PX));
        assertEquals("stall: draining" + LabelFit.ELLIPSIS, LabelFit.fit(stall, 7 * 17, SEVEN_PX));
        assertEquals("stall" + LabelFit.ELLIPSIS, LabelFit.fit(stall, 7 * 13, SEVEN_PX), "not 'stall: draini'");
        assertEquals("stall" + LabelFit.ELLIPSIS, LabelFit.fit(stall, 7 * 6, SEVEN_PX));
        assertNull(LabelFit.fit(stall, 7 * 5, SEVEN_PX), "not even 'stall…': nothing");
        // a kernel's identifier: cut at its underscores, else its end behind the ellipsis (three characters at least)
        assertEquals("volta_sgemm" + LabelFit.ELLIPSIS, LabelFit.fit("volta_sgemm_128x64_nn", 7 * 14, SEVEN_PX));
        assertEquals("reduc" + LabelFit.ELLIPSIS, LabelFit.fit("reduceKernel", 7 * 6, SEVEN_PX));
        assertNull(LabelFit.fit("reduceKernel", 7 * 3, SEVEN_PX));
        // every width, every label: whole, or a prefix ending at a word's end, or (one word) a prefix of 3+ chars
        for (String s : new String[] { stall, "copy-on-write buffer 7 (2.0 MiB)", "checkpoint requested", "gemm" }) {
            for (int room = 0; room <= 7 * s.length() + 7; room++) {
                String f = LabelFit.fit(s, room, SEVEN_PX);
                if (f == null || f.equals(s)) {
                    continue;
                }
                assertTrue(SEVEN_PX.applyAsInt(f) <= room, f + " fits " + room);
                assertTrue(f.endsWith(LabelFit.ELLIPSIS), f);
                String head = f.substring(0, f.length() - 1);
                char next = s.charAt(head.length());
                boolean atWord = " :,;(<_/=".indexOf(next) >= 0;
                assertTrue(s.startsWith(head) && (atWord || s.indexOf(' ') < 0 && head.length() >= 3),
                        "'" + f + "' of '" + s + "' ends at a word");
            }
        }
    }

    @Test
    void markerLabelsAreCrossedByNoLineAndOverlapNoLabel() {
        // the reviewed case: "requested", then the instant's line 20 px right of it
        int[] lines = { 300, 320, 900 };
        int[] widths = { 70, 50, 110 };
        int[][] at = MarkLabels.place(lines, widths, 100, 1000, 3, 30);
        assertEquals(300 - 3 - 70, at[0][0], "'requested' goes left of its line: the instant's line is right of it");
        assertEquals(0, at[0][1]);
        assertEquals(323, at[1][0], "'instant' right of its own line");
        assertEquals(110, at[2][2], "'image complete' whole");
        // lines 8 px apart, no room on either side: shortened to the edge, on the second row
        int[][] close = MarkLabels.place(new int[] { 500, 508, 516 }, new int[] { 70, 110, 100 }, 100, 600, 2, 30);
        assertTrue(close[0][1] == 0 && close[0][2] == 70, "the first whole, left of its line");
        Random random = new Random(14);
        for (int round = 0; round < 3000; round++) {
            int n = 1 + random.nextInt(8);
            int[] x = new int[n];
            int[] w = new int[n];
            for (int i = 0; i < n; i++) {
                x[i] = 100 + random.nextInt(600);
                w[i] = 20 + random.nextInt(120);
            }
            java.util.Arrays.sort(x);
            int[][] p = MarkLabels.place(x, w, 100, 700, 3, 30);
            for (int i = 0; i < n; i++) {
                if (p[i][1] < 0) {
                    continue;
                }
                int from = p[i][0] - 1;
                int to = p[i][0] + p[i][2] + 1;
                assertTrue(from >= 100 && to <= 700, "inside the data area");
                assertTrue(p[i][2] <= w[i] && p[i][2] >= Math.min(30, w[i]), "room: " + p[i][2]);
                assertTrue(p[i][0] == x[i] + 3 || p[i][0] == x[i] - 3 - w[i] && p[i][2] == w[i],
                        "beside its own line; left of it only whole");
                for (int j = 0; j < i; j++) {
                    if (p[j][1] == p[i][1]) {
                        int jf = p[j][0] - 1;
                        int jt = p[j][0] + p[j][2] + 1;
                        assertTrue(to + 3 <= jf || from >= jt + 3, "labels " + j + " and " + i + " overlap");
                    }
                }
                boolean crossed = false;
                int next = 700;
                for (int line : x) {
                    crossed |= line + 1 >= from && line - 1 <= to;
                    if (line > x[i]) {
                        next = Math.min(next, line - 1);
                    }
                }
                if (crossed) { // only where no row had room up to the next line
                    for (int row = 0; row < 3; row++) {
                        int f = x[i] + 2;
                        int room = Math.min(w[i], Math.min(next - 1, 699) - 1 - (x[i] + 3));
                        boolean free = room >= Math.min(30, w[i]);
                        int t = x[i] + 3 + room + 1;
                        for (int j = 0; j < i && free; j++) {
                            if (p[j][1] == row) {
                                free = t + 3 <= p[j][0] - 1 || f >= p[j][0] + p[j][2] + 1 + 3;
                            }
                        }
                        assertTrue(!free, "mark " + i + " crosses a line though row " + row + " had room up to the next"
                                + " line: lines " + java.util.Arrays.toString(x) + " widths " + java.util.Arrays.toString(w));
                    }
                }
            }
            if (n == 1) {
                assertEquals(0, p[0][1], "a lone mark always has its label");
            }
        }
    }

    @Test
    void compactLanesFitEveryLaneAndKeepALineOfText() {
        TimelineLayout full = TimelineLayout.fitting(100, 600, 1000, 0, 9, 18, 17);
        assertTrue(!full.compact() && full.laneHeight() == TimelineLayout.LANE_HEIGHT, "room: full height " + full);
        int h = 230;
        TimelineLayout c = TimelineLayout.fitting(100, 600, h, 0, 9, 18, 17);
        assertTrue(c.compact(), c.toString());
        assertTrue(c.laneTop(8) + c.laneHeight() + 18 <= h, "nine lanes and a label row in " + h + " px: " + c);
        assertTrue(c.visibleLanes() >= 9, c.toString());
        assertEquals(8, c.laneAt(c.laneTop(8) + 1, 9));
        TimelineLayout tiny = TimelineLayout.fitting(100, 600, 120, 0, 9, 18, 17);
        assertEquals(17, tiny.laneHeight(), "never below a line of text: the rest scrolls");
        assertTrue(tiny.visibleLanes() < 9);
    }

    @Test
    void aNarrowStallIsPaintedWithItsShortenedLabel() {
        Display d = Display.getDefault();
        Image img = new Image(d, 200, 40);
        GC gc = new GC(img);
        try {
            ToIntFunction<String> real = s -> gc.textExtent(s).x;
            String label = "stall: draining stream 0";
            int room = real.applyAsInt("stall: draining") + real.applyAsInt(LabelFit.ELLIPSIS) + 2;
            assertEquals("stall: draining" + LabelFit.ELLIPSIS, LabelFit.fit(label, room, real));
        } finally {
            gc.dispose();
            img.dispose();
        }
    }
}
