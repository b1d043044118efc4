package org.phos.workbench.speculation.core.validate;

import java.util.Arrays;

/**
 * The bytes one side (an engine's speculation, or instrumentation's observation) names at one launch, per allocation
 * base: read and written {@link ByteRanges} and whether the allocation was reached only through stored pointers. The
 * validator fills one for each side of every judged launch, so it is made to be reused without allocating: a slot per
 * allocation, kept with its ranges from launch to launch, and found by base through an open-addressing table of
 * primitive keys (a launch names a few allocations; a boxed map cost more than the comparison itself on a trace of a
 * million observed launches). Not thread-safe: one per part and side.
 */
final class AllocationRanges {

	private long[] bases = new long[8];
	private ByteRanges[] read = new ByteRanges[8];
	private ByteRanges[] written = new ByteRanges[8];
	private boolean[] indirectOnly = new boolean[8];
	/** Read and written together, made on demand ({@link #all}) and valid while {@code allMade[slot]}. */
	private ByteRanges[] all = new ByteRanges[8];
	private boolean[] allMade = new boolean[8];
	/** Where each slot sits in {@link #table}, so that {@link #clear} empties only what was used. */
	private int[] position = new int[8];
	private int count;
	/** Slot + 1 by hash of the base (linear probing); 0 is free. At most half full. */
	private int[] table = new int[16];

	/** Forgets every allocation (the slots' ranges are kept for reuse). */
	void clear() {
		for (int s = 0; s < count; s++) {
			table[position[s]] = 0;
		}
		count = 0;
	}

	/** @return the number of allocations named since {@link #clear} */
	int count() {
		return count;
	}

	/** @return the base address of slot {@code slot} (slots in the order first named) */
	long base(int slot) {
		return bases[slot];
	}

	/** @return the slot of {@code base}, or -1 when it was not named */
	int find(long base) {
		int mask = table.length - 1;
		for (int h = hash(base) & mask;; h = (h + 1) & mask) {
			int t = table[h];
			if (t == 0) {
				return -1;
			}
			if (bases[t - 1] == base) {
				return t - 1;
			}
		}
	}

	/** @return the slot of {@code base}, made empty (no bytes, indirect only) when it was not named yet */
	int slot(long base) {
		int mask = table.length - 1;
		int h = hash(base) & mask;
		for (;; h = (h + 1) & mask) {
			int t = table[h];
			if (t == 0) {
				break;
			}
			if (bases[t - 1] == base) {
				return t - 1;
			}
		}
		if (2 * (count + 1) > table.length) {
			grow();
			return slot(base);
		}
		int s = count++;
		if (s == bases.length) {
			int n = s * 2;
			bases = Arrays.copyOf(bases, n);
			read = Arrays.copyOf(read, n);
			written = Arrays.copyOf(written, n);
			indirectOnly = Arrays.copyOf(indirectOnly, n);
			all = Arrays.copyOf(all, n);
			allMade = Arrays.copyOf(allMade, n);
			position = Arrays.copyOf(position, n);
		}
		if (read[s] == null) {
			read[s] = new ByteRanges();
			written[s] = new ByteRanges();
		} else {
			read[s].clear();
			written[s].clear();
		}
		bases[s] = base;
		indirectOnly[s] = true;
		allMade[s] = false;
		position[s] = h;
		table[h] = s + 1;
		return s;
	}

	private void grow() {
		table = new int[table.length * 2];
		int mask = table.length - 1;
		for (int s = 0; s < count; s++) {
			int h = hash(bases[s]) & mask;
			while (table[h] != 0) {
				h = (h + 1) & mask;
			}
			table[h] = s + 1;
			position[s] = h;
		}
	}

	/** Bases are aligned (low bits zero): the high bits of a multiplicative hash spread them. */
	private static int hash(long base) {
		return (int) ((base * 0x9E3779B97F4A7C15L) >>> 32);
	}

	/** @return the read bytes of slot {@code slot}, to add to or ask */
	ByteRanges read(int slot) {
		return read[slot];
	}

	/** @return the written bytes of slot {@code slot}, to add to or ask */
	ByteRanges written(int slot) {
		return written[slot];
	}

	/** Notes how slot {@code slot} was reached: it stays indirect only while every access to it is. */
	void reached(int slot, boolean indirect) {
		indirectOnly[slot] &= indirect;
	}

	/** @return whether every access to slot {@code slot} was through stored pointers */
	boolean indirectOnly(int slot) {
		return indirectOnly[slot];
	}

	/**
	 * @return the read and written bytes of slot {@code slot} together; made once after the slot's last addition
	 *         (do not add to the slot afterwards) and kept until {@link #clear}
	 */
	ByteRanges all(int slot) {
		ByteRanges r = read[slot];
		ByteRanges w = written[slot];
		if (r.isEmpty()) {
			return w;
		}
		if (w.isEmpty()) {
			return r;
		}
		if (all[slot] == null) {
			all[slot] = new ByteRanges();
		}
		if (!allMade[slot]) {
			all[slot].setUnion(r, w);
			allMade[slot] = true;
		}
		return all[slot];
	}
}
