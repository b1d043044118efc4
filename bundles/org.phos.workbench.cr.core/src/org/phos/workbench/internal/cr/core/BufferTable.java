package org.phos.workbench.internal.cr.core;

import java.util.Arrays;

/** Sizes, addresses and liveness of buffers by id, in growable arrays (buffer ids are small integers). */
final class BufferTable {
    private long[] size = new long[1024];
    private long[] address = new long[1024];
    private boolean[] live = new boolean[1024];
    private int limit;
    private int liveCount;

    void alloc(int id, long bytes, long addr, long opIndex) {
        ensure(id);
        if (live[id]) {
            throw new IllegalArgumentException("operation " + opIndex + ": buffer " + id + " allocated twice");
        }
        size[id] = bytes;
        address[id] = addr;
        live[id] = true;
        liveCount++;
        limit = Math.max(limit, id + 1);
    }

    /** Frees a buffer; returns false when it was not live (the caller decides whether that is an error). */
    boolean free(int id) {
        if (id >= limit || !live[id]) {
            return false;
        }
        live[id] = false;
        liveCount--;
        return true;
    }

    boolean isLive(int id) {
        return id >= 0 && id < limit && live[id];
    }

    long size(int id) {
        return id >= 0 && id < limit ? size[id] : 0;
    }

    long address(int id) {
        return id >= 0 && id < limit ? address[id] : 0;
    }

    int limit() {
        return limit;
    }

    int[] liveIds() {
        int[] ids = new int[liveCount];
        int n = 0;
        for (int i = 0; i < limit; i++) {
            if (live[i]) {
                ids[n++] = i;
            }
        }
        return ids;
    }

    private void ensure(int id) {
        if (id >= size.length) {
            int n = Math.max(id + 1, size.length * 2);
            size = Arrays.copyOf(size, n);
            address = Arrays.copyOf(address, n);
            live = Arrays.copyOf(live, n);
        }
    }
}
