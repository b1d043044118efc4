package org.phos.workbench.trace.core;

/**
 * Arithmetic on unsigned 64-bit trace values (sizes, times, counts) held in {@code long}s: comparisons in unsigned
 * order and sums that saturate at 2^64 - 1 instead of wrapping, so that a total never hides a huge value.
 */
public final class Unsigned {
	/** 2^64 - 1, what a saturated sum reads as. */
	public static final long MAX = -1L;

	private Unsigned() {
	}

	/** {@code a + b}, or {@link #MAX} when the sum does not fit in 64 unsigned bits. */
	public static long add(long a, long b) {
		long s = a + b;
		return Long.compareUnsigned(s, a) < 0 ? MAX : s;
	}

	public static long min(long a, long b) {
		return Long.compareUnsigned(a, b) <= 0 ? a : b;
	}

	public static long max(long a, long b) {
		return Long.compareUnsigned(a, b) >= 0 ? a : b;
	}

	/** {@code end - start} when {@code end >= start} (unsigned), else 0. */
	public static long span(long start, long end) {
		return Long.compareUnsigned(end, start) >= 0 ? end - start : 0;
	}

	/**
	 * A 128-bit unsigned running total that can go up and down (live bytes: allocations add, frees subtract),
	 * exact for any sequence of u64 values; {@link #saturated()} reads it back as a u64.
	 */
	public static final class Total {
		private long hi;
		private long lo;

		public void add(long v) {
			long s = lo + v;
			if (Long.compareUnsigned(s, lo) < 0) {
				hi++;
			}
			lo = s;
		}

		public void subtract(long v) {
			if (Long.compareUnsigned(lo, v) < 0) {
				hi--;
			}
			lo -= v;
		}

		/** Whether this total is above {@code other}. */
		public boolean above(Total other) {
			return hi != other.hi ? hi > other.hi : Long.compareUnsigned(lo, other.lo) > 0;
		}

		public void set(Total other) {
			hi = other.hi;
			lo = other.lo;
		}

		/** The total as a u64, {@link #MAX} when it exceeds 2^64 - 1 (0 when below 0, which frees cannot cause). */
		public long saturated() {
			return hi > 0 ? MAX : hi < 0 ? 0 : lo;
		}
	}
}
