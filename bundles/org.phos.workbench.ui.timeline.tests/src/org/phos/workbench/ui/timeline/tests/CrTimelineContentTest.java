package org.phos.workbench.ui.timeline.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.internal.ui.timeline.TimeFormat;
import org.phos.workbench.internal.ui.timeline.TimelineLane;
import org.phos.workbench.internal.ui.timeline.cr.CrCategory;
import org.phos.workbench.internal.ui.timeline.cr.CrTimelineContent;
import org.phos.workbench.internal.ui.timeline.cr.MetricDifference;

/**
 * A simulated run as the C/R Timeline's content, checked against the run's own model and metrics: every interval once
 * in its lane, every stall in its lane's overlay, lanes sorted for the fetcher, the host stalls the metrics count, each
 * copy-on-write's launch; and the ruler's and table's formatting.
 */
class CrTimelineContentTest {
    @Test
    void everyIntervalAndStallOfTheRunIsAnItemOfItsLane() throws Exception {
        ExperimentResult r = CrFixture.experiment(TimelineFixture.load(TimelineFixture.sample(CrTimelineUiTest.SAMPLE)),
                "cow", CrTimelineUiTest.SOFT_COW);
        CrRun run = r.runs().get(0);
        TimelineModel model = run.timeline();
        SimulationMetrics m = run.metrics();
        CrTimelineContent c = new CrTimelineContent(run);

        Set<Object> seen = new HashSet<>();
        int intervals = 0;
        for (int l = 0; l < c.lanes().size(); l++) {
            TimelineLane lane = c.lanes().get(l);
            for (int k = 0; k < lane.size(); k++) {
                assertTrue(k == 0 || lane.starts()[k - 1] <= lane.starts()[k], "sorted by start: " + lane.label());
                TimelineInterval i = (TimelineInterval) c.item(lane.events()[k]);
                assertEquals(c.crLane(l).id(), i.lane(), "in its own lane");
                assertEquals(l, c.laneIndexOf(lane.events()[k]));
                assertEquals(CrCategory.of(i).ordinal(), lane.categories()[k]);
                assertTrue(seen.add(i), "once");
                intervals++;
            }
            TimelineLane o = c.overlay(l);
            for (int k = 0; o != null && k < o.size(); k++) {
                StallInterval s = (StallInterval) c.item(o.events()[k]);
                assertEquals(c.crLane(l).id(), s.lane(), "a stall over the lane it hit");
                assertEquals(CrCategory.of(s).ordinal(), o.categories()[k]);
            }
        }
        int expected = model.lanes().stream().mapToInt(l -> model.intervals(l.id()).size()).sum();
        assertEquals(expected, intervals, "every interval of the model");
        assertEquals(intervals + model.stalls().size(), c.itemCount(), "and every stall");

        List<StallInterval> host = c.hostStalls();
        assertEquals(m.stallCount(), host.size(), "host stalls = the metrics' stall count");
        assertEquals(m.stallTotalNs(), host.stream().mapToLong(StallInterval::durationNs).sum());
        assertEquals(0, c.laneIndex(Lane.HOST), "host lane first");
        assertEquals(3, c.marks().size(), "requested, instant, image complete: " + c.marks());
        assertTrue(c.marks().get(0).label().startsWith("requested"), "one checkpoint: no number: " + c.marks());

        long cowStalls = model.stalls().stream().filter(s -> s.cause() == StallCause.COPY_ON_WRITE).count();
        long named = 0;
        for (TimelineInterval cow : model.intervals(Lane.CR_COW_D2D)) {
            StallInterval s = c.causeOf(cow);
            if (s != null) {
                named++;
                assertEquals(cow.buffer(), s.buffer());
                assertTrue(s.opIndex() >= 0, "the stall names the launch");
            }
        }
        assertTrue(cowStalls > 0, "copies-on-write stalled the launches that write");
        assertEquals(cowStalls, named, "each copy-on-write stall names its copy's launch");
        assertTrue(c.end() >= m.endNs() && c.start() <= 0, "spans the run: " + c.start() + ".." + c.end());
    }

    @Test
    void rulerTicksHaveTheDecimalsTheirSpacingNeeds() {
        assertEquals("526.712 ms", TimeFormat.tick(526_712_000, 2_000));
        assertEquals("526.714 ms", TimeFormat.tick(526_714_000, 2_000));
        assertEquals("300 ms", TimeFormat.tick(300_000_000, 50_000_000));
        assertEquals("400.2 ms", TimeFormat.tick(400_200_000, 200_000));
        assertEquals("1.5 s", TimeFormat.tick(1_500_000_000, 500_000_000));
        assertEquals("830 ns", TimeFormat.tick(830, 10));
    }

    @Test
    void differencesAreRightMinusLeftAndPercentOfTheLeft() {
        MetricDifference d = new MetricDifference("stall total", "ns", 2_000_000, 3_000_000);
        assertEquals(1_000_000, d.difference());
        assertEquals(50.0, d.percent(), 1e-12);
        assertEquals("+50.0%", d.formatPercent());
        assertEquals("1 ms", d.format(d.difference()));
        MetricDifference zero = new MetricDifference("CoW count", "count", 0, 4);
        assertEquals(4, zero.difference());
        assertTrue(Double.isNaN(zero.percent()), "no percentage of 0");
        assertEquals("-", zero.formatPercent());
        assertEquals("-2 MiB", new MetricDifference("b", "bytes", 0, 0).format(-2.0 * (1 << 20)));
    }
}
