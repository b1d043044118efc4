package org.phos.workbench.ui.timeline.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.core.runtime.NullProgressMonitor;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.ui.timeline.LaneSlices;
import org.phos.workbench.internal.ui.timeline.SliceFetcher;
import org.phos.workbench.internal.ui.timeline.TimeWindow;
import org.phos.workbench.internal.ui.timeline.TimelineIndex;
import org.phos.workbench.internal.ui.timeline.TimelineLane;
import org.phos.workbench.internal.ui.timeline.TimelineNavigator;
import org.phos.workbench.trace.core.Trace;

/** Level of detail: nothing drawn is lost, dense lanes become busy columns, the navigator keeps inside the trace. */
class SliceFetcherTest {
    @Test
    void everyEventIsDrawnAtEveryWidthAndDenseColumnsMerge() throws Exception {
        Trace t = TimelineFixture.load(TimelineFixture.sample("pytorch-train.phos")).trace();
        TimelineIndex index = TimelineIndex.build(t, new NullProgressMonitor());
        TimeWindow whole = new TimeWindow(index.start(), index.end());
        int lanesWithWork = 0;
        for (int width : new int[] { 20, 100, 1600 }) {
            List<LaneSlices> drawn = new SliceFetcher(index).fetch(whole, width);
            assertEquals(index.lanes().size(), drawn.size());
            int merged = 0;
            for (int l = 0; l < drawn.size(); l++) {
                TimelineLane lane = index.lanes().get(l);
                LaneSlices s = drawn.get(l);
                boolean[] covered = new boolean[width];
                for (int k = 0; k < s.sliceCount(); k++) {
                    for (int x = s.sliceX0(k); x < s.sliceX1(k); x++) {
                        covered[x] = true;
                    }
                }
                for (int b = 0; b < s.busyCount(); b++) {
                    merged++;
                    for (int x = s.busyX0(b); x < s.busyX1(b); x++) {
                        covered[x] = true;
                    }
                }
                for (int k = 0; k < lane.size(); k++) {
                    int x = (int) Math.min(width - 1, Math.floor(whole.x(lane.starts()[k], width)));
                    assertTrue(covered[x], "event " + lane.events()[k] + " of " + lane.label() + " drawn at " + width + " px");
                }
                assertTrue(s.sliceCount() + s.busyCount() <= 2 * width + lane.size(), "bounded by the width");
                if (width == 1600 && s.sliceCount() > 0) {
                    lanesWithWork++;
                }
            }
            if (width == 20) {
                assertTrue(merged > 0, "at 20 px many events share columns: busy columns drawn");
            }
        }
        assertTrue(lanesWithWork >= 3, "host lane and stream lanes have slices at 1600 px");
    }

    @Test
    void gallopingSearchFromAGuessFindsWhatTheBinarySearchFinds() {
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 200; round++) {
            int n = random.nextInt(300);
            long[] starts = new long[n];
            for (int k = 0; k < n; k++) {
                starts[k] = (k == 0 ? 0 : starts[k - 1]) + random.nextInt(4); // runs of equal starts included
            }
            TimelineLane lane = new TimelineLane("l", 0, new int[n], starts, starts.clone(), starts.clone(), new byte[n]);
            for (int q = 0; q < 50; q++) {
                long t = random.nextInt(n * 2 + 2) - 1;
                int expected = lane.firstStartingAtOrAfter(t);
                int from = expected == 0 ? 0 : random.nextInt(expected + 1); // every entry before it starts before t
                int guess = random.nextInt(n + 20) - 10;
                assertEquals(expected, lane.firstStartingAtOrAfter(t, from, guess),
                        "t=" + t + " from=" + from + " guess=" + guess + " n=" + n);
            }
        }
    }

    @Test
    void navigatorZoomsAroundTheAnchorAndStaysInsideTheTrace() {
        TimelineNavigator n = new TimelineNavigator(1_000, 11_000);
        n.zoom(2, 0.5);
        assertEquals(new TimeWindow(3_500, 8_500), n.window());
        n.pan(-1);
        assertEquals(new TimeWindow(1_000, 6_000), n.window(), "clamped at the start");
        n.zoom(1e9, 0.0);
        assertEquals(TimelineNavigator.MIN_SPAN_NS, n.window().span());
        n.reveal(10_900, 10_950);
        assertTrue(n.window().contains(10_900));
        n.reset();
        assertEquals(n.bounds(), n.window());
    }
}
