package org.phos.workbench.trace.core.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LiveAllocationsTest {

    /** Reference: TreeMap base -> {end, id}. */
    private static long refFind(TreeMap<Long, long[]> ref, long address) {
        Map.Entry<Long, long[]> e = ref.floorEntry(address);
        return e != null && address < e.getValue()[0] ? e.getValue()[1] : -1;
    }

    @ParameterizedTest
    @ValueSource(longs = { 1, 2, 3, 4 })
    void matchesATreeMapUnderRandomAllocFreeWithAddressReuse(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        LiveAllocations live = new LiveAllocations();
        TreeMap<Long, long[]> ref = new TreeMap<>();
        // A small address space (4096 slots of 256 bytes) forces reuse, adjacency and overlap attempts.
        long base0 = 0x7f00_0000_0000L;
        int slots = 4096;
        long nextId = 0;
        List<Long> liveBases = new ArrayList<>();
        LiveAllocations snapshot = live.snapshot();
        TreeMap<Long, long[]> snapshotRef = new TreeMap<>();
        for (int op = 0; op < 60_000; op++) {
            int r = random.nextInt(100);
            // Phases: grow to many entries (splits), then shrink (merges), then mixed.
            boolean grow = op < 20_000 ? r < 80 : op < 40_000 ? r < 25 : r < 55;
            if (grow) {
                long base = base0 + 256L * random.nextInt(slots);
                long size = 1 + random.nextLong(256L * (1 + random.nextInt(4)));
                Map.Entry<Long, long[]> below = ref.floorEntry(base + size - 1);
                boolean overlaps = below != null && below.getValue()[0] > base;
                long expectedOverlap = overlaps ? refOverlapId(ref, base, size) : -1;
                assertEquals(expectedOverlap, live.findOverlapping(base, size), "findOverlapping at op " + op);
                if (overlaps) {
                    long b = base;
                    assertThrows(IllegalStateException.class, () -> live.add(b, size, 1));
                } else {
                    live.add(base, size, nextId);
                    ref.put(base, new long[] { base + size, nextId });
                    liveBases.add(base);
                    nextId++;
                }
            } else if (!liveBases.isEmpty()) {
                long base = liveBases.remove(random.nextInt(liveBases.size()));
                assertEquals(ref.remove(base)[1], live.remove(base), "remove at op " + op);
                assertEquals(-1, live.remove(base), "second remove at op " + op);
            }
            for (int q = 0; q < 4; q++) {
                long address = base0 - 512 + random.nextLong(256L * slots + 2048);
                assertEquals(refFind(ref, address), live.find(address), "find 0x" + Long.toHexString(address));
                assertEquals(refFind(snapshotRef, address), snapshot.find(address), "snapshot find at op " + op);
            }
            if (op % 500 == 0) {
                live.checkInvariants();
                snapshot.checkInvariants();
            }
            if (op % 5000 == 0) {
                snapshot = live.snapshot();
                snapshotRef = new TreeMap<>();
                for (Map.Entry<Long, long[]> e : ref.entrySet()) {
                    snapshotRef.put(e.getKey(), e.getValue().clone());
                }
                assertContentsEqual(ref, live);
            }
        }
        assertContentsEqual(ref, live);
        assertContentsEqual(snapshotRef, snapshot);
    }

    /**
     * The radix table under address layouts that stress it: allocations clustered in a few regions terabytes apart (so
     * most buckets are empty and a few cover many blocks), growing upward past the table's span, shrinking from the
     * bottom and the top (block starts move, blocks go), all checked against a TreeMap.
     */
    @ParameterizedTest
    @ValueSource(longs = { 5, 6, 7 })
    void radixIndexMatchesATreeMapWithClusteredAndGrowingAddresses(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        LiveAllocations live = new LiveAllocations();
        TreeMap<Long, long[]> ref = new TreeMap<>();
        long[] regions = { 0x1000L, 0x7f1c_0000_0000L, 0x7f9e_0000_0000L, 0x3fff_0000_0000_0000L };
        long[] bump = regions.clone();
        List<Long> liveBases = new ArrayList<>();
        long nextId = 0;
        for (int op = 0; op < 40_000; op++) {
            int phase = op / 10_000; // grow, shrink from the bottom, shrink from the top, mixed
            boolean grow = phase == 0 ? random.nextInt(100) < 90 : phase == 3 ? random.nextBoolean()
                    : random.nextInt(100) < 20;
            if (grow) {
                int region = random.nextInt(100) < 70 ? 1 : random.nextInt(regions.length);
                long size = 1 + random.nextLong(random.nextBoolean() ? 4096 : 1L << 24);
                long base = bump[region] + random.nextLong(3) * 512;
                bump[region] = base + size;
                live.add(base, size, nextId);
                ref.put(base, new long[] { base + size, nextId++ });
                liveBases.add(base);
            } else if (!ref.isEmpty()) {
                long base = phase == 1 ? ref.firstKey() : phase == 2 ? ref.lastKey()
                        : liveBases.get(random.nextInt(liveBases.size()));
                liveBases.remove(base);
                assertEquals(ref.remove(base)[1], live.remove(base), "remove at op " + op);
            }
            if (op % 1000 == 0) {
                live.checkInvariants();
                assertFindsAgree(ref, live, random);
            }
            long address = ref.isEmpty() ? random.nextLong() : nearby(ref, random);
            assertEquals(refFind(ref, address), live.find(address), "find 0x" + Long.toHexString(address));
        }
        live.checkInvariants();
        assertContentsEqual(ref, live);
        LiveAllocations snapshot = live.snapshot();
        snapshot.checkInvariants();
        assertFindsAgree(ref, snapshot, random);
    }

    /** An address at, just before, inside or just past a random live allocation, or anywhere. */
    private static long nearby(TreeMap<Long, long[]> ref, SplittableRandom random) {
        long base = ref.ceilingKey(random.nextLong(ref.lastKey() + 1));
        long end = ref.get(base)[0];
        return switch (random.nextInt(6)) {
            case 0 -> base;
            case 1 -> base - 1;
            case 2 -> end - 1;
            case 3 -> end;
            case 4 -> base + random.nextLong(end - base);
            default -> random.nextLong();
        };
    }

    /** find against the reference, on addresses near live allocations and anywhere (negative ones too). */
    private static void assertFindsAgree(TreeMap<Long, long[]> ref, LiveAllocations live, SplittableRandom random) {
        int n = ref.isEmpty() ? 13 : 1000 + random.nextInt(8);
        long[] addresses = new long[n];
        for (int q = 0; q < n; q++) {
            addresses[q] = ref.isEmpty() || q % 50 == 0 ? random.nextLong() | (q % 100 == 0 ? Long.MIN_VALUE : 0)
                    : nearby(ref, random);
        }
        for (int q = 0; q < n; q++) {
            assertEquals(refFind(ref, addresses[q]), live.find(addresses[q]), "find 0x" + Long.toHexString(addresses[q]));
        }
    }

    @Test
    void findOnAnEmptySetAndAtTheEdgesOfTheAddressSpace() {
        LiveAllocations live = new LiveAllocations();
        for (long address : new long[] { 0, 1, -1, 0x7f00_0000_0000L, Long.MAX_VALUE }) {
            assertEquals(-1, live.find(address));
        }
        live.add(0x1000, 0x100, 3);
        long[] addresses = { 0x1000, 0x10ff, 0x1100, 0xfff, Long.MIN_VALUE | 0x1000, -1, 0x1080, 0, Long.MAX_VALUE, 0x1001 };
        long[] expected = { 3, 3, -1, -1, -1, -1, 3, -1, -1, 3 };
        for (int q = 0; q < addresses.length; q++) {
            assertEquals(expected[q], live.find(addresses[q]), "find 0x" + Long.toHexString(addresses[q]));
        }
    }

    private static long refOverlapId(TreeMap<Long, long[]> ref, long base, long size) {
        Map.Entry<Long, long[]> e = ref.floorEntry(base);
        if (e != null && e.getValue()[0] > base) {
            return e.getValue()[1];
        }
        Map.Entry<Long, long[]> next = ref.higherEntry(base);
        return next != null && next.getKey() < base + size ? next.getValue()[1] : -1;
    }

    private static void assertContentsEqual(TreeMap<Long, long[]> ref, LiveAllocations live) {
        List<Allocation> expected = new ArrayList<>();
        long bytes = 0;
        for (Map.Entry<Long, long[]> e : ref.entrySet()) {
            expected.add(new Allocation(e.getValue()[1], e.getKey(), e.getValue()[0] - e.getKey()));
            bytes += e.getValue()[0] - e.getKey();
        }
        assertEquals(expected, live.toList());
        List<Allocation> iterated = new ArrayList<>();
        live.iterator().forEachRemaining(iterated::add);
        assertEquals(expected, iterated);
        assertEquals(ref.size(), live.count());
        assertEquals(bytes, live.bytes());
    }

    @Test
    void boundariesFirstLastOnePastAndAdjacent() {
        LiveAllocations live = new LiveAllocations();
        live.add(0x1000, 0x100, 7);
        live.add(0x1100, 0x10, 8); // adjacent above
        live.add(0x0f00, 0x100, 6); // adjacent below
        assertEquals(-1, live.find(0x0eff));
        assertEquals(6, live.find(0x0f00));
        assertEquals(6, live.find(0x0fff));
        assertEquals(7, live.find(0x1000)); // first byte
        assertEquals(7, live.find(0x10ff)); // last byte
        assertEquals(8, live.find(0x1100)); // one past the end of 7 = first of 8
        assertEquals(8, live.find(0x110f));
        assertEquals(-1, live.find(0x1110)); // one past the end
        assertEquals(-1, live.find(0));
        assertEquals(-1, live.find(-1L)); // above 2^63
        assertEquals(-1, live.find(Long.MAX_VALUE));
        assertEquals(new Allocation(7, 0x1000, 0x100), live.get(0x1080));
        assertEquals(new Allocation(8, 0x1100, 0x10), live.atBase(0x1100));
        assertNull(live.atBase(0x1101));
        assertNull(live.get(0x2000));
        assertEquals(3, live.count());
        assertEquals(0x210, live.bytes());
    }

    @Test
    void reuseAfterFreeFindsTheNewAllocation() {
        LiveAllocations live = new LiveAllocations();
        live.add(0x1000, 0x1000, 1);
        assertEquals(1, live.remove(0x1000));
        assertEquals(-1, live.find(0x1800));
        live.add(0x1000, 0x800, 2); // same base, smaller
        assertEquals(2, live.find(0x17ff));
        assertEquals(-1, live.find(0x1800));
        live.add(0x1800, 0x800, 3); // the tail of the old one, now separate
        assertEquals(3, live.find(0x1800));
    }

    @Test
    void rejectsZeroSizeOverlapAndAddressesAbove2To63WithClearMessages() {
        LiveAllocations live = new LiveAllocations();
        live.add(0x1000, 0x100, 1);
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> live.add(0x5000, 0, 2));
        assertTrue(zero.getMessage().contains("0x5000") && zero.getMessage().contains("positive"), zero.getMessage());
        IllegalStateException overlap = assertThrows(IllegalStateException.class, () -> live.add(0x10ff, 2, 3));
        assertTrue(overlap.getMessage().contains("overlaps live allocation 1 [0x1000, 0x1100)"), overlap.getMessage());
        assertThrows(IllegalStateException.class, () -> live.add(0x0f00, 0x300, 4)); // covers it entirely
        assertThrows(IllegalArgumentException.class, () -> live.add(Long.MAX_VALUE - 4, 16, 5));
        assertThrows(IllegalArgumentException.class, () -> live.add(0x2000, 16, -1));
        assertEquals(1, live.count());
    }

    @Test
    void snapshotsAreImmutableAndIndependent() {
        LiveAllocations live = new LiveAllocations();
        for (int i = 0; i < 1000; i++) {
            live.add(0x10000L * i, 0x100, i);
        }
        LiveAllocations snap = live.snapshot();
        for (int i = 0; i < 1000; i += 2) {
            live.remove(0x10000L * i);
        }
        live.add(0x10000L * 2, 0x8000, 5000);
        assertEquals(1000, snap.count());
        assertEquals(2, snap.find(0x20050));
        assertEquals(5000, live.find(0x20050));
        assertEquals(-1, live.find(0x40050));
        assertThrows(IllegalStateException.class, () -> snap.add(0x1, 1, 1));
        LiveAllocations resumed = snap.mutableCopy();
        resumed.remove(0);
        assertEquals(0, snap.find(0x10));
        assertEquals(-1, resumed.find(0x10));
        assertEquals(501, live.count());
    }

    @Test
    void largeSetsKeepBlocksBalanced() {
        LiveAllocations live = new LiveAllocations();
        for (int i = 0; i < 100_000; i++) {
            live.add(0x1000L * i, 0x800, i);
        }
        assertTrue(live.blockCount() <= 100_000 / (LiveAllocations.BLOCK / 2) + 1, live.toString());
        for (int i = 0; i < 100_000; i++) {
            if (i % 100 != 0) {
                live.remove(0x1000L * i);
            }
        }
        assertEquals(1000, live.count());
        assertTrue(live.blockCount() <= 1000 / (LiveAllocations.BLOCK / 4) + 2, live.toString());
        assertEquals(500, live.find(0x1000L * 500 + 0x7ff));
        assertEquals(-1, live.find(0x1000L * 501));
    }
}
