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
 * kept sorted by base in a two-level structure: blocks of at most {@value #BLOCK} entries in primitive arrays, and a
 * top-level array holding each block's smallest base. A lookup is two branch-free binary searches (top level, then one
 * block); an insert or remove shifts at most one block, so millions of alloc/free events stay cheap. Addresses are
 * non-negative longs: device and host virtual addresses lie far below 2<sup>63</sup>, and allocations reaching above it
 * are rejected (lookups of such addresses find nothing), which lets every comparison be plain arithmetic.
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

    /** Sorted entries of one block; {@code shared} once a snapshot may see it (then it is copied before a change). */
    private static final class Block {
        final long[] keys; // flipped bases, ascending
        final long[] ends; // flipped exclusive ends
        final long[] ids;
        int n;
        boolean shared;

        Block() {
            keys = new long[BLOCK];
            java.util.Arrays.fill(keys, PAD);
            ends = new long[BLOCK];
            ids = new long[BLOCK];
        }

        Block(Block other) {
            keys = other.keys.clone();
            ends = other.ends.clone();
            ids = other.ids.clone();
            n = other.n;
        }
    }

    private long[] firstKeys; // firstKeys[b] == blocks[b].keys[0]
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
        samples = new long[16 * GROUPS];
        blocks = new Block[16];
        frozen = false;
    }

    private LiveAllocations(LiveAllocations source, boolean frozen) {
        this.firstKeys = source.firstKeys.clone();
        this.samples = source.samples.clone();
        this.blocks = source.blocks.clone();
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

    /** Whether this instance is an immutable snapshot. */
    public boolean isSnapshot() {
        return frozen;
    }

    /**
     * The id of the live allocation containing {@code address}, or -1 when no live allocation contains it.
     */
    public long find(long address) {
        // Free of data-dependent branches, so that consecutive lookups overlap in the CPU instead of each waiting for
        // a mispredicted branch, and short, so that several fit in its reorder window: a binary search of the sampled
        // keys (every 16th key of every block, a few KiB that stay in cache) picks block and group, a binary search
        // of the group's 16 keys picks the entry. Keys and addresses lie in [0, 2^63), so "a <= k" is the sign bit of
        // a - k - 1, without overflow.
        long k = address;
        int n = blockCount * GROUPS;
        if (n == 0 || k < 0) {
            return -1;
        }
        long[] s = samples;
        int at = 0;
        while (n > 1) {
            int half = n >>> 1;
            at += half & (int) ((s[at + half] - k - 1) >> 63);
            n -= half;
        }
        Block block = blocks[at >>> 4];
        long[] keys = block.keys;
        int i = (at & (GROUPS - 1)) * GROUP;
        i += 8 & (int) ((keys[i + 8] - k - 1) >> 63);
        i += 4 & (int) ((keys[i + 4] - k - 1) >> 63);
        i += 2 & (int) ((keys[i + 2] - k - 1) >> 63);
        i += 1 & (int) ((keys[i + 1] - k - 1) >> 63);
        long inside = ((k - block.ends[i]) & (keys[i] - k - 1)) >> 63; // all ones iff keys[i] <= k < ends[i]
        return (block.ids[i] & inside) | ~inside;
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
        if (i < 0 || k >= block.ends[i]) {
            return null;
        }
        return new Allocation(block.ids[i], block.keys[i], block.ends[i] - block.keys[i]);
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
        if (i < 0 || block.keys[i] != k) {
            return null;
        }
        return new Allocation(block.ids[i], base, block.ends[i] - k);
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
        return blocks[b].keys[i] < kEnd ? blocks[b].ids[i] : -1;
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
            Block block = new Block();
            blocks[0] = block;
            blockCount = 1;
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
        int tail = block.n - i;
        System.arraycopy(block.keys, i, block.keys, i + 1, tail);
        System.arraycopy(block.ends, i, block.ends, i + 1, tail);
        System.arraycopy(block.ids, i, block.ids, i + 1, tail);
        block.keys[i] = k;
        block.ends[i] = base + size;
        block.ids[i] = allocationId;
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
        if (i < 0 || blocks[b].keys[i] != k) {
            return -1;
        }
        Block block = writable(b);
        long id = block.ids[i];
        bytes -= block.ends[i] - k;
        count--;
        int tail = block.n - i - 1;
        System.arraycopy(block.keys, i + 1, block.keys, i, tail);
        System.arraycopy(block.ends, i + 1, block.ends, i, tail);
        System.arraycopy(block.ids, i + 1, block.ids, i, tail);
        block.n--;
        block.keys[block.n] = PAD;
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
                consumer.accept(block.ids[i], block.keys[i], block.ends[i] - block.keys[i]);
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
                Allocation a = new Allocation(block.ids[i], block.keys[i], block.ends[i] - block.keys[i]);
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

    // ---- internals

    /** Index of the block whose range holds flipped key k (last block with first key <= k), or -1 if below all. */
    private int blockFor(long k) {
        int lo = 0;
        int hi = blockCount - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (firstKeys[mid] <= k) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** Index of the last entry of the block with key <= k, or -1. */
    private static int lastAtOrBelow(Block block, long k) {
        int lo = 0;
        int hi = block.n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (block.keys[mid] <= k) {
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
        }
        return block;
    }

    private void split(int b) {
        Block left = blocks[b];
        Block right = new Block();
        int half = left.n / 2;
        int moved = left.n - half;
        System.arraycopy(left.keys, half, right.keys, 0, moved);
        System.arraycopy(left.ends, half, right.ends, 0, moved);
        System.arraycopy(left.ids, half, right.ids, 0, moved);
        right.n = moved;
        left.n = half;
        java.util.Arrays.fill(left.keys, half, BLOCK, PAD);
        insertBlock(b + 1, right);
        refresh(b);
    }

    private void insertBlock(int at, Block block) {
        if (blockCount == blocks.length) {
            blocks = java.util.Arrays.copyOf(blocks, blockCount * 2);
            firstKeys = java.util.Arrays.copyOf(firstKeys, blockCount * 2);
            samples = java.util.Arrays.copyOf(samples, blockCount * 2 * GROUPS);
        }
        System.arraycopy(blocks, at, blocks, at + 1, blockCount - at);
        System.arraycopy(firstKeys, at, firstKeys, at + 1, blockCount - at);
        System.arraycopy(samples, at * GROUPS, samples, (at + 1) * GROUPS, (blockCount - at) * GROUPS);
        blocks[at] = block;
        blockCount++;
        refresh(at);
        if (at + 1 < blockCount) {
            refresh(at + 1);
        }
    }

    private void removeBlock(int at) {
        System.arraycopy(blocks, at + 1, blocks, at, blockCount - at - 1);
        System.arraycopy(firstKeys, at + 1, firstKeys, at, blockCount - at - 1);
        System.arraycopy(samples, (at + 1) * GROUPS, samples, at * GROUPS, (blockCount - at - 1) * GROUPS);
        blockCount--;
        blocks[blockCount] = null;
        if (at > 0) {
            refresh(at - 1);
        }
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
        System.arraycopy(from.keys, 0, into.keys, into.n, from.n);
        System.arraycopy(from.ends, 0, into.ends, into.n, from.n);
        System.arraycopy(from.ids, 0, into.ids, into.n, from.n);
        into.n += from.n;
        removeBlock(left + 1);
        refresh(left);
    }

    /** Recomputes the top-level copies (first key, samples) of block b, and the unused samples of block b - 1. */
    private void refresh(int b) {
        for (int r = Math.max(b - 1, 0); r <= b && r < blockCount; r++) {
            Block block = blocks[r];
            firstKeys[r] = block.keys[0];
            long next = r + 1 < blockCount ? blocks[r + 1].keys[0] : PAD;
            for (int g = 0; g < GROUPS; g++) {
                samples[r * GROUPS + g] = g * GROUP < block.n ? block.keys[g * GROUP] : next;
            }
        }
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
                if (block.ids[i] == id) {
                    return "[" + hex(block.keys[i]) + ", " + hex(block.ends[i]) + ")";
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
