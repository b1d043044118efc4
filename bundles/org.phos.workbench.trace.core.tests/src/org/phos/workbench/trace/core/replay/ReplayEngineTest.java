package org.phos.workbench.trace.core.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.SyncKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceWriter;

class ReplayEngineTest {

    private static TraceEvent alloc(long a, long size) {
        return new TraceEvent.Alloc(0, 1, a, size, AllocKind.PLAIN, 0);
    }

    private static TraceEvent free(long a) {
        return new TraceEvent.Free(0, 1, a, AllocKind.PLAIN, 0);
    }

    private static TraceEvent launch(long stream) {
        return new TraceEvent.Launch(0, 1, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, stream, new byte[0], 0, 0,
                LaunchKind.PLAIN, -1);
    }

    @Test
    void answersLiveAllocationsAtEveryEventOfAWrittenTrace(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("small.phos");
        List<TraceEvent> events = List.of(
                alloc(0x1000, 0x100), // 0
                alloc(0x2000, 0x200), // 1
                launch(0), // 2
                free(0x1000), // 3
                alloc(0x1000, 0x80), // 4: reuse of 0x1000
                free(0x9999), // 5: unknown -> warning
                alloc(0x2100, 0x100), // 6: overlaps 1 -> warning, 1 taken as freed
                free(0), // 7: no-op
                alloc(0x3000, 0), // 8: zero size
                new TraceEvent.Memcpy(0, 1, CopyKind.H2D, 0x5000, 0x1000, 0x80, 0, false, new byte[0], 0, 0), // 9
                free(0x3000)); // 10
        try (TraceWriter w = TraceWriter.create(file, TraceHeader.builder("replay-test", "1").build())) {
            for (TraceEvent e : events) {
                w.write(e);
            }
        }
        Trace trace = TraceReader.read(file, null).trace();
        ReplayEngine replay = new ReplayEngine(trace, 3);
        assertEquals(0, replay.liveCount());
        replay.seek(3);
        assertEquals(2, replay.liveCount());
        assertEquals(0x300, replay.liveBytes());
        assertEquals(0, replay.find(0x10ff));
        assertEquals(-1, replay.find(0x1100));
        assertEquals(new Allocation(1, 0x2000, 0x200), replay.allocationContaining(0x21ff));
        replay.seek(5);
        assertEquals(4, replay.find(0x1000));
        assertEquals(-1, replay.find(0x1080)); // freed part of the old allocation
        replay.runToEnd(null);
        assertEquals(2, replay.liveCount());
        assertEquals(List.of(new Allocation(4, 0x1000, 0x80), new Allocation(6, 0x2100, 0x100)),
                replay.liveSnapshot().toList());
        assertEquals(-1, replay.find(0x2000));
        List<ReplayWarning> warnings = replay.warnings();
        assertEquals(2, warnings.size(), warnings.toString());
        assertEquals(5, warnings.get(0).eventIndex());
        assertTrue(warnings.get(0).message().contains("0x9999"), warnings.get(0).message());
        assertEquals(6, warnings.get(1).eventIndex());
        assertTrue(warnings.get(1).message().contains("overlaps live allocation 1"), warnings.get(1).message());

        replay.seek(1); // backwards through a checkpoint
        assertEquals(1, replay.liveCount());
        assertEquals(0, replay.find(0x1080));
        replay.seek(9);
        assertEquals(3, replay.liveCount()); // zero-size allocation is live
        assertEquals(2, replay.warnings().size()); // not reported twice
        assertThrows(IllegalArgumentException.class, () -> replay.seek(12));
        replay.seek(11);
        assertThrows(IllegalStateException.class, replay::step);

        StreamOrder order = StreamOrder.of(trace, null);
        assertEquals(2, order.operationCount());
        assertTrue(order.happensBefore(2, 9));
    }

    @Test
    void seeksAgreeWithAFreshWalkOnARandomTrace() {
        SplittableRandom random = new SplittableRandom(11);
        Trace.Builder builder = Trace.builder(TraceHeader.builder("replay-test", "1").build());
        List<Long> live = new ArrayList<>();
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            if (live.isEmpty() || random.nextInt(100) < 55) {
                long base = 0x7f00_0000_0000L + 0x1000L * random.nextInt(5000);
                builder.event(alloc(base, 1 + random.nextInt(0x1000)));
                live.add(base); // may be a duplicate: replay warns and resolves
            } else if (random.nextInt(10) == 0) {
                builder.event(new TraceEvent.Sync(0, 1, SyncKind.CONTEXT_SYNCHRONIZE, 0, 0, 0));
            } else {
                builder.event(free(live.remove(random.nextInt(live.size()))));
            }
        }
        Trace trace = builder.build();
        ReplayEngine walker = new ReplayEngine(trace, 1000);
        List<List<Allocation>> states = new ArrayList<>();
        for (int p = 0; p <= n; p += 997) {
            walker.seek(p);
            states.add(walker.liveSnapshot().toList());
        }
        ReplayEngine seeker = new ReplayEngine(trace, 1000);
        seeker.runToEnd(null);
        for (int k = states.size() - 1; k >= 0; k--) {
            seeker.seek(k * 997);
            assertEquals(states.get(k), seeker.liveSnapshot().toList(), "state at " + k * 997);
        }
        for (int k = 0; k < 200; k++) {
            int p = random.nextInt(states.size());
            seeker.seek(p * 997);
            assertEquals(states.get(p), seeker.liveSnapshot().toList(), "random seek to " + p * 997);
        }
        assertFalse(walker.warnings().isEmpty(), "duplicate bases in the random trace give overlap warnings");
    }
}
