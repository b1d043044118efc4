package org.phos.workbench.speculation.core.validate;

import java.util.Arrays;

/**
 * A reusable set of byte addresses as half-open ranges: add ranges, then ask sizes, intersections and inclusion.
 * Ranges are sorted and merged lazily. Public so that the analysis layer judges one launch the way
 * {@link SpeculationValidator} judges a whole trace.
 */
public final class ByteRanges {

	private long[] begins = new long[8];
	private long[] ends = new long[8];
	private int count;
	private boolean normal = true;
	/** {@link #size()} once asked, until the next change; -1 when not known (asked 4 times per judged pair). */
	private long size;

	public void clear() {
		count = 0;
		normal = true;
		size = 0;
	}

	public boolean isEmpty() {
		return count == 0;
	}

	public void add(long begin, long end) {
		if (end <= begin) {
			return;
		}
		if (count == begins.length) {
			begins = Arrays.copyOf(begins, count * 2);
			ends = Arrays.copyOf(ends, count * 2);
		}
		begins[count] = begin;
		ends[count++] = end;
		size = -1;
		normal = count == 1 || (normal && begin > ends[count - 2]);
	}

	public void addAll(ByteRanges other) {
		for (int i = 0; i < other.count; i++) {
			add(other.begins[i], other.ends[i]);
		}
	}

	private void normalize() {
		if (normal) {
			return;
		}
		// insertion sort by begin: range lists per launch and allocation are short
		for (int i = 1; i < count; i++) {
			long b = begins[i];
			long e = ends[i];
			int j = i - 1;
			while (j >= 0 && begins[j] > b) {
				begins[j + 1] = begins[j];
				ends[j + 1] = ends[j];
				j--;
			}
			begins[j + 1] = b;
			ends[j + 1] = e;
		}
		int n = 0;
		for (int i = 0; i < count; i++) {
			if (n > 0 && begins[i] <= ends[n - 1]) {
				ends[n - 1] = Math.max(ends[n - 1], ends[i]);
			} else {
				begins[n] = begins[i];
				ends[n++] = ends[i];
			}
		}
		count = n;
		normal = true;
	}

	/** @return the number of bytes in the set */
	public long size() {
		if (size >= 0) {
			return size;
		}
		normalize();
		long total = 0;
		for (int i = 0; i < count; i++) {
			total += ends[i] - begins[i];
		}
		size = total;
		return total;
	}

	/** @return the number of bytes in both sets */
	public long intersection(ByteRanges other) {
		normalize();
		other.normalize();
		long total = 0;
		int i = 0;
		int j = 0;
		while (i < count && j < other.count) {
			long lo = Math.max(begins[i], other.begins[j]);
			long hi = Math.min(ends[i], other.ends[j]);
			if (hi > lo) {
				total += hi - lo;
			}
			if (ends[i] < other.ends[j]) {
				i++;
			} else {
				j++;
			}
		}
		return total;
	}

	/**
	 * Makes this set the union of two others without going through {@link #add} and a sort: both are merged in
	 * order, touching ranges joined, as {@link #add} then a normalisation would leave them.
	 *
	 * @param a one set (not this one)
	 * @param b the other (not this one)
	 */
	void setUnion(ByteRanges a, ByteRanges b) {
		a.normalize();
		b.normalize();
		int capacity = a.count + b.count;
		if (begins.length < capacity) {
			begins = new long[capacity];
			ends = new long[capacity];
		}
		int n = 0;
		int i = 0;
		int j = 0;
		while (i < a.count || j < b.count) {
			long begin;
			long end;
			if (j >= b.count || i < a.count && a.begins[i] <= b.begins[j]) {
				begin = a.begins[i];
				end = a.ends[i++];
			} else {
				begin = b.begins[j];
				end = b.ends[j++];
			}
			if (n > 0 && begin <= ends[n - 1]) {
				ends[n - 1] = Math.max(ends[n - 1], end);
			} else {
				begins[n] = begin;
				ends[n++] = end;
			}
		}
		count = n;
		normal = true;
		size = -1;
	}

	/** @return the bytes of {@code other} not in this set */
	public long missing(ByteRanges other) {
		return other.size() - intersection(other);
	}

	/** @return the ranges, sorted and merged */
	public java.util.List<org.phos.workbench.trace.core.AddressRange> ranges() {
		normalize();
		java.util.List<org.phos.workbench.trace.core.AddressRange> out = new java.util.ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			out.add(new org.phos.workbench.trace.core.AddressRange(begins[i], ends[i]));
		}
		return out;
	}
}
