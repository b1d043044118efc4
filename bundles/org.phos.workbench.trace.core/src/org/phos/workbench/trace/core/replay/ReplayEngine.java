package org.phos.workbench.trace.core.replay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;

/**
 * Walks a trace's events in order with a cursor and answers, at the cursor, which allocations are live and which
 * live allocation contains an address.
 * <p>
 * The cursor's {@link #position()} {@code p} means "events {@code [0, p)} have happened": {@link #step()} applies
 * event {@code p}, {@link #seek(int)} moves anywhere. Every {@code checkpointInterval} events the engine keeps a
 * copy-on-write snapshot of the live set, so a seek costs at most one restore plus {@code checkpointInterval} steps.
 * An allocation's id is the event index of its Alloc event, stable across the trace and across seeks; read its
 * details from the trace ({@code trace.address(id)}, {@code size(id)}, {@code allocKind(id)}).
 * <p>
 * The trace is taken as recorded where it makes sense and otherwise reported, never thrown at: a free of an address
 * that is not a live allocation's base (double free, memory allocated before recording started) or an allocation
 * overlapping a live one (a free that was not recorded; the older one is then taken as freed) gives a
 * {@link ReplayWarning}. Freeing address 0 is a no-op, as in CUDA. Zero-size allocations are live (counted, 0 bytes)
 * but contain no address. Not thread-safe; use one engine per thread (they can share the trace).
 */
public final class ReplayEngine {

    /** Default distance between checkpoints, in events. */
    public static final int DEFAULT_CHECKPOINT_INTERVAL = 1 << 16;

    private record Checkpoint(LiveAllocations live, Map<Long, Long> zeroSize) {
    }

    private final Trace trace;
    private final int interval;
    private final List<@Nullable Checkpoint> checkpoints = new ArrayList<>();
    private final List<ReplayWarning> warnings = new ArrayList<>();
    private LiveAllocations live = new LiveAllocations();
    private Map<Long, Long> zeroSize = new HashMap<>(); // base -> id of live zero-size allocations
    private int position;
    private int warnedUpTo; // events below this have had their warnings recorded
    private int untilCheckpoint; // steps left until position is a multiple of interval

    /** An engine at position 0 with {@link #DEFAULT_CHECKPOINT_INTERVAL}. */
    public ReplayEngine(Trace trace) {
        this(trace, DEFAULT_CHECKPOINT_INTERVAL);
    }

    /** An engine at position 0 keeping a checkpoint every {@code checkpointInterval} (>= 1) events. */
    public ReplayEngine(Trace trace, int checkpointInterval) {
        if (checkpointInterval < 1) {
            throw new IllegalArgumentException("checkpoint interval must be >= 1, got " + checkpointInterval);
        }
        this.trace = trace;
        this.interval = checkpointInterval;
        this.untilCheckpoint = checkpointInterval;
        checkpoints.add(new Checkpoint(live.snapshot(), Map.of()));
    }

    /**
     * A new engine at position 0 that starts with every checkpoint this one has made, so that its seeks cost at most
     * one restore plus {@link #checkpointInterval()} steps anywhere this one has been. Checkpoints are immutable
     * snapshots: engines made this way may run on other threads, each engine on one. Typically this one has been
     * {@link #runToEnd run to the end} once per trace, and each query takes a copy. Warnings are those of the events
     * the copy itself replays.
     *
     * @return the copy
     */
    public ReplayEngine withCheckpoints() {
        ReplayEngine copy = new ReplayEngine(trace, interval);
        copy.checkpoints.clear();
        copy.checkpoints.addAll(checkpoints);
        return copy;
    }

    /** Distance between checkpoints, in events. */
    public int checkpointInterval() {
        return interval;
    }

    public Trace trace() {
        return trace;
    }

    /** Events applied so far: the state is the one just before event {@code position()}. */
    public int position() {
        return position;
    }

    /** Whether every event has been applied. */
    public boolean atEnd() {
        return position >= trace.eventCount();
    }

    /** Applies the event at the cursor and moves past it. */
    public void step() {
        int p = position;
        if (p >= trace.eventCount()) {
            throw new IllegalStateException("replay is at the end of the trace (" + trace.eventCount() + " events)");
        }
        apply(p);
        position = p + 1;
        if (--untilCheckpoint == 0) {
            untilCheckpoint = interval;
            checkpointHere();
        }
    }

    private void checkpointHere() {
        int c = position / interval;
        while (checkpoints.size() <= c) {
            checkpoints.add(null);
        }
        if (checkpoints.get(c) == null) {
            checkpoints.set(c, new Checkpoint(live.snapshot(), Map.copyOf(zeroSize)));
        }
    }

    /**
     * Moves the cursor so that events {@code [0, target)} have happened.
     *
     * @throws IllegalArgumentException if target is outside {@code [0, eventCount]}
     */
    public void seek(int target) {
        seek(target, null);
    }

    /** {@link #seek(int)} with progress and cancellation (a first seek far ahead walks the events). */
    public void seek(int target, @Nullable IProgressMonitor monitor) {
        if (target < 0 || target > trace.eventCount()) {
            throw new IllegalArgumentException("event position " + target + " is outside the trace [0, "
                    + trace.eventCount() + "]");
        }
        int best = Math.min(target / interval, checkpoints.size() - 1);
        while (checkpoints.get(best) == null) {
            best--;
        }
        int from = best * interval;
        if (target < position || from > position) {
            Checkpoint c = checkpoints.get(best);
            live = c.live().mutableCopy();
            zeroSize = new HashMap<>(c.zeroSize());
            position = from;
            untilCheckpoint = interval;
        }
        // driven directly: SubMonitor needs OSGi classes at run time, and core runs on a plain classpath too
        IProgressMonitor progress = monitor == null ? new NullProgressMonitor() : monitor;
        progress.beginTask("Replaying events", Math.max(1, (target - position) >> 16));
        while (position < target) {
            if ((position & 0xffff) == 0) {
                if (progress.isCanceled()) {
                    throw new OperationCanceledException();
                }
                progress.worked(1);
            }
            step();
        }
        progress.done();
    }

    /** Walks to the end of the trace, so that {@link #warnings()} are complete. */
    public void runToEnd(@Nullable IProgressMonitor monitor) {
        seek(trace.eventCount(), monitor);
    }

    /** Warnings for the events replayed so far (each event reported once, whatever the seeks), in event order. */
    public List<ReplayWarning> warnings() {
        return Collections.unmodifiableList(warnings);
    }

    /** Number of live allocations at the cursor (zero-size ones included). */
    public int liveCount() {
        return live.count() + zeroSize.size();
    }

    /** Bytes of the live allocations at the cursor. */
    public long liveBytes() {
        return live.bytes();
    }

    /**
     * The lowest base of the live allocations at the cursor ({@link Long#MAX_VALUE} when none): with
     * {@link #liveHighestEnd()} it lets hot loops drop addresses that no allocation can contain before any search.
     */
    public long liveLowestBase() {
        return live.lowestBase();
    }

    /** The highest exclusive end of the live allocations at the cursor (0 when none). */
    public long liveHighestEnd() {
        return live.highestEnd();
    }

    /** Id (Alloc event index) of the live allocation containing {@code address}, or -1. O(log n). */
    public long find(long address) {
        return live.find(address);
    }

    /**
     * {@link #find(long)} that also writes the allocation's base to {@code range[0]} and its exclusive end to
     * {@code range[1]} (unchanged when none contains the address); see {@link LiveAllocations#find(long, long[])}.
     */
    public long find(long address, long[] range) {
        return live.find(address, range);
    }

    /** The live allocation containing {@code address}, or null. */
    public @Nullable Allocation allocationContaining(long address) {
        return live.get(address);
    }

    /** The allocations live at the cursor with a non-zero size, in address order. */
    public void forEachLive(LiveAllocations.AllocationConsumer consumer) {
        live.forEach(consumer);
    }

    /** An immutable view of the allocations live at the cursor (zero-size ones excluded); O(blocks). */
    public LiveAllocations liveSnapshot() {
        return live.snapshot();
    }

    private void apply(int i) {
        EventKind kind = trace.kind(i);
        if (kind == EventKind.ALLOC) {
            alloc(i, trace.address(i), trace.size(i));
        } else if (kind == EventKind.FREE) {
            free(i, trace.address(i));
        }
        if (i >= warnedUpTo) {
            warnedUpTo = i + 1;
        }
    }

    private void alloc(int i, long base, long size) {
        if (size == 0) {
            Long previous = zeroSize.put(base, (long) i);
            if (previous != null) {
                warn(i, "zero-size allocation at " + hex(base) + " while zero-size allocation " + previous
                        + " is live there; taking that one as freed");
            }
            return;
        }
        if (size < 0 || base < 0 || base + size < 0) {
            warn(i, "allocation [" + hex(base) + ", +" + Long.toUnsignedString(size) + ") reaches above 2^63; "
                    + "ignored");
            return;
        }
        long other;
        while ((other = live.findOverlapping(base, size)) >= 0) {
            Allocation old = allocationOf(other);
            live.remove(old.base());
            warn(i, "allocation [" + hex(base) + ", " + hex(base + size) + ") overlaps live allocation " + other + " ["
                    + hex(old.base()) + ", " + hex(old.end()) + "); taking that one as freed (its free was not "
                    + "recorded)");
        }
        live.add(base, size, i);
    }

    private Allocation allocationOf(long id) {
        return new Allocation(id, trace.address((int) id), trace.size((int) id));
    }

    private void free(int i, long base) {
        if (base == 0) {
            return;
        }
        if (live.remove(base) >= 0 || zeroSize.remove(base) != null) {
            return;
        }
        long inside = live.find(base);
        warn(i, "free of " + hex(base) + (inside >= 0 ? ", inside live allocation " + inside + " but not its base"
                : ", which is not a live allocation (freed twice, or allocated before recording started)")
                + "; ignored");
    }

    private void warn(int i, String message) {
        if (i >= warnedUpTo) {
            warnings.add(new ReplayWarning(i, message));
        }
    }

    private static String hex(long address) {
        return "0x" + Long.toHexString(address);
    }

    @Override
    public String toString() {
        return "ReplayEngine[at event " + position + " of " + trace.eventCount() + ", " + liveCount() + " live, "
                + liveBytes() + " bytes]";
    }
}
