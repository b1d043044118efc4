package org.phos.workbench.trace.core.synthetic;

import java.util.SplittableRandom;

import org.phos.workbench.trace.core.AllocKind;

/**
 * The allocation side of a synthetic process: live allocations with sizes from 512 B to 256 MiB in size classes,
 * and a caching allocator that hands freed addresses out again for the same size class (so the trace reuses
 * addresses after free, as PyTorch's allocator does). Pointers for launches and copies are drawn from the live set,
 * sometimes into the interior of an allocation (a tensor inside a larger segment).
 */
final class DeviceHeap {
    private static final int CLASSES = 40;
    // 2 TiB per region: a 10M-launch trace bump-allocates about 1.4 TB of device addresses (100k live allocations of
    // up to 256 MiB); regions 266 GB apart, as before, ran into each other and made overlapping live allocations.
    // Kept close together so the address span (and LiveAllocations' radix table over it) stays that of one process.
    private static final long DEVICE_BASE = 0x7400_0000_0000L;
    private static final long MANAGED_BASE = 0x7600_0000_0000L;
    private static final long PINNED_BASE = 0x7800_0000_0000L;
    private static final long VMM_BASE = 0x7a00_0000_0000L;

    private final SplittableRandom rnd;
    long[] address = new long[1024];
    long[] size = new long[1024];
    byte[] kind = new byte[1024];
    int live;
    private final long[][] freeList = new long[CLASSES][];
    private final int[] freeCount = new int[CLASSES];
    private final long[] bump = { DEVICE_BASE, MANAGED_BASE, PINNED_BASE, VMM_BASE };

    DeviceHeap(SplittableRandom rnd) {
        this.rnd = rnd;
        for (int c = 0; c < CLASSES; c++) {
            freeList[c] = new long[8];
        }
    }

    static long classSize(int c) {
        long s = 512L << (c / 2);
        return (c & 1) == 0 ? s : s + s / 2;
    }

    /** Makes a new live allocation; returns its slot. */
    int allocate() {
        double u = rnd.nextDouble();
        int c = (int) (CLASSES * u * u * u);
        long s = classSize(c);
        int r = rnd.nextInt(100);
        AllocKind k = r < 80 ? AllocKind.PLAIN : r < 92 ? AllocKind.ASYNC : r < 95 ? AllocKind.MANAGED
                : r < 98 ? AllocKind.HOST_PINNED : AllocKind.VMM;
        long a;
        if ((k == AllocKind.PLAIN || k == AllocKind.ASYNC) && freeCount[c] > 0 && rnd.nextInt(10) < 7) {
            a = freeList[c][--freeCount[c]];
        } else {
            int region = switch (k) {
                case MANAGED -> 1;
                case HOST_PINNED -> 2;
                case VMM -> 3;
                default -> 0;
            };
            long align = s >= (1 << 20) ? 2L << 20 : 512;
            a = (bump[region] + align - 1) / align * align;
            bump[region] = a + s + (rnd.nextInt(4) == 0 ? 512L * rnd.nextInt(64) : 0);
        }
        if (live == address.length) {
            address = java.util.Arrays.copyOf(address, live * 2);
            size = java.util.Arrays.copyOf(size, live * 2);
            kind = java.util.Arrays.copyOf(kind, live * 2);
        }
        address[live] = a;
        size[live] = s;
        kind[live] = (byte) k.code();
        return live++;
    }

    /** Removes a random live allocation and returns its slot's values in {@code out} (address, size, kind). */
    void freeRandom(long[] out) {
        int slot = rnd.nextInt(live);
        long a = address[slot];
        long s = size[slot];
        int k = kind[slot];
        out[0] = a;
        out[1] = s;
        out[2] = k;
        live--;
        address[slot] = address[live];
        size[slot] = size[live];
        kind[slot] = kind[live];
        if (k == AllocKind.PLAIN.code() || k == AllocKind.ASYNC.code()) {
            int c = sizeClass(s);
            if (freeCount[c] == freeList[c].length) {
                freeList[c] = java.util.Arrays.copyOf(freeList[c], freeCount[c] * 2);
            }
            freeList[c][freeCount[c]++] = a;
        }
    }

    private static int sizeClass(long s) {
        for (int c = 0; c < CLASSES; c++) {
            if (classSize(c) == s) {
                return c;
            }
        }
        throw new IllegalStateException("no size class for " + s);
    }

    /** A device pointer into a live allocation: mostly its base, sometimes an aligned interior address. */
    /** The slot of the allocation {@link #pointer()} last pointed into. */
    int lastSlot;

    long pointer() {
        int slot = rnd.nextInt(live);
        lastSlot = slot;
        long a = address[slot];
        if (rnd.nextInt(4) == 0 && size[slot] > 1024) {
            a += (rnd.nextLong(size[slot] / 256)) * 256;
        }
        return a;
    }
}
