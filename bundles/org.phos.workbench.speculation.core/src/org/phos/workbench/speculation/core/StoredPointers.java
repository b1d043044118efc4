package org.phos.workbench.speculation.core;

import java.util.Arrays;
import java.util.function.LongConsumer;

import org.phos.workbench.internal.speculation.core.engines.LongIntMap;

/**
 * Pointers written into device memory, as far as the trace shows them: the 8-byte-aligned words of captured
 * host-to-device copy payloads that held the address of a live allocation when copied, kept per destination
 * allocation and per destination byte range (a "region"). A later copy covering a region entirely replaces it, so
 * what is kept is the last payload written into each region; a partly overwritten region is kept (more pointers,
 * never fewer). Writes by kernels, device-to-device copies and memsets are not visible in a trace and are not
 * modelled. Pointer arrays built on the host and copied over (the common way pointer tables reach the GPU) are.
 */
public final class StoredPointers {

	private LongIntMap headByAllocation = new LongIntMap(1024);
	private long[] regionBegin = new long[256];
	private long[] regionEnd = new long[256];
	private int[] regionNext = new int[256];
	private int[] regionFirst = new int[256];
	private int[] regionCount = new int[256];
	private int regions;
	private long[] pointers = new long[1024];
	private int pointerCount;
	private long[] scratch = new long[64];

	StoredPointers() {
	}

	/**
	 * Records a host-to-device copy.
	 *
	 * @param allocationId the live allocation containing {@code dst}
	 * @param dst the destination address
	 * @param payload the copied bytes
	 * @param length how many of them
	 * @param live answers which live allocation holds an address (-1 when none)
	 */
	void recordCopy(long allocationId, long dst, byte[] payload, int length, java.util.function.LongUnaryOperator live) {
		long end = dst + length;
		// drop regions of this allocation that the copy covers entirely
		int head = headByAllocation.get(allocationId);
		int previous = -1;
		for (int r = head == LongIntMap.MISSING ? -1 : head; r >= 0; r = regionNext[r]) {
			if (regionBegin[r] >= dst && regionEnd[r] <= end) {
				if (previous < 0) {
					head = regionNext[r];
				} else {
					regionNext[previous] = regionNext[r];
				}
			} else {
				previous = r;
			}
		}
		int found = 0;
		int first = (int) ((8 - (dst & 7)) & 7);
		for (int k = first; k + 8 <= length; k += 8) {
			long value = (payload[k] & 0xffL) | (payload[k + 1] & 0xffL) << 8 | (payload[k + 2] & 0xffL) << 16
					| (payload[k + 3] & 0xffL) << 24 | (payload[k + 4] & 0xffL) << 32
					| (payload[k + 5] & 0xffL) << 40 | (payload[k + 6] & 0xffL) << 48
					| (payload[k + 7] & 0xffL) << 56;
			if (value != 0 && live.applyAsLong(value) >= 0) {
				if (found == scratch.length) {
					scratch = Arrays.copyOf(scratch, found * 2);
				}
				scratch[found++] = value;
			}
		}
		if (found > 0) {
			if (regions == regionBegin.length) {
				int n = regions * 2;
				regionBegin = Arrays.copyOf(regionBegin, n);
				regionEnd = Arrays.copyOf(regionEnd, n);
				regionNext = Arrays.copyOf(regionNext, n);
				regionFirst = Arrays.copyOf(regionFirst, n);
				regionCount = Arrays.copyOf(regionCount, n);
			}
			if (pointerCount + found > pointers.length) {
				pointers = Arrays.copyOf(pointers, Math.max(pointers.length * 2, pointerCount + found));
			}
			System.arraycopy(scratch, 0, pointers, pointerCount, found);
			int r = regions++;
			regionBegin[r] = dst;
			regionEnd[r] = end;
			regionFirst[r] = pointerCount;
			regionCount[r] = found;
			regionNext[r] = head == LongIntMap.MISSING ? -1 : head;
			pointerCount += found;
			head = r;
		}
		if (head == LongIntMap.MISSING || head < 0) {
			headByAllocation.remove(allocationId);
		} else {
			headByAllocation.put(allocationId, head);
		}
	}

	/**
	 * Makes {@code target} hold what this holds, compactly: only the regions still reachable, in the same order per
	 * allocation, so that {@link #forEach}, {@link #holdsPointers} and every later {@link #recordCopy} behave as on
	 * this instance. Keyframes keep such copies ({@link SpeculationKeyframes}); a copy's size is that of the live
	 * state, not of the history (regions replaced by later copies are dropped).
	 *
	 * @param target the instance to overwrite (not this)
	 */
	void copyInto(StoredPointers target) {
		if (target == this) {
			throw new IllegalArgumentException("copy into itself");
		}
		target.headByAllocation.clear();
		target.regions = 0;
		target.pointerCount = 0;
		int[] chain = new int[16];
		headByAllocation.forEach((allocation, head) -> {
			int n = 0;
			int[] c = chain;
			for (int r = head; r >= 0; r = regionNext[r]) {
				if (n == c.length) {
					c = Arrays.copyOf(c, n * 2);
				}
				c[n++] = r;
			}
			// appended oldest first so that the newest is the head, as recordCopy links them
			int next = -1;
			for (int k = n - 1; k >= 0; k--) {
				int r = c[k];
				next = target.appendRegion(regionBegin[r], regionEnd[r], pointers, regionFirst[r], regionCount[r], next);
			}
			target.headByAllocation.put(allocation, next);
		});
	}

	/** Appends a region holding {@code count} pointers copied from {@code source[first..]}; returns its index. */
	private int appendRegion(long begin, long end, long[] source, int first, int count, int next) {
		if (regions == regionBegin.length) {
			int n = regions * 2;
			regionBegin = Arrays.copyOf(regionBegin, n);
			regionEnd = Arrays.copyOf(regionEnd, n);
			regionNext = Arrays.copyOf(regionNext, n);
			regionFirst = Arrays.copyOf(regionFirst, n);
			regionCount = Arrays.copyOf(regionCount, n);
		}
		if (pointerCount + count > pointers.length) {
			pointers = Arrays.copyOf(pointers, Math.max(pointers.length * 2, pointerCount + count));
		}
		System.arraycopy(source, first, pointers, pointerCount, count);
		int r = regions++;
		regionBegin[r] = begin;
		regionEnd[r] = end;
		regionFirst[r] = pointerCount;
		regionCount[r] = count;
		regionNext[r] = next;
		pointerCount += count;
		return r;
	}

	/** @return a compact copy (see {@link #copyInto}) */
	StoredPointers compactCopy() {
		StoredPointers copy = new StoredPointers();
		copyInto(copy);
		return copy;
	}

	/** Forgets what was stored in an allocation (it was freed). */
	void forget(long allocationId) {
		headByAllocation.remove(allocationId);
	}

	/** @return whether any pointer is stored in the allocation */
	public boolean holdsPointers(long allocationId) {
		return headByAllocation.get(allocationId) != LongIntMap.MISSING;
	}

	/**
	 * Calls {@code action} with every pointer value stored in the allocation (latest region first). Values are as
	 * copied: resolve them against the live allocations of the launch.
	 *
	 * @param allocationId an allocation id
	 * @param action receives the values
	 */
	public void forEach(long allocationId, LongConsumer action) {
		int head = headByAllocation.get(allocationId);
		for (int r = head == LongIntMap.MISSING ? -1 : head; r >= 0; r = regionNext[r]) {
			for (int p = regionFirst[r], e = p + regionCount[r]; p < e; p++) {
				action.accept(pointers[p]);
			}
		}
	}

	// i14-livebest: begin
	/** Regions kept after the last {@link #compactIfWasteful} (the live ones then). */
	private int regionsAfterCompaction;

	/**
	 * Drops the regions no allocation reaches any more (replaced by later copies, or of freed allocations) once they
	 * outnumber the reachable ones: a walk of a saved trace lets them pile up (it ends), a live stream fed for a whole
	 * attach must not. Amortized O(1) per region recorded; {@link #forEach} and {@link #holdsPointers} answer as
	 * before.
	 */
	void compactIfWasteful() {
		if (regions <= 2 * regionsAfterCompaction + 4096) {
			return;
		}
		StoredPointers c = compactCopy();
		headByAllocation = c.headByAllocation;
		regionBegin = c.regionBegin;
		regionEnd = c.regionEnd;
		regionNext = c.regionNext;
		regionFirst = c.regionFirst;
		regionCount = c.regionCount;
		regions = c.regions;
		pointers = c.pointers;
		pointerCount = c.pointerCount;
		regionsAfterCompaction = regions;
	}

	/** @return the regions held (reachable or not yet dropped) */
	public int regionCount() {
		return regions;
	}

	/** @return the pointer words held */
	public int pointerWords() {
		return pointerCount;
	}

	/** @return the bytes its arrays take (the pointer tables of a live attach, as measured) */
	public long footprintBytes() {
		return 8L * (pointers.length + regionBegin.length + regionEnd.length) + 4L * (regionNext.length
				+ regionFirst.length + regionCount.length) + 16L * headByAllocation.size();
	}
	// i14-livebest: end

	/** @return the number of allocations holding stored pointers */
	public int allocationCount() {
		return headByAllocation.size();
	}
}
