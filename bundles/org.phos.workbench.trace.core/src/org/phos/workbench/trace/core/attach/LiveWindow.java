package org.phos.workbench.trace.core.attach;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.trace.core.format.Chunks;
import org.phos.workbench.internal.trace.core.format.StreamChunkDecoder;
import org.phos.workbench.internal.trace.core.format.WireFormatException;
import org.phos.workbench.internal.trace.core.model.EventSink;
import org.phos.workbench.internal.trace.core.model.EventWatcher;
import org.phos.workbench.trace.core.StreamGap;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;

/**
 * The recent part of a live stream, kept so that a view can look at a process while it records, with memory
 * bounded however long it runs. Fed chunk by chunk on the reading thread ({@link #accept}); from any other thread
 * {@link #snapshot} turns what it holds into an ordinary immutable {@link org.phos.workbench.trace.core.Trace}
 * (through a {@code .phos} file loaded by {@link TraceReader}: the same checks, the same model, the same gap
 * numbering as a saved stream), one generation at a time.
 * <p>
 * What is held: the header, StreamStart, every Module and Function chunk, the EventBatch chunks of the last
 * {@code window} events as received (compressed bytes, not decoded events), and, from older batches, only those
 * holding an allocation that is still live (so Buffers and Accesses still know the memory a recent launch uses) or
 * the first launch of a function (engines that remember first launches are shown it; i14-incr).
 * The events before the window are written into the snapshot as EventGap chunks with reason {@code ATTACHED_LATE}
 * ("not here: in the process's trace file"), holes inside the window (the reader fell behind) as
 * {@code READER_BEHIND}; the snapshot's {@link TraceLoadResult#streamGaps()} say where each event is in the process.
 */
public final class LiveWindow {
    /**
     * What a snapshot holds, besides its trace.
     *
     * @param loaded        the trace of the window, loaded
     * @param received      events received since attaching
     * @param dropped       events received and then dropped because they were older than the window
     * @param missed        events the stream did not carry (this reader fell behind), since attaching
     * @param windowStart   the process's index of the first event of the window (older ones: only live allocations)
     * @param ended         whether the stream has ended (process exited or killed, or detached)
     * @param closedCleanly whether it ended with TraceEnd (the process closed its trace)
     * @param tracePath     the process's own trace file (from StreamStart; empty if not known)
     * @param launchNumbers the number of each launch of the snapshot as the received stream numbers it (as
     *                      {@code speculate --launch N} numbers the launches of the saved stream)
     */
    public record Snapshot(TraceLoadResult loaded, long received, long dropped, long missed, long windowStart,
            boolean ended, boolean closedCleanly, String tracePath, LaunchNumbers launchNumbers) {
    }

    /**
     * i14-incr: launchesBefore counts the launches received before the batch, launches those in it; firstLaunch: it
     * holds the first launch of a function (kept like a live allocation: engines that remember first launches need it).
     */
    private record Batch(long first, int count, byte[] framed, Held[] holds, long launchesBefore, int launches,
            boolean firstLaunch) {
    }

    /**
     * i14-incr: an allocation a batch holds, and where it ended (the first event index of the batch that freed it; -1
     * while it lives). A batch older than the window is kept while one of its allocations lives or was freed inside
     * the window (a launch of the window before the free still uses it).
     */
    private static final class Held {
        long endedAt = -1;
    }

    private final int window;
    private final StreamChunkDecoder decoder = new StreamChunkDecoder();
    private @Nullable byte[] header;
    private @Nullable byte[] start;
    private @Nullable String tracePath;
    private final List<byte[]> definitions = new ArrayList<>();
    private final ArrayDeque<Batch> recent = new ArrayDeque<>();
    private final TreeMap<Long, Batch> pinned = new TreeMap<>();
    /** Live allocation address -> its Alloc event's hold. */
    private final Map<Long, Held> liveAllocs = new HashMap<>();
    /**
     * i14-liveacc: the ObservedBatch chunks (an observing tool's accesses, handed over live) and ObservedGap chunks,
     * each with the highest launch index it names; dropped once that launch is older than the window.
     */
    private record Observed(long lastLaunch, byte[] framed) {
    }

    private final ArrayDeque<Observed> observed = new ArrayDeque<>();
    private long observedChunks, observedMissed; // i14-liveacc
    private @Nullable byte[] end;
    private long recentEvents;
    private long received, dropped, missed;
    private long windowStart;
    /** Where the stream's events start coming live (StreamStart): holes before it are "attached late". */
    private long firstLive;
    private boolean ended;
    private long version;

    /** Keeps about {@code window} events (at least one batch). */
    public LiveWindow(int window) {
        if (window < 1) {
            throw new IllegalArgumentException("the live window must hold at least 1 event, not " + window);
        }
        this.window = window;
    }

    public int window() {
        return window;
    }

    /**
     * i14-incr: the batch's allocations and frees in event order (a batch may free an address and allocate it again):
     * {@code [op, address]} pairs, op 0 alloc, 1 free.
     */
    private long[] ops = new long[64];
    private int opCount;
    private int batchLaunches;
    private boolean batchFirstLaunch;
    private long launchesReceived;
    private final java.util.Set<Integer> launchedFunctions = new java.util.HashSet<>();
    private void op(long op, long address) {
        if (opCount + 2 > ops.length) {
            ops = java.util.Arrays.copyOf(ops, ops.length * 2);
        }
        ops[opCount++] = op;
        ops[opCount++] = address;
    }

    private final EventSink sink = new EventWatcher() {
        @Override
        public void addAlloc(long host, int thr, long address, long size, int kindCode, long stream) {
            op(0, address);
        }

        @Override
        public void addFree(long host, int thr, long address, int kindCode, long stream) {
            op(1, address);
        }



        @Override
        public void addLaunch(long host, int thr, int function, int gx, int gy, int gz, int bx, int by, int bz,
                int shm, long stream, byte[] buf, int paramOffset, int paramLength, long gpuStart, long gpuEnd,
                int kindCode, long graphLaunch) {
            batchLaunches++; // i14-incr
            batchFirstLaunch |= launchedFunctions.add(function); // i14-incr
        }





    };

    /** Takes the next chunk of the stream (the reading thread). A chunk that does not decode fails naming its type. */
    public synchronized void accept(LiveStream.StreamChunk c) throws AttachException {
        try {
            switch (c.type()) {
                case Chunks.TRACE_HEADER -> {
                    if (header == null) {
                        decoder.header(c.payload());
                        header = c.framed();
                    }
                }
                case Chunks.STREAM_START -> {
                    var st = decoder.streamStart(c.payload());
                    tracePath = st.tracePath();
                    firstLive = st.firstLiveIndex();
                    start = c.framed();
                }
                case Chunks.MODULE, Chunks.FUNCTION -> definitions.add(c.framed());
                case Chunks.EVENT_GAP -> {
                    StreamGap g = decoder.gap(c.payload());
                    if (g.reason() != StreamGap.Reason.ATTACHED_LATE) {
                        missed += g.count();
                    }
                }
                case Chunks.EVENT_BATCH -> batch(c);
                case Chunks.OBSERVED_BATCH -> { // i14-liveacc: kept while its launches are in the window
                    observed.add(new Observed(decoder.observedLastLaunch(c.payload()), c.framed()));
                    observedChunks++;
                    if (observed.size() > 65536) {
                        observed.removeFirst();
                    }
                }
                case Chunks.OBSERVED_GAP -> { // i14-liveacc
                    observedMissed += decoder.observedGap(c.payload());
                    observed.add(new Observed(decoder.held() + decoder.skipped(), c.framed()));
                }
                case Chunks.TRACE_END -> end = c.framed();
                default -> {
                    // a chunk type this reader does not know: the file loader would skip it too
                }
            }
        } catch (WireFormatException | RuntimeException e) {
            throw new AttachException("a " + Chunks.typeName(c.type()) + " chunk of the stream does not decode: "
                    + e.getMessage(), e);
        }
        version++;
    }

    private void batch(LiveStream.StreamChunk c) throws WireFormatException {
        long first = decoder.held() + decoder.skipped();
        opCount = 0;
        batchLaunches = 0;
        batchFirstLaunch = false;
        int n = decoder.events(c.payload(), sink);
        List<Held> holds = new ArrayList<>();
        for (int i = 0; i < opCount; i += 2) {
            long a = ops[i + 1];
            long op = ops[i] & 3;
            if (op == 0) {
                Held h = new Held();
                end(liveAllocs.put(a, h), first);
                holds.add(h);
            } else if (op == 1) {
                end(liveAllocs.remove(a), first);
            }
        }
        Batch b = new Batch(first, n, c.framed(), holds.toArray(Held[]::new), launchesReceived, batchLaunches,
                batchFirstLaunch);
        launchesReceived += batchLaunches;
        received += n;
        recent.add(b);
        recentEvents += n;
        boolean moved = false;
        while (recentEvents - recent.peekFirst().count() >= window && recent.size() > 1
                && (recent.peekFirst().first() + recent.peekFirst().count() <= snapshotted // i14-livebest
                        || recentEvents - recent.peekFirst().count() >= window + unseenLimit)) {
            Batch old = recent.removeFirst();
            recentEvents -= old.count();
            dropped += old.count();
            windowStart = recent.peekFirst().first();
            moved = true;
            if (needed(old)) {
                pinned.put(old.first(), old);
            }
        }
        if (moved && !pinned.isEmpty()) {
            pinned.values().removeIf(p -> !needed(p));
        }
        while (moved && !observed.isEmpty() && observed.peekFirst().lastLaunch() < windowStart) { // i14-liveacc
            observed.removeFirst();
        }
    }

    private static void end(@Nullable Held h, long at) {
        if (h != null && h.endedAt < 0) {
            h.endedAt = at;
        }
    }

    /**
     * i14-incr: whether a batch older than the window is still needed: one of its allocations lives or was freed
     * inside the window, or it holds the first launch of a function.
     */
    private boolean needed(Batch p) {
        if (p.firstLaunch()) {
            return true;
        }
        for (Held h : p.holds()) {
            if (h.endedAt < 0 || h.endedAt >= windowStart) {
                return true;
            }
        }
        return false;
    }

    // i14-livebest: begin
    /** Events up to this process index were in a snapshot. */
    private long snapshotted;
    /** How many events beyond the window are kept until a snapshot held them (0: none). */
    private long unseenLimit;

    /**
     * Keeps, beyond the window, the batches no snapshot has held yet, up to {@code limit} events: a consumer that must
     * see every event once (live speculation feeds engines the whole stream) then misses none when a burst brings
     * more than the window between two snapshots. Memory stays bounded by the window plus the limit.
     *
     * @param limit events beyond the window (0, the default: the window alone)
     */
    public synchronized void keepUntilSnapshot(long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("the events kept until a snapshot must be >= 0, not " + limit);
        }
        unseenLimit = limit;
    }
    // i14-livebest: end

    /** Marks the stream ended (the reader saw its end or detached). */
    public synchronized void markEnded() {
        ended = true;
        version++;
    }

    /** Counts every change: a view snapshots again only when it moved. */
    public synchronized long version() {
        return version;
    }

    /** Events received since attaching. */
    public synchronized long received() {
        return received;
    }

    // i14-liveacc: begin
    /** ObservedBatch chunks received (an observing tool's accesses, handed over while the process runs). */
    public synchronized long observedChunks() {
        return observedChunks;
    }

    /** Launches whose observations this reader missed (ObservedGap: it fell behind). */
    public synchronized long observedMissed() {
        return observedMissed;
    }
    // i14-liveacc: end

    /** Whether a TraceHeader arrived (before it there is nothing to show). */
    public synchronized boolean started() {
        return header != null;
    }

    /**
     * Writes what is held as a {@code .phos} file at {@code file} (replaced atomically) and loads it: one generation
     * of the live trace. The copy of the held chunks is taken under the lock (references only); writing and loading
     * run outside it, so the reading thread is not held up.
     */
    public Snapshot snapshot(Path file, @Nullable IProgressMonitor monitor) throws IOException {
        List<byte[]> chunks = new ArrayList<>();
        long rec, drop, miss, wStart;
        boolean isEnded, clean;
        String path;
        LaunchNumbers numbers; // i14-incr
        synchronized (this) {
            byte[] h = header;
            if (h == null) {
                throw new IOException("nothing received yet from the stream (no TraceHeader)");
            }
            chunks.add(h);
            if (start != null) {
                chunks.add(start);
            }
            chunks.addAll(definitions);
            List<Batch> held = new ArrayList<>(pinned.size() + recent.size());
            held.addAll(pinned.values()); // all older than the window, in stream order
            held.addAll(recent);
            long next = 0;
            long older = Math.max(windowStart, firstLive);
            // i14-incr: begin
            long[] localFirst = new long[held.size()];
            long[] numberFirst = new long[held.size()];
            int local = 0;
            int k = 0;
            for (Batch b : held) {
                if (b.launches() > 0) {
                    localFirst[k] = local;
                    numberFirst[k++] = b.launchesBefore();
                    local += b.launches();
                }
            }
            numbers = new LaunchNumbers(java.util.Arrays.copyOf(localFirst, k), java.util.Arrays.copyOf(numberFirst, k),
                    local, launchesReceived);
            // i14-incr: end
            for (Batch b : held) {
                if (b.first() > next) {
                    // before the window or before the stream joined: in the trace file; inside it: the reader fell behind
                    chunks.add(gap(next, b.first() - next, b.first() <= older ? 1 : 2));
                }
                chunks.add(b.framed());
                next = b.first() + b.count();
            }
            long total = decoder.held() + decoder.skipped();
            snapshotted = next; // i14-livebest
            if (total > next) {
                chunks.add(gap(next, total - next, 2));
            }
            for (Observed o : observed) { // i14-liveacc
                chunks.add(o.framed());
            }
            if (end != null) {
                chunks.add(end);
            }
            rec = received;
            drop = dropped;
            miss = missed;
            wStart = windowStart;
            isEnded = ended || end != null;
            clean = end != null;
            path = tracePath == null ? "" : tracePath;
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".part");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
            byte[] fh = new byte[Chunks.FILE_HEADER_SIZE];
            System.arraycopy(Chunks.FILE_MAGIC, 0, fh, 0, 8);
            putIntLE(fh, 8, (int) TraceHeader.FORMAT_VERSION);
            out.write(fh);
            for (byte[] c : chunks) {
                out.write(c);
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        TraceLoadResult r = TraceReader.read(file, monitor);
        if (r.trace().launchCount() != numbers.launches()) { // i14-incr: the loader kept what the batches said
            throw new IOException("the snapshot holds " + r.trace().launchCount() + " launches, its batches "
                    + numbers.launches());
        }
        return new Snapshot(r, rec, drop, miss, wStart, isEnded, clean, path, numbers);
    }

    /** An EventGap chunk (uncompressed): first_index, count, reason as protobuf varints (docs/trace-format.md). */
    static byte[] gap(long first, long count, int reason) {
        byte[] p = new byte[33];
        int n = 0;
        p[n++] = 1 << 3;
        n = varint(p, n, first);
        p[n++] = 2 << 3;
        n = varint(p, n, count);
        p[n++] = 3 << 3;
        n = varint(p, n, reason);
        byte[] c = new byte[Chunks.CHUNK_HEADER_SIZE + n];
        putIntLE(c, 0, Chunks.CHUNK_MAGIC);
        c[4] = (byte) Chunks.EVENT_GAP;
        c[5] = 0;
        c[6] = (byte) Chunks.CODEC_NONE;
        putIntLE(c, 8, n);
        putIntLE(c, 12, n);
        System.arraycopy(p, 0, c, Chunks.CHUNK_HEADER_SIZE, n);
        CRC32C crc = new CRC32C();
        crc.update(c, Chunks.CHUNK_HEADER_SIZE, n);
        putIntLE(c, 16, (int) crc.getValue());
        crc.reset();
        crc.update(c, 0, 20);
        putIntLE(c, 20, (int) crc.getValue());
        return c;
    }

    private static void putIntLE(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) (v >>> 16);
        b[at + 3] = (byte) (v >>> 24);
    }

    private static int varint(byte[] b, int n, long v) {
        while ((v & ~0x7fL) != 0) {
            b[n++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        b[n++] = (byte) v;
        return n;
    }
}
