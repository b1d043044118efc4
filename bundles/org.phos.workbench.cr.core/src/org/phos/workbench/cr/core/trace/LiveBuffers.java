package org.phos.workbench.cr.core.trace;

import java.util.Arrays;

import org.phos.workbench.trace.core.replay.LiveAllocations;

/**
 * The device allocations live at the current point of a trace pass, as simulation buffers (id = allocation order),
 * with a fast address lookup: words outside the span of all allocations ever live are rejected by two comparisons,
 * and recent hits are remembered in a small direct-mapped cache (checked against the buffer's current extent), so
 * that most lookups of parameter words never reach {@link LiveAllocations#find}.
 */
public final class LiveBuffers {
    private static final int CACHE = 1 << 12;

    private final LiveAllocations live = new LiveAllocations();
    private long[] base = new long[256];
    private long[] size = new long[256];
    private boolean[] alive = new boolean[256];
    private int count;
    private long spanBegin = Long.MAX_VALUE;
    private long spanEnd = Long.MIN_VALUE;
    private final long[] cacheAddress = new long[CACHE];
    private final int[] cacheId = new int[CACHE];

    LiveBuffers() {
        Arrays.fill(cacheId, -1);
    }

    /** Adds an allocation; returns its buffer id, or -1 when it overlaps a live one or is empty. */
    int add(long address, long bytes) {
        if (bytes <= 0 || address < 0 || address + bytes < address || live.findOverlapping(address, bytes) >= 0) {
            return -1;
        }
        int id = count++;
        if (id >= base.length) {
            int n = base.length * 2;
            base = Arrays.copyOf(base, n);
            size = Arrays.copyOf(size, n);
            alive = Arrays.copyOf(alive, n);
        }
        base[id] = address;
        size[id] = bytes;
        alive[id] = true;
        live.add(address, bytes, id);
        spanBegin = Math.min(spanBegin, address);
        spanEnd = Math.max(spanEnd, address + bytes);
        return id;
    }

    /** Removes the allocation starting at {@code address}; returns its buffer id or -1. */
    int remove(long address) {
        long id = live.remove(address);
        if (id >= 0) {
            alive[(int) id] = false;
        }
        return (int) id;
    }

    /** The buffer containing {@code address}, or -1. */
    public int find(long address) {
        if (address < spanBegin || address >= spanEnd) {
            return -1;
        }
        int slot = (int) ((address >>> 8) ^ (address >>> 20)) & (CACHE - 1);
        int c = cacheId[slot];
        if (c >= 0 && alive[c] && address >= base[c] && address - base[c] < size[c]) {
            return c;
        }
        long id = live.find(address);
        if (id >= 0) {
            cacheAddress[slot] = address;
            cacheId[slot] = (int) id;
        }
        return (int) id;
    }

    public long base(int buffer) {
        return base[buffer];
    }

    public long size(int buffer) {
        return size[buffer];
    }

    /** The underlying allocation set (ids are buffer ids), for engines written against the trace model's API. */
    public LiveAllocations allocations() {
        return live;
    }
}
