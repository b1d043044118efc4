package org.phos.workbench.internal.trace.core.model;

import java.util.Arrays;

/**
 * Gives each distinct 64-bit value (a stream handle) a dense id 0, 1, 2, ... so columns can store a 4-byte id. Open
 * addressing; the last value looked up is cached, as consecutive events mostly share a stream.
 */
public final class LongInterner {
    private long[] values = new long[16];
    private int count;
    private int[] slots = new int[64]; // id + 1, 0 = empty
    private long lastValue;
    private int lastId = -1;

    public int intern(long v) {
        if (lastId >= 0 && lastValue == v) {
            return lastId;
        }
        int mask = slots.length - 1;
        int h = mix(v) & mask;
        while (true) {
            int s = slots[h];
            if (s == 0) {
                break;
            }
            if (values[s - 1] == v) {
                lastValue = v;
                return lastId = s - 1;
            }
            h = (h + 1) & mask;
        }
        if (count == values.length) {
            values = Arrays.copyOf(values, count * 2);
        }
        values[count] = v;
        slots[h] = ++count;
        if (count * 2 > slots.length) {
            rehash();
        }
        lastValue = v;
        return lastId = count - 1;
    }

    public long value(int id) {
        return values[id];
    }

    public int size() {
        return count;
    }

    private void rehash() {
        slots = new int[slots.length * 2];
        int mask = slots.length - 1;
        for (int id = 0; id < count; id++) {
            int h = mix(values[id]) & mask;
            while (slots[h] != 0) {
                h = (h + 1) & mask;
            }
            slots[h] = id + 1;
        }
    }

    private static int mix(long v) {
        long h = v * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    public long footprintBytes() {
        return 2L * Pages.ARRAY_HEADER + 8L * values.length + 4L * slots.length + 32;
    }
}
