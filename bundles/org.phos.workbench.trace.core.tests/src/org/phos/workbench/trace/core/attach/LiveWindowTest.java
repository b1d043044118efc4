package org.phos.workbench.trace.core.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.StreamGap;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * {@link LiveWindow} over a real Unix socket serving a trace written by {@link TraceWriter} in small batches: the
 * snapshot holds about the window's newest events, numbered with gaps so that each event keeps the process's index,
 * keeps the batch of an allocation still live from before the window, drops the one of a freed allocation, and
 * matches the saved stream where nothing was dropped.
 */
class LiveWindowTest {
    @TempDir
    Path dir;

    private final long self = ProcessHandle.current().pid();

    /** Alloc 0x1000 (freed later), alloc 0x2000 (stays live), then {@code launches} launches, free 0x1000, end. */
    private byte[] trace(int launches) throws IOException {
        Path f = dir.resolve("t.phos");
        TraceHeader h = TraceHeader.builder("phos-recorder", "0.1.0").pid((int) self).deviceName("Fake GPU")
                .argv(List.of("app")).build();
        try (TraceWriter w = TraceWriter.create(f, h, new TraceWriter.Options(true, false, 3, 2048))) {
            w.function(new FunctionInfo(1, 1, "axpy", "", List.of()));
            w.write(new TraceEvent.Alloc(1, 1, 0x1000, 4096, AllocKind.PLAIN, 0));
            w.write(new TraceEvent.Alloc(2, 1, 0x2000, 8192, AllocKind.PLAIN, 0));
            Dim3 d = new Dim3(1, 1, 1);
            for (int i = 0; i < launches; i++) {
                w.write(new TraceEvent.Launch(10 + i, 1, 1, d, d, 0, 0, new byte[] { (byte) i }, 0, 0,
                        LaunchKind.PLAIN, 0));
            }
            w.write(new TraceEvent.Free(10 + launches, 1, 0x1000, AllocKind.PLAIN, 0));
        }
        return Files.readAllBytes(f);
    }

    private LiveWindow feed(byte[] bytes, int window) throws Exception {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(AttachDirectory.socket(dir, self)));
        Thread t = new Thread(() -> {
            try (server; SocketChannel c = server.accept()) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) {
                    c.write(b);
                }
            } catch (IOException e) {
                // the reader went away
            }
        });
        t.start();
        LiveWindow w = new LiveWindow(window);
        try (LiveStream s = LiveStream.open(dir, self)) {
            LiveStream.StreamChunk c;
            while ((c = s.next()) != null) {
                w.accept(c);
            }
        }
        w.markEnded();
        t.join(5000);
        Files.delete(AttachDirectory.socket(dir, self));
        return w;
    }

    @Test
    void theSnapshotHoldsTheNewestWindowWithProcessIndicesAndTheLiveAllocation() throws Exception {
        int launches = 20_000;
        LiveWindow w = feed(trace(launches), 1_000);
        LiveWindow.Snapshot s = w.snapshot(dir.resolve("window.phos"), null);
        Trace tr = s.loaded().trace();
        assertEquals(launches + 3, s.received());
        assertTrue(s.ended() && s.closedCleanly());
        assertTrue(s.dropped() > launches - 2_000, s.dropped() + " dropped");
        // about the window: whole batches, so at least 1,000 and less than 1,000 + one batch
        int held = tr.count(EventKind.LAUNCH);
        assertTrue(held >= 999 && held < 3_000, held + " launches held (the window and the first batch)");
        // the alloc batch of 0x2000 (still live) is held; the process index of each event is kept through the gaps
        List<StreamGap> gaps = s.loaded().streamGaps();
        assertFalse(gaps.isEmpty());
        assertEquals(StreamGap.Reason.ATTACHED_LATE, gaps.get(0).reason(), "older events: in the trace file");
        assertTrue(gaps.stream().noneMatch(g -> g.reason() == StreamGap.Reason.READER_BEHIND), gaps.toString());
        // the first batch holds the allocation of 0x2000, still live: it is kept (with the launches in it)
        assertEquals(EventKind.ALLOC, tr.kind(0));
        assertEquals(EventKind.ALLOC, tr.kind(1));
        assertEquals(0, StreamGap.processIndex(gaps, 0));
        // then the window: every event from windowStart to the end, each at its process index
        int inWindow = 0;
        int firstInWindow = -1;
        for (int i = 0; i < tr.eventCount(); i++) {
            long p = StreamGap.processIndex(gaps, i);
            if (p >= s.windowStart()) {
                inWindow++;
                if (firstInWindow < 0) {
                    firstInWindow = i;
                    assertEquals(s.windowStart(), p, "the window starts at its first event");
                }
            }
        }
        assertEquals(launches + 3 - s.windowStart(), inWindow, "the window holds every event from its start on");
        assertTrue(inWindow >= 1_000, inWindow + " events in the window");
        // the process's event p is launch p - 2, with host time 10 + (p - 2)
        assertEquals(EventKind.LAUNCH, tr.kind(firstInWindow));
        assertEquals(10 + s.windowStart() - 2, tr.hostNs(firstInWindow));
        assertEquals(launches + 3, StreamGap.processIndex(gaps, tr.eventCount() - 1) + 1, "the last event is the free");
        assertEquals(EventKind.FREE, tr.kind(tr.eventCount() - 1));
    }

    @Test
    void aWindowLargerThanTheStreamHoldsAllOfIt() throws Exception {
        LiveWindow w = feed(trace(500), 10_000);
        LiveWindow.Snapshot s = w.snapshot(dir.resolve("window.phos"), null);
        assertEquals(0, s.dropped());
        assertEquals(503, s.loaded().trace().eventCount());
        assertTrue(s.loaded().streamGaps().isEmpty(), s.loaded().streamGaps().toString());
        assertEquals(500, s.loaded().trace().launchCount());
    }
}
