package org.phos.workbench.internal.trace.core.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.SyncKind;
import org.phos.workbench.trace.core.TraceAnomaly;
import org.phos.workbench.trace.core.TraceAnomaly.Kind;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.replay.LiveAllocations;

/**
 * The semantic checks of a trace ({@link TraceAnomaly}), made while {@link TraceColumns} is filled: each
 * {@code add*} call hands this class the values it already holds, so the per-event checks (host time per thread,
 * stream created, GPU times, sizes) cost a few compares and no second walk over millions of events. What needs the
 * whole trace (definitions, functions of launch shapes, repeated chunks, the TraceEnd) is checked once by
 * {@link #finish()}. Allocations go through the replay's {@link LiveAllocations}. The text describing
 * an anomaly is built once per kind (its first occurrence), never per occurrence.
 * <p>
 * A chunk whose events are rolled back (damage ends loading) restores the tallies ({@link #tallies()},
 * {@link #restore(long[])}); the rest of the state may then hold the rolled-back events, which is harmless because
 * no event is added after a rollback.
 */
final class TraceChecks {
    private static final int KINDS = Kind.values().length;
    private static final byte UNKNOWN = 0, CREATED = 1, NOT_CREATED = 2;

    private final long[] counts = new long[KINDS];
    private final long[] firstEvent = new long[KINDS];
    private final String[] first = new String[KINDS];

    /** Last host time per small thread number; larger ones in a map. */
    private long[] lastHost = new long[16];
    private final Map<Integer, Long> lastHostBig = new HashMap<>();
    /** By interned stream id: {@link #CREATED} (or a default stream) or not, {@link #UNKNOWN} before first seen. */
    private byte[] streamState = new byte[16];
    private final LongInterner cudaEvents = new LongInterner();
    private byte[] cudaEventCreated = new byte[16];
    private final LiveAllocations live = new LiveAllocations();
    private final TraceColumns c;

    TraceChecks(TraceColumns columns) {
        this.c = columns;
    }

    /** Counts one occurrence of {@code k}; true for the first, whose description the caller gives to {@link #first}. */
    private boolean count(Kind k) {
        return counts[k.ordinal()]++ == 0;
    }

    private void first(Kind k, long event, String what) {
        firstEvent[k.ordinal()] = event;
        first[k.ordinal()] = what;
    }

    private void note(Kind k, long event, String what) {
        if (count(k)) {
            first(k, event, what);
        }
    }

    private static boolean implausibleTime(long ns) {
        return (ns & -TraceAnomaly.MAX_PLAUSIBLE_NS) != 0; // >= 2^62 as unsigned
    }

    private static String u(long v) {
        return Long.toUnsignedString(v);
    }

    // ---- per event, from TraceColumns ----

    void event(int i, long host, int thread) {
        if (implausibleTime(host) && count(Kind.TIME_OUT_OF_RANGE)) {
            first(Kind.TIME_OUT_OF_RANGE, i, "host time " + u(host) + " ns");
        }
        long last;
        if (thread >= 0 && thread < TraceColumns.BIG_THREAD) {
            if (thread >= lastHost.length) {
                lastHost = Arrays.copyOf(lastHost, Math.max(thread + 1, lastHost.length * 2));
            }
            last = lastHost[thread];
            lastHost[thread] = host;
        } else {
            Long l = lastHostBig.put(thread, host);
            last = l == null ? 0 : l;
        }
        if (Long.compareUnsigned(host, last) < 0 && count(Kind.HOST_TIME_BACKWARDS)) {
            first(Kind.HOST_TIME_BACKWARDS, i, "thread " + Integer.toUnsignedString(thread) + ": " + u(last)
                    + " ns, then " + u(host) + " ns");
        }
    }

    /** The use of interned stream {@code id} (handle {@code handle}) by event {@code i}. */
    void stream(int i, int id, long handle) {
        if (id >= streamState.length) {
            streamState = Arrays.copyOf(streamState, Math.max(id + 1, streamState.length * 2));
        }
        byte s = streamState[id];
        if (s == CREATED) {
            return;
        }
        if (s == UNKNOWN) {
            streamState[id] = s = handle == 0 || handle == 1 || handle == 2 ? CREATED : NOT_CREATED;
            if (s == CREATED) {
                return;
            }
        }
        if (count(Kind.STREAM_NOT_CREATED)) {
            first(Kind.STREAM_NOT_CREATED, i, "stream 0x" + Long.toHexString(handle));
        }
    }

    void gpuTimes(int i, String what, long start, long end) {
        if ((implausibleTime(start) || implausibleTime(end)) && count(Kind.TIME_OUT_OF_RANGE)) {
            first(Kind.TIME_OUT_OF_RANGE, i, what + " GPU time " + u(start) + " .. " + u(end) + " ns");
        }
        if (start != 0 && Long.compareUnsigned(end, start) < 0 && count(Kind.GPU_TIME_INVERTED)) {
            first(Kind.GPU_TIME_INVERTED, i, what + " GPU time " + u(start) + " .. " + u(end) + " ns");
        }
    }

    void bytes(int i, String what, long address, long size) {
        if ((Long.compareUnsigned(size, TraceAnomaly.MAX_PLAUSIBLE_BYTES) >= 0
                || Long.compareUnsigned(address + size, address) < 0) && count(Kind.SIZE_OUT_OF_RANGE)) {
            first(Kind.SIZE_OUT_OF_RANGE, i, what + " of " + u(size) + " bytes at 0x" + Long.toHexString(address));
        }
    }

    /**
     * A graph-node launch {@code i} naming event {@code owner} as its graph launch.
     */
    void graphNode(int i, long owner) {
        ByteColumn kinds = c.kind;
        if ((owner < 0 || owner >= i || kinds.get((int) owner) != EventKind.GRAPH_LAUNCH.ordinal())
                && count(Kind.BROKEN_GRAPH_LINK)) {
            first(Kind.BROKEN_GRAPH_LINK, i, "graph launch " + u(owner) + (owner >= 0 && owner < i
                    ? ", which is a " + EventKind.ofOrdinal(kinds.get((int) owner)) + " event" : ", no such event"));
        }
    }

    /**
     * Allocation {@code i}. One overlapping live allocations is counted once; those are taken as freed (their free
     * was not recorded), as the replay does. Ranges reaching above 2^63 (no device or host address lies there) and
     * empty ones stay out of the live set.
     */
    void alloc(int i, long address, long size) {
        bytes(i, "allocation", address, size);
        if (size <= 0 || address < 0 || address + size < 0) {
            return;
        }
        long other = live.findOverlapping(address, size);
        if (other >= 0) {
            if (count(Kind.OVERLAPPING_ALLOCATIONS)) {
                first(Kind.OVERLAPPING_ALLOCATIONS, i, u(size) + " bytes at 0x" + Long.toHexString(address)
                        + " overlap the live allocation of event " + other);
            }
            do {
                live.remove(c.allocAddress.get(c.row.get((int) other))); // ids are event indexes
            } while ((other = live.findOverlapping(address, size)) >= 0);
        }
        live.add(address, size, i);
    }

    void free(long address) {
        live.remove(address);
    }

    void sync(int i, int kindCode, long cudaEvent) {
        SyncKind kind = SyncKind.ofCode(kindCode);
        switch (kind) {
            case EVENT_CREATE -> {
                int id = cudaEvents.intern(cudaEvent);
                if (id >= cudaEventCreated.length) {
                    cudaEventCreated = Arrays.copyOf(cudaEventCreated, Math.max(id + 1, cudaEventCreated.length * 2));
                }
                cudaEventCreated[id] = CREATED;
            }
            case EVENT_RECORD, STREAM_WAIT_EVENT, EVENT_SYNCHRONIZE, EVENT_DESTROY -> {
                int id = cudaEvents.intern(cudaEvent);
                if ((id >= cudaEventCreated.length || cudaEventCreated[id] != CREATED)
                        && count(Kind.CUDA_EVENT_NOT_CREATED)) {
                    first(Kind.CUDA_EVENT_NOT_CREATED, i, kind + " of event 0x" + Long.toHexString(cudaEvent));
                }
            }
            default -> {
                // the others name no CUDA event (graph capture's end carries the graph in that field)
            }
        }
    }

    /** A STREAM_CREATE of interned stream {@code id} (it is not a use). */
    void streamCreated(int id) {
        if (id >= streamState.length) {
            streamState = Arrays.copyOf(streamState, Math.max(id + 1, streamState.length * 2));
        }
        streamState[id] = CREATED;
    }

    // ---- rollback ----

    /** The tallies, to restore when a chunk's events are rolled back. */
    long[] tallies() {
        return counts.clone();
    }

    void restore(long[] tallies) {
        System.arraycopy(tallies, 0, counts, 0, KINDS);
    }

    // ---- once, on the whole trace ----

    /** The anomalies, each kind once, in {@link Kind} order. */
    List<TraceAnomaly> finish() {
        long[] saved = counts.clone();
        String[] savedFirst = first.clone();
        long[] savedEvent = firstEvent.clone();
        try {
            return finishChecks();
        } finally {
            // finish may be asked again (it is idempotent): keep the per-event tallies as they were
            System.arraycopy(saved, 0, counts, 0, KINDS);
            System.arraycopy(savedFirst, 0, first, 0, KINDS);
            System.arraycopy(savedEvent, 0, firstEvent, 0, KINDS);
        }
    }

    private List<TraceAnomaly> finishChecks() {
        undefinedFunctions();
        definitions();
        if (c.endChunks > 1) {
            counts[Kind.SECOND_TRACE_END.ordinal()] = c.endChunks - 1L;
            first(Kind.SECOND_TRACE_END, -1, "");
        }
        if (c.extraHeaders > 0) {
            counts[Kind.SECOND_TRACE_HEADER.ordinal()] = c.extraHeaders;
            first(Kind.SECOND_TRACE_HEADER, -1, "at byte offset " + c.firstExtraHeaderOffset);
        }
        if (c.header.formatVersion() != TraceHeader.FORMAT_VERSION) {
            note(Kind.FORMAT_VERSION_MISMATCH, -1, "TraceHeader says version "
                    + Integer.toUnsignedString(c.header.formatVersion()) + ", the file header "
                    + TraceHeader.FORMAT_VERSION);
        }
        TraceEnd end = c.end;
        if (end != null && implausibleTime(end.endNs())) {
            note(Kind.TIME_OUT_OF_RANGE, -1, "TraceEnd end time " + u(end.endNs()) + " ns");
        }
        List<TraceAnomaly> out = new ArrayList<>();
        for (Kind k : Kind.values()) {
            int o = k.ordinal();
            if (counts[o] > 0) {
                out.add(new TraceAnomaly(k, counts[o], firstEvent[o], first[o]));
            }
        }
        return out;
    }

    /** Launches of functions no Function chunk defines: checked per launch shape; launches walked only if any. */
    private void undefinedFunctions() {
        int shapes = c.shapes.size();
        boolean[] undefined = new boolean[shapes];
        boolean any = false;
        for (int s = 0; s < shapes; s++) {
            undefined[s] = !c.functionsById.containsKey(c.shapes.get(s, LaunchShapes.FUNCTION));
            any |= undefined[s];
        }
        if (!any) {
            return;
        }
        int launches = c.counts[EventKind.LAUNCH.ordinal()];
        for (int r = 0; r < launches; r++) {
            int s = c.launchShape.get(r);
            if (undefined[s] && count(Kind.UNDEFINED_FUNCTION)) {
                first(Kind.UNDEFINED_FUNCTION, c.launchEvent.get(r), "function "
                        + Integer.toUnsignedString(c.shapes.get(s, LaunchShapes.FUNCTION)));
            }
        }
    }

    private void definitions() {
        Set<Integer> ids = new HashSet<>();
        for (ModuleInfo m : c.modules) {
            if (!ids.add(m.id())) {
                note(Kind.DUPLICATE_MODULE_ID, -1, "module id " + Integer.toUnsignedString(m.id()));
            }
        }
        ids.clear();
        for (FunctionInfo f : c.functions) {
            if (!ids.add(f.id())) {
                note(Kind.DUPLICATE_FUNCTION_ID, -1, "function id " + Integer.toUnsignedString(f.id()));
            }
            if (!c.modulesById.containsKey(f.moduleId())) {
                note(Kind.UNDEFINED_MODULE, -1, "function " + Integer.toUnsignedString(f.id()) + " of module "
                        + Integer.toUnsignedString(f.moduleId()));
            }
        }
    }
}
