package org.phos.workbench.internal.trace.core.model;

import java.util.Arrays;

/**
 * Interns the part of a launch that repeats: function, grid, block, dynamic shared memory, launch kind and stream
 * (as its interned id). A trace of millions of launches has a few hundred distinct shapes, so each launch stores a
 * 4-byte shape id instead of 41 bytes of fields.
 */
public final class LaunchShapes {
    public static final int FUNCTION = 0, GRID_X = 1, GRID_Y = 2, GRID_Z = 3, BLOCK_X = 4, BLOCK_Y = 5,
            BLOCK_Z = 6, SHARED_MEM = 7, KIND = 8, STREAM = 9;
    private static final int W = 10;

    private int[] keys = new int[W * 16];
    private int count;
    private int[] slots = new int[64];
    private final int[] probe = new int[W];
    /** Last shape id + 1 seen for each small function id: consecutive launches of a kernel mostly repeat it. */
    private final int[] lastByFunction = new int[1024];

    /** The id of the shape with these fields, adding it if new. */
    public int intern(int function, int gx, int gy, int gz, int bx, int by, int bz, int shm, int kind, int stream) {
        boolean small = function >= 0 && function < lastByFunction.length;
        if (small) {
            int s = lastByFunction[function] - 1;
            if (s >= 0) {
                int at = s * W;
                int[] c = keys;
                if (c[at + 1] == gx && c[at + 2] == gy && c[at + 3] == gz && c[at + 4] == bx && c[at + 5] == by
                        && c[at + 6] == bz && c[at + 7] == shm && c[at + 8] == kind && c[at + 9] == stream) {
                    return s;
                }
            }
        }
        int id = lookup(function, gx, gy, gz, bx, by, bz, shm, kind, stream);
        if (small) {
            lastByFunction[function] = id + 1;
        }
        return id;
    }

    private int lookup(int function, int gx, int gy, int gz, int bx, int by, int bz, int shm, int kind, int stream) {
        int[] k = probe;
        k[0] = function; k[1] = gx; k[2] = gy; k[3] = gz; k[4] = bx; k[5] = by; k[6] = bz; k[7] = shm;
        k[8] = kind; k[9] = stream;
        int h = 1;
        for (int x : k) {
            h = h * 0x01000193 ^ x;
        }
        h ^= h >>> 15;
        int mask = slots.length - 1;
        int at = h & mask;
        while (true) {
            int s = slots[at];
            if (s == 0) {
                break;
            }
            if (Arrays.equals(keys, (s - 1) * W, s * W, k, 0, W)) {
                return s - 1;
            }
            at = (at + 1) & mask;
        }
        if ((count + 1) * W > keys.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
        }
        System.arraycopy(k, 0, keys, count * W, W);
        slots[at] = ++count;
        if (count * 2 > slots.length) {
            rehash();
        }
        return count - 1;
    }

    /** Field {@code field} (one of the constants) of shape {@code id}. */
    public int get(int id, int field) {
        return keys[id * W + field];
    }

    public int size() {
        return count;
    }

    private void rehash() {
        slots = new int[slots.length * 2];
        int mask = slots.length - 1;
        for (int id = 0; id < count; id++) {
            int h = 1;
            for (int f = 0; f < W; f++) {
                h = h * 0x01000193 ^ keys[id * W + f];
            }
            h ^= h >>> 15;
            int at = h & mask;
            while (slots[at] != 0) {
                at = (at + 1) & mask;
            }
            slots[at] = id + 1;
        }
    }

    public long footprintBytes() {
        return 4L * Pages.ARRAY_HEADER + 4L * (keys.length + slots.length + W + lastByFunction.length);
    }
}
