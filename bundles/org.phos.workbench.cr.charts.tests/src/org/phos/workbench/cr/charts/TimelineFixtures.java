package org.phos.workbench.cr.charts;

import java.util.List;
import java.util.Map;

import org.phos.workbench.cr.core.CheckpointSummary;
import org.phos.workbench.cr.core.ConsistencyReport;
import org.phos.workbench.cr.core.CounterSample;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.LaneKind;
import org.phos.workbench.cr.core.Marker;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.TimelineModel;

/** Hand-built timelines and metrics whose charts are known in advance. */
final class TimelineFixtures {
    static final String STREAM = "stream 0";
    static final String ENGINE = "engine D2H";
    static final String COW = "C/R CoW D2D";
    static final String COMMIT = "C/R commit D2H";
    static final String HOST = "host (API calls)";

    private TimelineFixtures() {
    }

    /**
     * A soft checkpoint requested at 100 ns: two kernels on stream 0, a commit of 900 ns on the D2H engine and the
     * commit lane, one CoW [150, 250) during which the host stalls, dirty bytes 0 -> 4096 -> 8192.
     */
    static TimelineModel softCheckpoint() {
        TimelineModel m = new TimelineModel();
        m.lane(new Lane(Lane.HOST, HOST, LaneKind.APPLICATION));
        m.lane(Lane.forStream(0));
        m.lane(new Lane(Lane.ENGINE_D2H, ENGINE, LaneKind.COPY_ENGINE));
        m.lane(new Lane(Lane.CR_COMMIT_D2H, COMMIT, LaneKind.CHECKPOINT_RESTORE));
        m.lane(new Lane(Lane.CR_COW_D2D, COW, LaneKind.CHECKPOINT_RESTORE));
        m.lane(new Lane(Lane.CR_CONTROL, "C/R control", LaneKind.CHECKPOINT_RESTORE));
        int s0 = Lane.FIRST_STREAM;
        m.interval(new TimelineInterval(s0, 0, 100, "k1", TimelineInterval.KERNEL, -1, 0, 0));
        m.interval(new TimelineInterval(s0, 250, 400, "k2", TimelineInterval.KERNEL, -1, 0, 1));
        m.interval(new TimelineInterval(Lane.ENGINE_D2H, 100, 1000, "commit buf 0", TimelineInterval.COMMIT, 0, 4096,
                -1));
        m.interval(new TimelineInterval(Lane.CR_COMMIT_D2H, 100, 1000, "commit buf 0", TimelineInterval.COMMIT, 0,
                4096, -1));
        m.interval(new TimelineInterval(Lane.CR_COW_D2D, 150, 250, "cow buf 1", TimelineInterval.COW, 1, 4096, -1));
        m.stall(new StallInterval(Lane.HOST, 150, 250, StallCause.COPY_ON_WRITE, 1, 1));
        m.marker(new Marker(100, "checkpoint 0 requested", 0));
        m.marker(new Marker(1000, "checkpoint 0 image complete", 0));
        m.counter(new CounterSample(100, CounterSample.DIRTY_BYTES, 0));
        m.counter(new CounterSample(250, CounterSample.DIRTY_BYTES, 4096));
        m.counter(new CounterSample(400, CounterSample.DIRTY_BYTES, 8192));
        m.counter(new CounterSample(150, CounterSample.BUDGET_USED, 4096));
        return m;
    }

    /** Metrics of a run with the given figures (times in ns) and nothing else of note. */
    static SimulationMetrics metrics(String policy, long stallTotal, long stallLongest, long completion, long appEnd,
            long baselineEnd, long commitBytes) {
        List<CheckpointSummary> ckpt = completion < 0 ? List.of()
                : List.of(new CheckpointSummary(0, 1_000, 1_000, 1_000 + completion, 1, commitBytes, 0, 0, 0, 0, 0, 0,
                        0, 0));
        return new SimulationMetrics(policy, "h100", 10, 5, appEnd, baselineEnd, appEnd, stallTotal, stallLongest, 1,
                Map.of(StallCause.DRAIN, stallTotal), ckpt, -1, -1, -1, 0,
                Map.of("C/R commit D2H", commitBytes, "engine D2H", commitBytes + 1000, "stream 0", 0L), 0, 0,
                new ConsistencyReport(false, 0, List.of(), 0));
    }
}
