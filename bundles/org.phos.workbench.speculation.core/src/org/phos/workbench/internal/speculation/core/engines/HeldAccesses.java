package org.phos.workbench.internal.speculation.core.engines;

import java.util.Arrays;

import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.LaunchContext;

/**
 * The accesses a base engine gave for one launch, held until all of them, and so all the pointers the launch uses,
 * are known: the block modifiers ({@code +blocks}, {@code +alloc-blocks}) bound each access by the launch's other
 * pointers. One per engine, reused launch after launch (no allocation per launch).
 */
final class HeldAccesses implements AccessSink {
	/** What a modifier does with one held access. */
	@FunctionalInterface
	interface Narrower {
		void narrow(LaunchContext launch, AccessSink sink, long id, long allocationBase, long begin, long end, int mode,
				int param, int offset);
	}

	private int count;
	private long[] ranges = new long[64];
	private int[] modes = new int[16];
	private int[] params = new int[16];
	private int[] offsets = new int[16];
	private long[] words = new long[64];
	private int wordCount;

	/** Forgets the previous launch's accesses and pointers. */
	void clear() {
		count = 0;
		wordCount = 0;
	}

	@Override
	public void access(long id, long allocationBase, long begin, long end, int mode, int param, int offset) {
		if (count == modes.length) {
			int more = count * 2;
			modes = Arrays.copyOf(modes, more);
			params = Arrays.copyOf(params, more);
			offsets = Arrays.copyOf(offsets, more);
			ranges = Arrays.copyOf(ranges, more * 4);
		}
		int o = count * 4;
		ranges[o] = id;
		ranges[o + 1] = allocationBase;
		ranges[o + 2] = begin;
		ranges[o + 3] = end;
		modes[count] = mode;
		params[count] = param;
		offsets[count++] = offset;
	}

	/** Reads the parameter word of each held access that came through one: the pointers the base engine took. */
	void takeWords(LaunchContext launch) {
		if (words.length < count) {
			words = new long[Math.max(count, words.length * 2)];
		}
		int n = 0;
		for (int k = 0; k < count; k++) {
			if (offsets[k] >= 0) {
				words[n++] = launch.paramLong(offsets[k]);
			}
		}
		wordCount = n;
	}

	/** The pointers {@link #takeWords} read (the first {@link #wordCount()}). */
	long[] words() {
		return words;
	}

	int wordCount() {
		return wordCount;
	}

	/** Hands each held access, in the order the base engine gave them, to {@code narrower}. */
	void narrowEach(LaunchContext launch, AccessSink sink, Narrower narrower) {
		for (int k = 0; k < count; k++) {
			int o = k * 4;
			narrower.narrow(launch, sink, ranges[o], ranges[o + 1], ranges[o + 2], ranges[o + 3], modes[k], params[k],
					offsets[k]);
		}
	}
}
