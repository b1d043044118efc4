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
        int[][] at = MarkLabels.place(lines, widths, 100, 1000, 3);
        assertEquals(300 - 3 - 70, at[0][0], "'requested' goes left of its line: the instant's line is right of it");
        assertEquals(0, at[0][1]);
        assertEquals(323, at[1][0], "'instant' right of its own line");
        Random random = new Random(14);
        for (int round = 0; round < 2000; round++) {
            int n = 1 + random.nextInt(8);
            int[] x = new int[n];
            int[] w = new int[n];
            for (int i = 0; i < n; i++) {
                x[i] = 100 + random.nextInt(600);
                w[i] = 20 + random.nextInt(120);
            }
            java.util.Arrays.sort(x);
            int[][] p = MarkLabels.place(x, w, 100, 700, 3);
            for (int i = 0; i < n; i++) {
                if (p[i][1] < 0) {
                    continue;
                }
                int from = p[i][0] - 1;
                int to = p[i][0] + w[i] + 1;
                assertTrue(from >= 100 && to <= 700, "inside the data area");
                assertTrue(p[i][0] == x[i] + 3 || p[i][0] == x[i] - 3 - w[i], "beside its own line");
                boolean crossed = false;
                for (int line : x) {
                    crossed |= !(line + 1 < from || line - 1 > to);
                }
                if (crossed) { // only where no row has a place beside its line clear of the lines and labels before
                    for (int row = 0; row < 3; row++) {
                        for (int side : new int[] { x[i] + 3, x[i] - 3 - w[i] }) {
                            int f = side - 1;
                            int t = side + w[i] + 1;
                            boolean clear = f >= 100 && t <= 700;
                            for (int line : x) {
                                clear &= line + 1 < f || line - 1 > t;
                            }
                            for (int j = 0; j < i && clear; j++) {
                                if (p[j][1] == row) {
                                    clear = t + 3 <= p[j][0] - 1 || f >= p[j][0] + w[j] + 1 + 3;
                                }
                            }
                            assertTrue(!clear, "mark " + i + " crosses a line though row " + row + " at " + side
                                    + " was clear: lines " + java.util.Arrays.toString(x));
                        }
                    }
                }
                for (int j = 0; j < i; j++) {
                    if (p[j][1] == p[i][1]) {
                        int jf = p[j][0] - 1;
                        int jt = p[j][0] + w[j] + 1;
                        assertTrue(to <= jf || from >= jt, "labels " + j + " and " + i + " overlap");
                    }
                }
            }
            if (n == 1) {
                assertTrue(p[0][1] == 0, "a lone mark always has its label");
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
