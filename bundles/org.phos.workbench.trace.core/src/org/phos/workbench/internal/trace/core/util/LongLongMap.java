package org.phos.workbench.internal.trace.core.util;

/**
 * A hash map from {@code long} to {@code long} with open addressing (linear probing, backward-shift deletion), for
 * walking millions of events without boxing: stream handle to track, allocation address to size.
 */
public final class LongLongMap {

	private long[] keys;
	private long[] values;
	private boolean[] used;
	private int size;
	private int mask;

	public LongLongMap() {
		this(16);
	}

	public LongLongMap(int expected) {
		int capacity = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
		keys = new long[capacity];
		values = new long[capacity];
		used = new boolean[capacity];
		mask = capacity - 1;
	}

	public int size() {
		return size;
	}

	private static int hash(long key) {
		long h = key * 0x9E3779B97F4A7C15L;
		return (int) (h ^ (h >>> 32));
	}

	private int slot(long key) {
		int i = hash(key) & mask;
		while (used[i] && keys[i] != key) {
			i = (i + 1) & mask;
		}
		return i;
	}

	public boolean containsKey(long key) {
		return used[slot(key)];
	}

	/** The value for {@code key}, or {@code missing}. */
	public long get(long key, long missing) {
		int i = slot(key);
		return used[i] ? values[i] : missing;
	}

	public void put(long key, long value) {
		int i = slot(key);
		if (!used[i]) {
			used[i] = true;
			keys[i] = key;
			size++;
			if (size * 2 > keys.length) {
				values[i] = value;
				grow();
				return;
			}
		}
		values[i] = value;
	}

	/** Removes {@code key}; returns its value or {@code missing}. */
	public long remove(long key, long missing) {
		int i = slot(key);
		if (!used[i]) {
			return missing;
		}
		long old = values[i];
		used[i] = false;
		size--;
		// backward-shift the entries of the cluster that follow, so that probing stays correct
		int hole = i;
		int j = (i + 1) & mask;
		while (used[j]) {
			int home = hash(keys[j]) & mask;
			boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
			if (movable) {
				keys[hole] = keys[j];
				values[hole] = values[j];
				used[hole] = true;
				used[j] = false;
				hole = j;
			}
			j = (j + 1) & mask;
		}
		return old;
	}

	/** Receives entries; order unspecified. */
	@FunctionalInterface
	public interface EntryConsumer {
		void accept(long key, long value);
	}

	public void forEach(EntryConsumer consumer) {
		for (int i = 0; i < keys.length; i++) {
			if (used[i]) {
				consumer.accept(keys[i], values[i]);
			}
		}
	}

	private void grow() {
		long[] oldKeys = keys;
		long[] oldValues = values;
		boolean[] oldUsed = used;
		keys = new long[oldKeys.length * 2];
		values = new long[oldKeys.length * 2];
		used = new boolean[oldKeys.length * 2];
		mask = keys.length - 1;
		for (int i = 0; i < oldKeys.length; i++) {
			if (oldUsed[i]) {
				int s = slot(oldKeys[i]);
				used[s] = true;
				keys[s] = oldKeys[i];
				values[s] = oldValues[i];
			}
		}
	}
}
