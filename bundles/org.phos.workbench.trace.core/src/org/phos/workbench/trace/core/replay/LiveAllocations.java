package org.phos.workbench.trace.core.replay;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

import org.eclipse.jdt.annotation.Nullable;

/**
 * The set of device allocations live at one point of a trace, answering "which live allocation contains address A"
 * in O(log n).
 * <p>
 * Live allocations never overlap (the driver does not hand out a byte twice), so the allocation containing an address
 * is the one with the greatest base at or below it, if that allocation also reaches past the address. Entries are
 * kept sorted by base in a two-level structure: blocks of at most {@value #BLOCK} entries in one primitive array each,
 * and top-level arrays holding each block's smallest base and every 16th base ("samples"). An insert or remove shifts
 * at most one block, so millions of alloc/free events stay cheap.
 * <p>
 * A lookup first finds the block through a <i>radix table</i>: the address range from the smallest base up is cut into
 * equal power-of-two buckets (about {@value #RADIX_PER_BLOCK} per block) and each bucket holds the last block starting
 * below it, so the block is one table load plus, almost always, one compare (a bucket that spans several block
 * starts, as with addresses clustered in far-apart regions, falls back to a binary search of the block starts). Then
 * branch-free counting over the block's 16 samples picks a group and over the group's 16 bases the entry, whose end
 * and id sit next to each other; each count takes two rounds of three independent compares, so a lookup waits on
 * memory four times there (four rounds of loads that depend on each other) instead of eight. The table changes only
 * where a block's first base moves (an O(buckets between the old and new base) fix) and is rebuilt when blocks split,
 * merge or go. Addresses are non-negative longs: device and host virtual addresses lie far below 2<sup>63</sup>, and
 * allocations reaching above it are rejected (lookups of such addresses find nothing), which lets every comparison be
 * plain arithmetic.
 * <p>
 * Allocation ids are caller-chosen non-negative longs (the replay engine uses the event index of the Alloc);
 * {@code -1} means "none". Rules: a size must be positive and {@code base + size} must not pass 2<sup>63</sup>; an
 * allocation that overlaps a live one is rejected with an {@link IllegalStateException} naming both (use
 * {@link #findOverlapping} to decide first). After {@link #remove} the same addresses can be allocated again and
 * lookups then return the new id.
 * <p>
 * {@link #snapshot()} returns an immutable view in O(blocks): blocks are shared copy-on-write, so the live instance
 * copies a block (a few KiB) the first time it changes it afterwards. Not thread-safe; snapshots may be read from any
 * thread once published safely.
 */
public final class LiveAllocations implements Iterable<Allocation> {

    /** Most entries a block holds; a full block splits in two. */
    static final int BLOCK = 256;
    /** Entries per group; a block is {@value #GROUPS} groups, and the first key of each is sampled in the top level. */
    private static final int GROUP = 16;
    private static final int GROUPS = BLOCK / GROUP;
    /** Pads keys past the last entry, so group scans need no bounds; no allocation can start at the top byte. */
    private static final long PAD = Long.MAX_VALUE;
    /** Radix buckets per block (rounded to a power of two overall); more makes multi-block buckets rarer. */
    static final int RADIX_PER_BLOCK = 8;
    private static final int RADIX_MIN = 16;
    private static final int RADIX_MAX = 1 << 20;

    /**
     * Sorted entries of one block in one array: bases ascending at {@code [0, BLOCK)} (PAD past n), then the exclusive
     * end and the id of entry i at {@code BLOCK + 2i} and {@code BLOCK + 2i + 1}, so that a lookup's last step reads
     * one cache line. {@code shared} once a snapshot may see it (then it is copied before a change).
     */
    private static final class Block {
        final long[] data;
        int n;
        boolean shared;

        Block() {
            data = new long[3 * BLOCK];
            java.util.Arrays.fill(data, 0, BLOCK, PAD);
        }

        Block(Block other) {
            data = other.data.clone();
            n = other.n;
        }

        long key(int i) {
            return data[i];
        }

        long end(int i) {
            return data[BLOCK + 2 * i];
        }

        long id(int i) {
            return data[BLOCK + 2 * i + 1];
        }

        void set(int i, long key, long end, long id) {
            data[i] = key;
            data[BLOCK + 2 * i] = end;
            data[BLOCK + 2 * i + 1] = id;
        }

        /** Moves entries {@code [from, from + length)} to {@code to} (within this block or into another). */
        void moveTo(Block into, int to, int from, int length) {
            System.arraycopy(data, from, into.data, to, length);
            System.arraycopy(data, BLOCK + 2 * from, into.data, BLOCK + 2 * to, 2 * length);
        }
    }

    /** firstKeys[b] == blocks[b].key(0), and PAD at [blockCount] so a lookup may look one block ahead. */
    private long[] firstKeys;
    /** blockData[b] == blocks[b].data: saves a lookup one dependent load. */
    private long[][] blockData;
    /**
     * The radix table: radix[j] for j in [0, radixBuckets] is the last block whose first key lies below
     * {@code radixLo + (j << radixShift)} (0 when none), and radix[radixBuckets + 1] the last block, so the block
     * holding a key of bucket j is among radix[j] .. radix[j + 1]. Keys below radixLo use bucket 0 and keys past the
     * last bucket bucket radixBuckets.
     */
    private int[] radix;
    private long radixLo;
    private int radixShift;
    private int radixBuckets;
    /**
     * samples[b * GROUPS + g] == blocks[b].keys[g * GROUP] for the groups in use; the unused groups of a block hold
     * the next block's first key (PAD after the last block), so the whole array is sorted and one binary search over
     * it finds block and group.
     */
    private long[] samples;
    private Block[] blocks;
    private int blockCount;
    private int count;
    private long bytes;
    private final boolean frozen;

    /** An empty set. */
    public LiveAllocations() {
        firstKeys = new long[16];
        java.util.Arrays.fill(firstKeys, PAD);
        samples = new long[16 * GROUPS];
        blocks = new Block[16];
        blockData = new long[16][];
        frozen = false;
        rebuildRadix();
    }

    private LiveAllocations(LiveAllocations source, boolean frozen) {
        this.firstKeys = source.firstKeys.clone();
        this.samples = source.samples.clone();
        this.blocks = source.blocks.clone();
        this.blockData = source.blockData.clone();
        this.radix = source.radix.clone();
        this.radixLo = source.radixLo;
        this.radixShift = source.radixShift;
        this.radixBuckets = source.radixBuckets;
        this.blockCount = source.blockCount;
        this.count = source.count;
        this.bytes = source.bytes;
        this.frozen = frozen;
        for (int b = 0; b < blockCount; b++) {
            blocks[b].shared = true;
        }
    }

    /** Number of live allocations. */
    public int count() {
        return count;
    }

    /** Sum of the sizes of the live allocations. */
    public long bytes() {
        return bytes;
    }

    /**
     * The lowest base of a live allocation, or {@link Long#MAX_VALUE} when none is live: with {@link #highestEnd()} a
     * bound that lets callers drop addresses no allocation can contain before searching.
     */
    public long lowestBase() {
        return blockCount == 0 ? PAD : firstKeys[0];
    }

    /** The highest exclusive end of a live allocation, or 0 when none is live. */
    public long highestEnd() {
        if (blockCount == 0) {
            return 0;
        }
        Block last = blocks[blockCount - 1];
        return last.end(last.n - 1);
    }

    /** Whether this instance is an immutable snapshot. */
    public boolean isSnapshot() {
        return frozen;
    }

    /**
     * The id of the live allocation containing {@code address}, or -1 when no live allocation contains it.
     */
    public long find(long address) {
        // Short and free of data-dependent branches (but the rare crowded bucket), so that consecutive lookups overlap
        // in the CPU instead of each waiting for a mispredicted branch: the radix table names the block, counting
        // over its samples (a few KiB for all blocks, they stay in cache) the group, over the group's keys the entry.
        // Keys and addresses lie in [0, 2^63), so "a <= k" is the sign bit of a - k - 1, without overflow.
        // Kept in small methods so that the JIT inlines the whole lookup into hot callers (one method of this size
        // would pass HotSpot's inlining limit of 325 bytecode bytes, and every lookup would then pay a call).
        long k = address;
        if (k + 1 <= 0 || blockCount == 0) { // negative, or the top address (which no allocation can contain)
            return -1;
        }
        int b = blockOf(k);
        long[] keys = blockData[b];
        int i = entryOf(keys, (groupOf(samples, b * GROUPS, k) & (GROUPS - 1)) * GROUP, k);
        return idIfInside(keys, i, k);
    }

    /** The block whose range holds key k (block 0 for keys below all), k in [0, 2^63 - 1), blockCount > 0. */
    private int blockOf(long k) {
        int[] r = radix;
        int bucket = (int) Math.min(Math.max(k - radixLo, 0) >>> radixShift, radixBuckets);
        int b = r[bucket];
        int last = r[bucket + 1];
        if (last - b > 1) {
            return blockFor(k, b, last);
        }
        return b + (int) ((firstKeys[b + 1] - k - 1) >>> 63);
    }

    /**
     * The sample (index into s) of the group that holds key k, from the block's {@value #GROUPS} samples at s[at]:
     * counts the samples at or below k in two rounds of three independent compares (every 4th sample, then the three
     * after the one found), so that the loads of a round go out together instead of one after the other.
     */
    private static int groupOf(long[] s, int at, long k) {
        long k1 = k + 1;
        at += (int) (((s[at + 4] - k1) >>> 63) + ((s[at + 8] - k1) >>> 63) + ((s[at + 12] - k1) >>> 63)) << 2;
        return at + (int) (((s[at + 1] - k1) >>> 63) + ((s[at + 2] - k1) >>> 63) + ((s[at + 3] - k1) >>> 63));
    }

    /**
     * The last entry of the group of {@value #GROUP} starting at i whose key is at or below k (i itself when none is),
     * in the same two rounds as {@link #groupOf}: the first round requests all the group's cache lines at once.
     */
    private static int entryOf(long[] keys, int i, long k) {
        long k1 = k + 1;
        i += (int) (((keys[i + 4] - k1) >>> 63) + ((keys[i + 8] - k1) >>> 63) + ((keys[i + 12] - k1) >>> 63)) << 2;
        return i + (int) (((keys[i + 1] - k1) >>> 63) + ((keys[i + 2] - k1) >>> 63) + ((keys[i + 3] - k1) >>> 63));
    }

    /** The id of entry i if it contains k, else -1. */
    private static long idIfInside(long[] keys, int i, long k) {
        long inside = ((k - keys[BLOCK + 2 * i]) & (keys[i] - k - 1)) >> 63; // all ones iff keys[i] <= k < end
        return (keys[BLOCK + 2 * i + 1] & inside) | ~inside;
    }

    /**
     * {@link #find(long)} that also reports where the allocation found lies, for callers that need its range next
     * (reading it from the entry just searched is cheaper than from anywhere else).
     *
     * @param address the address
     * @param range receives the base at [0] and the exclusive end at [1] of the allocation found; unchanged when none
     * @return the id of the live allocation containing the address, or -1
     */
    public long find(long address, long[] range) {
        long k = address;
        if (k + 1 <= 0 || blockCount == 0) {
            return -1;
        }
        int b = blockOf(k);
        long[] keys = blockData[b];
        int i = entryOf(keys, (groupOf(samples, b * GROUPS, k) & (GROUPS - 1)) * GROUP, k);
        long base = keys[i];
        long end = keys[BLOCK + 2 * i];
        if (k < base || k >= end) {
            return -1;
        }
        range[0] = base;
        range[1] = end;
        return keys[BLOCK + 2 * i + 1];
    }

    /** The live allocation containing {@code address}, or null; allocates a record, prefer {@link #find} in loops. */
    public @Nullable Allocation get(long address) {
        long k = address;
        int b = blockFor(k);
        if (b < 0) {
            return null;
        }
        Block block = blocks[b];
        int i = lastAtOrBelow(block, k);
        if (i < 0 || k >= block.end(i)) {
            return null;
        }
        return new Allocation(block.id(i), block.key(i), block.end(i) - block.key(i));
    }

    /** The live allocation whose base is exactly {@code base}, or null. */
    public @Nullable Allocation atBase(long base) {
        long k = base;
        int b = blockFor(k);
        if (b < 0) {
            return null;
        }
        Block block = blocks[b];
        int i = lastAtOrBelow(block, k);
        if (i < 0 || block.key(i) != k) {
            return null;
        }
        return new Allocation(block.id(i), base, block.end(i) - k);
    }

    /**
     * The id of a live allocation that shares at least one byte with {@code [base, base + size)}, or -1. When several
     * do, the one with the lowest base.
     */
    public long findOverlapping(long base, long size) {
        checkRange(base, size);
        long k = base;
        long kEnd = base + size;
        long containing = find(base);
        if (containing >= 0) {
            return containing;
        }
        // Otherwise the first allocation starting above base overlaps iff it starts before the end.
        int b = blockFor(k);
        int i = b < 0 ? 0 : lastAtOrBelow(blocks[b], k) + 1;
        if (b < 0) {
            b = 0;
        }
        if (b < blockCount && i >= blocks[b].n) {
            b++;
            i = 0;
        }
        if (b >= blockCount) {
            return -1;
        }
        return blocks[b].key(i) < kEnd ? blocks[b].id(i) : -1;
    }

    /**
     * Adds the allocation {@code [base, base + size)} with the given id.
     *
     * @throws IllegalArgumentException if size is not positive, the range passes the end of the address space, or the
     *             id is negative
     * @throws IllegalStateException if the range overlaps a live allocation, or this is a snapshot
     */
    public void add(long base, long size, long allocationId) {
        checkMutable();
        checkRange(base, size);
        if (allocationId < 0) {
            throw new IllegalArgumentException("allocation id must be >= 0, got " + allocationId);
        }
        long other = findOverlapping(base, size);
        if (other >= 0) {
            throw new IllegalStateException("allocation " + allocationId + " [" + hex(base) + ", " + hex(base + size)
                    + ") overlaps live allocation " + other + " " + describe(other));
        }
        long k = base;
        if (blockCount == 0) {
            insertBlock(0, new Block());
        }
        int b = Math.max(blockFor(k), 0);
        Block block = writable(b);
        if (block.n == BLOCK) {
            split(b);
            if (k >= firstKeys[b + 1]) {
                b++;
            }
            block = blocks[b];
        }
        int i = lastAtOrBelow(block, k) + 1;
        block.moveTo(block, i + 1, i, block.n - i);
        block.set(i, k, base + size, allocationId);
        block.n++;
        refresh(b);
        count++;
        bytes += size;
    }

    /**
     * Removes the live allocation whose base is exactly {@code base}.
     *
     * @return its id, or -1 when no live allocation starts at {@code base} (nothing changes then)
     * @throws IllegalStateException if this is a snapshot
     */
    public long remove(long base) {
        checkMutable();
        long k = base;
        int b = blockFor(k);
        if (b < 0) {
            return -1;
        }
        int i = lastAtOrBelow(blocks[b], k);
        if (i < 0 || blocks[b].key(i) != k) {
            return -1;
        }
        Block block = writable(b);
        long id = block.id(i);
        bytes -= block.end(i) - k;
        count--;
        block.moveTo(block, i, i + 1, block.n - i - 1);
        block.n--;
        block.data[block.n] = PAD;
        if (block.n == 0) {
            removeBlock(b);
        } else {
            refresh(b);
            if (block.n < BLOCK / 4) {
                mergeSmall(b);
            }
        }
        return id;
    }

    /** An immutable view of the current allocations; O(blocks), later changes here do not show in it. */
    public LiveAllocations snapshot() {
        return frozen ? this : new LiveAllocations(this, true);
    }

    /** A mutable copy (of a snapshot, typically to resume replay from a checkpoint); O(blocks). */
    public LiveAllocations mutableCopy() {
        return new LiveAllocations(this, false);
    }

    /** Receives allocations in address order; primitive, so iterating allocates nothing. */
    @FunctionalInterface
    public interface AllocationConsumer {
        void accept(long id, long base, long size);
    }

    /** Calls {@code consumer} for each live allocation in ascending address order. */
    public void forEach(AllocationConsumer consumer) {
        for (int b = 0; b < blockCount; b++) {
            Block block = blocks[b];
            for (int i = 0; i < block.n; i++) {
                consumer.accept(block.id(i), block.key(i), block.end(i) - block.key(i));
            }
        }
    }

    /** The live allocations in ascending address order (the iterator fails if this set changes meanwhile). */
    @Override
    public Iterator<Allocation> iterator() {
        int expectedCount = count;
        return new Iterator<>() {
            int b;
            int i;

            @Override
            public boolean hasNext() {
                if (count != expectedCount) {
                    throw new java.util.ConcurrentModificationException("live allocations changed during iteration");
                }
                return b < blockCount && i < blocks[b].n;
            }

            @Override
            public Allocation next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Block block = blocks[b];
                Allocation a = new Allocation(block.id(i), block.key(i), block.end(i) - block.key(i));
                if (++i == block.n) {
                    b++;
                    i = 0;
                }
                return a;
            }
        };
    }

    /** The live allocations in address order, as a list (for tests and small sets). */
    public List<Allocation> toList() {
        List<Allocation> list = new ArrayList<>(count);
        forEach((id, base, size) -> list.add(new Allocation(id, base, size)));
        return list;
    }

    /** Number of blocks (for tests and tuning). */
    int blockCount() {
        return blockCount;
    }

    /** Buckets of the radix table (for tests and tuning). */
    int radixBuckets() {
        return radixBuckets;
    }

    /**
     * Checks the internal invariants (sorted keys, top-level copies, radix table) and throws an
     * {@link IllegalStateException} naming the first one broken; for tests.
     */
    void checkInvariants() {
        long previous = -1;
        for (int b = 0; b < blockCount; b++) {
            Block block = blocks[b];
            check(block.n > 0 && block.data == blockData[b], "block " + b + " empty or not mirrored");
            check(firstKeys[b] == block.key(0), "firstKeys[" + b + "]");
            for (int i = 0; i < BLOCK; i++) {
                if (i < block.n) {
                    check(block.key(i) > previous, "keys not ascending at block " + b + " entry " + i);
                    previous = block.key(i);
                } else {
                    check(block.key(i) == PAD, "no pad at block " + b + " entry " + i);
                }
            }
            long next = b + 1 < blockCount ? blocks[b + 1].key(0) : PAD;
            for (int g = 0; g < GROUPS; g++) {
                check(samples[b * GROUPS + g] == (g * GROUP < block.n ? block.key(g * GROUP) : next),
                        "sample " + g + " of block " + b);
            }
        }
        check(firstKeys[blockCount] == PAD, "no sentinel after the last block");
        for (int j = 0; j <= radixBuckets; j++) {
            int expected = 0;
            for (int b = 1; b < blockCount; b++) {
                if (((firstKeys[b] - radixLo) >>> radixShift) < j) {
                    expected = b;
                }
            }
            check(radix[j] == expected, "radix[" + j + "] = " + radix[j] + ", expected " + expected);
        }
        check(radix[radixBuckets + 1] == Math.max(blockCount - 1, 0), "radix end");
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("live allocations invariant broken: " + what);
        }
    }

    // ---- internals

    /** Index of the block whose range holds key k (last block with first key <= k), or -1 if below all. */
    private int blockFor(long k) {
        return blockFor(k, 0, blockCount - 1) - (firstKeys[0] <= k ? 0 : 1);
    }

    /**
     * The last block in [lo, hi] with first key <= k, or lo when none is. Branch-free (steps of falling powers of two,
     * each taken or not by arithmetic on the compare), because a lookup lands here whenever its radix bucket spans
     * several blocks, which is the common case when allocations cluster in far-apart address regions (device heap,
     * pools, managed and host memory), and a mispredicted branch per step would cost more than the loads.
     */
    private int blockFor(long k, int lo, int hi) {
        long[] keys = firstKeys;
        int b = lo;
        long k1 = k + 1;
        for (int step = Integer.highestOneBit(Math.max(hi - lo, 0)); step > 0; step >>>= 1) {
            int t = b + step;
            // 1 iff t <= hi and keys[t] <= k; keys past hi are never read as a step's target
            int take = (int) (((keys[Math.min(t, hi)] - k1) >>> 63) & ((t - hi - 1) >>> 31));
            b += step & -take;
        }
        return b;
    }

    /** Index of the last entry of the block with key <= k, or -1. */
    private static int lastAtOrBelow(Block block, long k) {
        long[] keys = block.data;
        int lo = 0;
        int hi = block.n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (keys[mid] <= k) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    private Block writable(int b) {
        Block block = blocks[b];
        if (block.shared) {
            block = new Block(block);
            blocks[b] = block;
            blockData[b] = block.data;
        }
        return block;
    }

    private void split(int b) {
        Block left = blocks[b];
        Block right = new Block();
        int half = left.n / 2;
        int moved = left.n - half;
        left.moveTo(right, 0, half, moved);
        right.n = moved;
        left.n = half;
        java.util.Arrays.fill(left.data, half, BLOCK, PAD);
        insertBlock(b + 1, right);
        refresh(b);
    }

    private void insertBlock(int at, Block block) {
        if (blockCount + 1 >= blocks.length) {
            int capacity = blocks.length * 2;
            blocks = java.util.Arrays.copyOf(blocks, capacity);
            blockData = java.util.Arrays.copyOf(blockData, capacity);
            firstKeys = java.util.Arrays.copyOf(firstKeys, capacity);
            java.util.Arrays.fill(firstKeys, blockCount + 1, capacity, PAD);
            samples = java.util.Arrays.copyOf(samples, capacity * GROUPS);
        }
        System.arraycopy(blocks, at, blocks, at + 1, blockCount - at);
        System.arraycopy(blockData, at, blockData, at + 1, blockCount - at);
        System.arraycopy(firstKeys, at, firstKeys, at + 1, blockCount + 1 - at);
        System.arraycopy(samples, at * GROUPS, samples, (at + 1) * GROUPS, (blockCount - at) * GROUPS);
        blocks[at] = block;
        blockData[at] = block.data;
        blockCount++;
        refreshCopies(at);
        if (at + 1 < blockCount) {
            refreshCopies(at + 1);
        }
        rebuildRadix();
    }

    private void removeBlock(int at) {
        System.arraycopy(blocks, at + 1, blocks, at, blockCount - at - 1);
        System.arraycopy(blockData, at + 1, blockData, at, blockCount - at - 1);
        System.arraycopy(firstKeys, at + 1, firstKeys, at, blockCount - at);
        System.arraycopy(samples, (at + 1) * GROUPS, samples, at * GROUPS, (blockCount - at - 1) * GROUPS);
        blockCount--;
        blocks[blockCount] = null;
        blockData[blockCount] = null;
        firstKeys[blockCount] = PAD;
        if (at > 0) {
            refreshCopies(at - 1);
        }
        rebuildRadix();
    }

    /** Merges a block that fell under a quarter full into a neighbour when both fit in three quarters of a block. */
    private void mergeSmall(int b) {
        int left;
        if (b + 1 < blockCount && blocks[b].n + blocks[b + 1].n <= BLOCK * 3 / 4) {
            left = b;
        } else if (b > 0 && blocks[b - 1].n + blocks[b].n <= BLOCK * 3 / 4) {
            left = b - 1;
        } else {
            return;
        }
        Block into = writable(left);
        Block from = blocks[left + 1];
        from.moveTo(into, into.n, 0, from.n);
        into.n += from.n;
        removeBlock(left + 1);
        refresh(left);
    }

    /** Updates the top-level copies (first key, samples, radix) of block b after its entries changed. */
    private void refresh(int b) {
        long oldFirst = firstKeys[b];
        refreshCopies(b);
        long newFirst = firstKeys[b];
        if (b > 0 && oldFirst != newFirst) {
            moveRadixStart(b, oldFirst, newFirst);
        }
    }

    /** Recomputes first key and samples of block b, and the unused samples of block b - 1. */
    private void refreshCopies(int b) {
        for (int r = Math.max(b - 1, 0); r <= b && r < blockCount; r++) {
            Block block = blocks[r];
            firstKeys[r] = block.key(0);
            long next = r + 1 < blockCount ? blocks[r + 1].key(0) : PAD;
            for (int g = 0; g < GROUPS; g++) {
                samples[r * GROUPS + g] = g * GROUP < block.n ? block.key(g * GROUP) : next;
            }
        }
    }

    /** The radix bucket of a key, clamped to [0, radixBuckets]. */
    private int bucketOf(long k) {
        return (int) Math.min(Math.max(k - radixLo, 0) >>> radixShift, radixBuckets);
    }

    /**
     * Block b (> 0) now starts at newFirst instead of oldFirst: the buckets whose start lies between the two change
     * between b - 1 and b. Block 0 needs nothing, as buckets below every block start name block 0 too.
     */
    private void moveRadixStart(int b, long oldFirst, long newFirst) {
        int from = bucketOf(Math.min(oldFirst, newFirst)) + 1;
        int to = bucketOf(Math.max(oldFirst, newFirst));
        int newBucket = bucketOf(newFirst);
        for (int j = from; j <= to; j++) {
            radix[j] = newBucket < j ? b : b - 1;
        }
    }

    /** Recomputes the radix table for the current blocks, sizing it to about {@value #RADIX_PER_BLOCK} per block. */
    private void rebuildRadix() {
        int buckets = Math.clamp(Integer.highestOneBit(Math.max(blockCount, 1)) * 2L * RADIX_PER_BLOCK, RADIX_MIN,
                RADIX_MAX);
        if (radix == null || radix.length != buckets + 2) {
            radix = new int[buckets + 2];
        }
        radixBuckets = buckets;
        radixLo = blockCount == 0 ? 0 : firstKeys[0];
        long span = blockCount == 0 ? 0 : firstKeys[blockCount - 1] - radixLo;
        int shift = 0;
        while ((span >>> shift) >= buckets) {
            shift++;
        }
        radixShift = shift;
        int b = 0;
        for (int j = 0; j <= buckets; j++) {
            while (b + 1 < blockCount && ((firstKeys[b + 1] - radixLo) >>> shift) < j) {
                b++;
            }
            radix[j] = b;
        }
        radix[buckets + 1] = Math.max(blockCount - 1, 0);
    }

    private void checkMutable() {
        if (frozen) {
            throw new IllegalStateException("this is an immutable snapshot of live allocations; use mutableCopy()");
        }
    }

    private static void checkRange(long base, long size) {
        if (size <= 0) {
            throw new IllegalArgumentException("allocation at " + hex(base) + " has size " + Long.toUnsignedString(size)
                    + "; sizes must be positive (and below 2^63)");
        }
        if (base < 0 || base + size < 0) {
            throw new IllegalArgumentException("allocation [" + hex(base) + ", " + hex(base + size) + ") reaches above "
                    + "2^63 (0x8000000000000000); device and host virtual addresses lie below, larger ones are not "
                    + "supported");
        }
    }

    private String describe(long id) {
        for (int b = 0; b < blockCount; b++) {
            Block block = blocks[b];
            for (int i = 0; i < block.n; i++) {
                if (block.id(i) == id) {
                    return "[" + hex(block.key(i)) + ", " + hex(block.end(i)) + ")";
                }
            }
        }
        return "";
    }

    static String hex(long address) {
        return "0x" + Long.toHexString(address);
    }

    @Override
    public String toString() {
        return "LiveAllocations[" + count + " allocations, " + bytes + " bytes, " + blockCount + " blocks"
                + (frozen ? ", snapshot" : "") + "]";
    }
}
