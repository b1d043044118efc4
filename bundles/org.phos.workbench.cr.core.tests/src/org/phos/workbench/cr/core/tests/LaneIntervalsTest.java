package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.LaneIntervals;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.TimelineModel;

/**
 * {@link TimelineModel#intervals(int)} and {@link TimelineModel#laneIntervals(int)}: sorted by start (stable), sorted
 * once per change, the columns agree with the records, and a window found by binary search holds exactly the
 * intervals a filter over the whole lane finds.
 */
class LaneIntervalsTest {

    private static TimelineInterval interval(long start, long end, String category, int n) {
        return new TimelineInterval(Lane.FIRST_STREAM, start, end, "op " + n, category, -1, 0, n);
    }

    @Test
    void intervalsComeSortedByStartAndStable() {
        TimelineModel m = new TimelineModel();
        m.interval(interval(50, 60, TimelineInterval.KERNEL, 0));
        m.interval(interval(10, 20, TimelineInterval.COPY, 1));
        m.interval(interval(50, 55, TimelineInterval.SET, 2)); // equal start: after the first one added
        m.interval(interval(30, 40, TimelineInterval.KERNEL, 3));
        List<TimelineInterval> l = m.intervals(Lane.FIRST_STREAM);
        assertEquals(List.of(1L, 3L, 0L, 2L), l.stream().map(TimelineInterval::opIndex).toList());
        assertThrows(UnsupportedOperationException.class, () -> l.add(interval(1, 2, "x", 9)));

        LaneIntervals c = m.laneIntervals(Lane.FIRST_STREAM);
        assertEquals(4, c.size());
        assertEquals(List.of(TimelineInterval.COPY, TimelineInterval.KERNEL, TimelineInterval.SET), c.categories());
        for (int i = 0; i < c.size(); i++) {
            assertEquals(l.get(i).startNs(), c.startNs(i));
            assertEquals(l.get(i).endNs(), c.endNs(i));
            assertEquals(l.get(i).category(), c.categories().get(c.categoryIndex(i)));
        }
        assertEquals(10, c.maxDurationNs());
        assertEquals(0, m.laneIntervals(Lane.HOST).size(), "a lane without intervals is empty");
    }

    @Test
    void sortedOncePerChange() {
        TimelineModel m = new TimelineModel();
        m.interval(interval(0, 10, TimelineInterval.KERNEL, 0));
        LaneIntervals first = m.laneIntervals(Lane.FIRST_STREAM);
        assertSame(first, m.laneIntervals(Lane.FIRST_STREAM), "no new copy while the lane is unchanged");
        assertSame(first.list(), m.intervals(Lane.FIRST_STREAM));
        m.interval(interval(5, 7, TimelineInterval.COW, 1));
        LaneIntervals second = m.laneIntervals(Lane.FIRST_STREAM);
        assertNotSame(first, second);
        assertEquals(1, first.size(), "an earlier answer does not change under its holder");
        assertEquals(List.of(0L, 1L), second.list().stream().map(TimelineInterval::opIndex).toList());
    }

    @Test
    void windowsByBinarySearchMatchAFilter() {
        Random r = new Random(12);
        TimelineModel m = new TimelineModel();
        List<TimelineInterval> all = new ArrayList<>();
        for (int n = 0; n < 5_000; n++) {
            long start = r.nextInt(1_000_000);
            // mostly short, a few long ones that reach far into later windows
            long length = r.nextInt(100) == 0 ? r.nextInt(200_000) : r.nextInt(500);
            TimelineInterval i = interval(start, start + length, n % 3 == 0 ? "cow" : "kernel", n);
            all.add(i);
            m.interval(i);
        }
        all.sort(Comparator.comparingLong(TimelineInterval::startNs));
        LaneIntervals c = m.laneIntervals(Lane.FIRST_STREAM);
        assertEquals(all, c.list());
        for (int w = 0; w < 200; w++) {
            long from = r.nextInt(1_100_000) - 50_000;
            long to = from + r.nextInt(300_000);
            List<TimelineInterval> expected = all.stream().filter(i -> i.endNs() >= from && i.startNs() <= to)
                    .toList();
            List<TimelineInterval> found = new ArrayList<>();
            int lo = c.firstMayEndFrom(from);
            int hi = c.endAfterStartsUpTo(to);
            for (int i = lo; i < hi; i++) {
                if (c.endNs(i) >= from) {
                    found.add(c.list().get(i));
                }
            }
            assertEquals(expected, found, "window " + from + ".." + to);
            assertTrue(hi - lo <= expected.size() + 2_500, "the candidates are a part of the lane, not all of it");
        }
        assertEquals(c.size(), c.endAfterStartsUpTo(Long.MAX_VALUE));
        assertEquals(0, c.firstMayEndFrom(Long.MIN_VALUE));
    }
}
