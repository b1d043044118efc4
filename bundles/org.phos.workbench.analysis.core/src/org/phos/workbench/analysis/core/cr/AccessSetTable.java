package org.phos.workbench.analysis.core.cr;

import java.util.Arrays;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cr.core.trace.LaunchAccesses;
import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.SpeculatedAccess;
import org.phos.workbench.trace.core.AddressRange;

/**
 * The read and write sets of every launch of a trace, packed into primitive arrays, each distinct set stored once.
 * A speculation pass over a million launches used to keep a map entry, a boxed key, a {@link LaunchAccesses}, two
 * lists and one {@link AddressRange} per range for every launch: some 300 bytes in a dozen small objects per launch,
 * all alive until the simulation ends, which made the collector copy nearly the whole young generation in each pause
 * of the pass. Here a launch costs one {@code int} (its set's number, by event index); a set is its ranges as
 * {@code begin, end} pairs in one {@code long[]} (reads, then writes), and launches of the same kernel with the same
 * arguments share one set (looked up in an open-addressing table of set numbers: no object per set either).
 * {@link #accesses(int)} builds the {@link LaunchAccesses} a simulation asks for on demand, keeping the last few in a
 * small cache (a replay asks for the same sets again and again).
 * <p>
 * Filling: {@link #begin()}, then the engine's accesses through {@link #sink()}, then {@link #end(int)} (or nothing,
 * when the engine could not speak for the launch). Filling is single-threaded; once filled, {@link #accesses(int)}
 * may be called from several threads.
 */
final class AccessSetTable {
	private static final int NONE = -1;
	private static final int CACHE = 1 << 10;

	/** Set number by event index, {@link #NONE} when the launch has no sets. */
	private final int[] setOfEvent;
	/** All sets' ranges as {@code begin, end} pairs: a set's reads, then its writes. */
	private long[] pairs = new long[1 << 12];
	private int pairCount;
	/** Per set: its first pair, its number of reads and of writes. */
	private int[] first = new int[1 << 8];
	private int[] reads = new int[1 << 8];
	private int[] writes = new int[1 << 8];
	private int sets;
	/** Open addressing on the sets' contents: set number + 1, 0 for an empty slot. */
	private int[] table = new int[1 << 10];

	/** The launch being filled: its read and write ranges in the order the engine emitted them. */
	private long[] readScratch = new long[16];
	private long[] writeScratch = new long[16];
	private int readLength;
	private int writeLength;
	private final AccessSink sink = this::add;

	private record Cached(int set, LaunchAccesses accesses) {
	}

	private final @Nullable Cached[] cache = new Cached[CACHE];

	/** @param events the trace's event count (launches are addressed by event index) */
	AccessSetTable(int events) {
		setOfEvent = new int[events];
		Arrays.fill(setOfEvent, NONE);
	}

	/** Starts a launch. */
	void begin() {
		readLength = 0;
		writeLength = 0;
	}

	/** Where the engine reports the current launch's accesses. */
	AccessSink sink() {
		return sink;
	}

	private void add(long allocationId, long allocationBase, long begin, long end, int mode, int paramIndex,
			int paramOffset) {
		if (end <= begin) {
			return; // an empty range touches nothing
		}
		if ((mode & SpeculatedAccess.READ) != 0) {
			if (readLength + 2 > readScratch.length) {
				readScratch = Arrays.copyOf(readScratch, readScratch.length * 2);
			}
			readScratch[readLength++] = begin;
			readScratch[readLength++] = end;
		}
		if ((mode & SpeculatedAccess.WRITE) != 0) {
			if (writeLength + 2 > writeScratch.length) {
				writeScratch = Arrays.copyOf(writeScratch, writeScratch.length * 2);
			}
			writeScratch[writeLength++] = begin;
			writeScratch[writeLength++] = end;
		}
	}

	/** Ends the launch at {@code event}: its sets are what the sink received since {@link #begin()}. */
	void end(int event) {
		long h = hash();
		int mask = table.length - 1;
		int slot = (int) h & mask;
		for (int s; (s = table[slot]) != 0; slot = (slot + 1) & mask) {
			if (same(s - 1)) {
				setOfEvent[event] = s - 1;
				return;
			}
		}
		int set = append();
		table[slot] = set + 1;
		setOfEvent[event] = set;
		if (sets * 2 > table.length) {
			rehash();
		}
	}

	private long hash() {
		long h = readLength * 31L + writeLength;
		for (int i = 0; i < readLength; i++) {
			h = h * 0x9E3779B97F4A7C15L + readScratch[i];
		}
		for (int i = 0; i < writeLength; i++) {
			h = h * 0x9E3779B97F4A7C15L + writeScratch[i];
		}
		return h ^ (h >>> 29) ^ (h >>> 43);
	}

	private long hash(int set) {
		int from = first[set] * 2;
		int r = reads[set] * 2;
		int w = writes[set] * 2;
		long h = r * 31L + w;
		for (int i = 0; i < r + w; i++) {
			h = h * 0x9E3779B97F4A7C15L + pairs[from + i];
		}
		return h ^ (h >>> 29) ^ (h >>> 43);
	}

	private boolean same(int set) {
		if (reads[set] * 2 != readLength || writes[set] * 2 != writeLength) {
			return false;
		}
		int from = first[set] * 2;
		return Arrays.equals(pairs, from, from + readLength, readScratch, 0, readLength)
				&& Arrays.equals(pairs, from + readLength, from + readLength + writeLength, writeScratch, 0,
						writeLength);
	}

	private int append() {
		int set = sets++;
		if (set == first.length) {
			first = Arrays.copyOf(first, set * 2);
			reads = Arrays.copyOf(reads, set * 2);
			writes = Arrays.copyOf(writes, set * 2);
		}
		int need = (pairCount * 2) + readLength + writeLength;
		if (need > pairs.length) {
			pairs = Arrays.copyOf(pairs, Math.max(need, pairs.length * 2));
		}
		first[set] = pairCount;
		reads[set] = readLength / 2;
		writes[set] = writeLength / 2;
		System.arraycopy(readScratch, 0, pairs, pairCount * 2, readLength);
		System.arraycopy(writeScratch, 0, pairs, pairCount * 2 + readLength, writeLength);
		pairCount += (readLength + writeLength) / 2;
		return set;
	}

	private void rehash() {
		int[] bigger = new int[table.length * 2];
		int mask = bigger.length - 1;
		for (int set = 0; set < sets; set++) {
			int slot = (int) hash(set) & mask;
			while (bigger[slot] != 0) {
				slot = (slot + 1) & mask;
			}
			bigger[slot] = set + 1;
		}
		table = bigger;
	}

	/** How many distinct sets the launches have. */
	int distinctSets() {
		return sets;
	}

	/** The sets of the launch at {@code event}, or {@code null} when it has none. */
	@Nullable LaunchAccesses accesses(int event) {
		if (event < 0 || event >= setOfEvent.length) {
			return null;
		}
		int set = setOfEvent[event];
		if (set == NONE) {
			return null;
		}
		int slot = set & (CACHE - 1);
		Cached c = cache[slot];
		if (c != null && c.set() == set) {
			return c.accesses();
		}
		int from = first[set];
		LaunchAccesses a = new LaunchAccesses(ranges(from, reads[set]), ranges(from + reads[set], writes[set]));
		cache[slot] = new Cached(set, a);
		return a;
	}

	private List<AddressRange> ranges(int fromPair, int count) {
		AddressRange[] out = new AddressRange[count];
		for (int i = 0; i < count; i++) {
			out[i] = new AddressRange(pairs[(fromPair + i) * 2], pairs[(fromPair + i) * 2 + 1]);
		}
		return List.of(out);
	}

	/** Gives the unused tails of the arrays back once filling is over. */
	void trim() {
		pairs = Arrays.copyOf(pairs, pairCount * 2);
		first = Arrays.copyOf(first, sets);
		reads = Arrays.copyOf(reads, sets);
		writes = Arrays.copyOf(writes, sets);
	}
}
