package org.phos.workbench.internal.trace.core.replay;

import java.util.Arrays;

/** A growable int array (no boxing). */
final class IntList {
    private int[] values;
    private int size;

    IntList(int capacity) {
        values = new int[Math.max(capacity, 4)];
    }

    void add(int value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size + (size >> 1) + 4);
        }
        values[size++] = value;
    }

    int get(int i) {
        return values[i];
    }

    int size() {
        return size;
    }

    int[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
