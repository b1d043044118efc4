package org.phos.workbench.internal.cr.core;

import java.util.Arrays;

/** A growable array of longs indexed by small integers (streams, events), with a default for unset slots. */
final class LongArray {
    private long[] values = new long[16];
    private final long missing;

    LongArray(long missing) {
        this.missing = missing;
        Arrays.fill(values, missing);
    }

    long get(int i) {
        return i < values.length ? values[i] : missing;
    }

    void set(int i, long v) {
        if (i >= values.length) {
            int old = values.length;
            values = Arrays.copyOf(values, Math.max(i + 1, old * 2));
            Arrays.fill(values, old, values.length, missing);
        }
        values[i] = v;
    }

    int length() {
        return values.length;
    }

    long max() {
        long m = 0;
        for (long v : values) {
            m = Math.max(m, v);
        }
        return m;
    }
}
