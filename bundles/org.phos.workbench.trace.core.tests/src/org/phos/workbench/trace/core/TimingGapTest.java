package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * TraceEnd's TimingGaps (i14-cupti): the intervals a CUPTI-timed recording was timed by CUDA events because the
 * recorder let go of CUPTI for a driver checkpoint. Read from the trace the native recorder wrote on the H100 with two
 * such intervals (data/i14-cupti-rec.phos: rec-cupti.phos of docs/gpu-checks.md block i14-cupti; kept beside the
 * test, not in sample-traces, whose traces other tests count).
 */
class TimingGapTest {

    @Test
    void theRecorderOnTheH100WroteTwoCheckpointIntervals() throws Exception {
        Path p = Path.of("data", "i14-cupti-rec.phos");
        Trace t = TraceReader.read(p, null).trace();
        List<TraceEnd.TimingGap> gaps = t.end().timingGaps();
        assertEquals(2, gaps.size(), gaps.toString());
        assertEquals("events", gaps.get(0).source());
        assertEquals("checkpoint", gaps.get(0).reason());
        assertEquals(1956.7, gaps.get(0).startNs() / 1e6, 0.05);
        assertEquals(1992.3, gaps.get(0).endNs() / 1e6, 0.05);
        assertEquals("CUDA events instead of CUPTI in 2 intervals (71.1 ms, checkpoint)", t.end().timingGapsText());
    }

    @Test
    void inWords() {
        TraceEnd end = new TraceEnd(3, 0, 900, List.of(), List.of(new TraceEnd.TimingGap(100, 2_500_100, "events",
                "checkpoint")));
        assertEquals("CUDA events instead of CUPTI in 1 interval (2.5 ms, checkpoint)", end.timingGapsText());
        assertEquals("", new TraceEnd(3, 0, 900).timingGapsText());
    }
}
