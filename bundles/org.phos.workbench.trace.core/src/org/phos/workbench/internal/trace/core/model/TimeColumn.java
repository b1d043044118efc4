package org.phos.workbench.internal.trace.core.model;

import java.util.Arrays;

/**
 * An append-only paged column of 64-bit values that lie close together within a page, such as timestamps: each
 * page stores a base and 32-bit differences (4 bytes a value), and falls back to plain 64-bit values when a
 * difference does not fit. All-zero pages are not allocated.
 */
public final class TimeColumn implements Column {
    private long[] bases = new long[4];
    private int[][] narrow = new int[4][];
    private long[][] wide = new long[4][];
    private int size;

    public void add(long v) {
        int p = size >>> Pages.SHIFT;
        int o = size & Pages.MASK;
        if (p >= bases.length) {
            bases = Arrays.copyOf(bases, bases.length * 2);
            narrow = Arrays.copyOf(narrow, narrow.length * 2);
            wide = Arrays.copyOf(wide, wide.length * 2);
        }
        long[] w = wide[p];
        if (w != null) {
            w[o] = v;
        } else {
            int[] n = narrow[p];
            if (n == null) {
                if (v == 0) {
                    size++;
                    return;
                }
                if (o > 0 && -v != (int) -v) {
                    wide[p] = w = new long[Pages.SIZE];
                    w[o] = v;
                    size++;
                    return;
                }
                n = narrow[p] = new int[Pages.SIZE];
                bases[p] = v;
                if (o > 0) {
                    Arrays.fill(n, 0, o, (int) -v);
                }
            }
            long d = v - bases[p];
            if (d == (int) d) {
                n[o] = (int) d;
            } else {
                w = wide[p] = new long[Pages.SIZE];
                long base = bases[p];
                for (int k = 0; k < o; k++) {
                    w[k] = base + n[k];
                }
                w[o] = v;
                narrow[p] = null;
            }
        }
        size++;
    }

    public long get(int i) {
        int p = i >>> Pages.SHIFT;
        int[] n = narrow[p];
        if (n != null) {
            return bases[p] + n[i & Pages.MASK];
        }
        long[] w = wide[p];
        return w == null ? 0 : w[i & Pages.MASK];
    }

    public int size() {
        return size;
    }

    @Override
    public void truncate(int n) {
        for (int p = Pages.pageCount(n); p < bases.length; p++) {
            narrow[p] = null;
            wide[p] = null;
            bases[p] = 0;
        }
        size = n;
    }

    @Override
    public void trim() {
        int n = Math.max(Pages.pageCount(size), 1);
        bases = Arrays.copyOf(bases, n);
        narrow = Arrays.copyOf(narrow, n);
        wide = Arrays.copyOf(wide, n);
        int used = size & Pages.MASK;
        if (used != 0) {
            int last = Pages.pageCount(size) - 1;
            if (narrow[last] != null) {
                narrow[last] = Arrays.copyOf(narrow[last], used);
            }
            if (wide[last] != null) {
                wide[last] = Arrays.copyOf(wide[last], used);
            }
        }
    }

    @Override
    public long footprintBytes() {
        long bytes = 3L * Pages.ARRAY_HEADER + 16L * bases.length;
        for (int p = 0; p < bases.length; p++) {
            if (narrow[p] != null) {
                bytes += Pages.ARRAY_HEADER + 4L * narrow[p].length;
            }
            if (wide[p] != null) {
                bytes += Pages.ARRAY_HEADER + 8L * wide[p].length;
            }
        }
        return bytes;
    }
}
