package org.phos.workbench.internal.speculation.core.engines;

import java.util.Arrays;

/**
 * A map from long keys to int values with open addressing (linear probing, backward-shift deletion), so lookups on
 * the speculation hot path neither box nor allocate. Missing keys read as {@link #MISSING}.
 */
public final class LongIntMap {

	/** What {@link #get} returns for a key that is not there. */
	public static final int MISSING = Integer.MIN_VALUE;

	private long[] keys;
	private int[] values;
	private boolean[] used;
	private int size;
	private int mask;

	/** An empty map. */
	public LongIntMap() {
		this(16);
	}

	/** @param expected how many keys it should hold without growing */
	public LongIntMap(int expected) {
		int capacity = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
		keys = new long[capacity];
		values = new int[capacity];
		used = new boolean[capacity];
		mask = capacity - 1;
	}

	private static int hash(long key) {
		long h = key * 0x9E3779B97F4A7C15L;
		return (int) (h ^ (h >>> 32));
	}

	/** @return the value for the key, or {@link #MISSING} */
	public int get(long key) {
		for (int i = hash(key) & mask;; i = (i + 1) & mask) {
			if (!used[i]) {
				return MISSING;
			}
			if (keys[i] == key) {
				return values[i];
			}
		}
	}

	/** Sets the value for the key. */
	public void put(long key, int value) {
		if (value == MISSING) {
			throw new IllegalArgumentException("MISSING cannot be stored");
		}
		for (int i = hash(key) & mask;; i = (i + 1) & mask) {
			if (!used[i]) {
				used[i] = true;
				keys[i] = key;
				values[i] = value;
				if (++size * 2 > keys.length) {
					grow();
				}
				return;
			}
			if (keys[i] == key) {
				values[i] = value;
				return;
			}
		}
	}

	/** Removes the key; returns its value or {@link #MISSING}. */
	public int remove(long key) {
		int i = hash(key) & mask;
		while (true) {
			if (!used[i]) {
				return MISSING;
			}
			if (keys[i] == key) {
				break;
			}
			i = (i + 1) & mask;
		}
		int old = values[i];
		size--;
		// backward-shift: move later entries of the probe run into the hole when their home allows it
		int hole = i;
		for (int j = (hole + 1) & mask; used[j]; j = (j + 1) & mask) {
			int home = hash(keys[j]) & mask;
			boolean movable = hole <= j ? home <= hole || home > j : home <= hole && home > j;
			if (movable) {
				keys[hole] = keys[j];
				values[hole] = values[j];
				hole = j;
			}
		}
		used[hole] = false;
		return old;
	}

	/** @return the number of keys */
	public int size() {
		return size;
	}

	/** Receives entries; primitive, so iterating allocates nothing. */
	@FunctionalInterface
	public interface EntryConsumer {
		void accept(long key, int value);
	}

	/** Calls {@code action} with every entry, in no particular order. */
	public void forEach(EntryConsumer action) {
		for (int i = 0; i < keys.length; i++) {
			if (used[i]) {
				action.accept(keys[i], values[i]);
			}
		}
	}

	/** Removes every key. */
	public void clear() {
		Arrays.fill(used, false);
		size = 0;
	}

	private void grow() {
		long[] oldKeys = keys;
		int[] oldValues = values;
		boolean[] oldUsed = used;
		keys = new long[oldKeys.length * 2];
		values = new int[oldKeys.length * 2];
		used = new boolean[oldKeys.length * 2];
		mask = keys.length - 1;
		size = 0;
		for (int i = 0; i < oldKeys.length; i++) {
			if (oldUsed[i]) {
				put(oldKeys[i], oldValues[i]);
			}
		}
	}
}
