package org.phos.workbench.internal.speculation.core.engines;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

import org.eclipse.jdt.annotation.Nullable;

/**
 * The blocks a caching allocator (PyTorch's, CuPy's, Triton's through PyTorch) carves out of its segments, as far as
 * the past of a trace shows them. A segment is one device allocation the trace records ({@code cudaMalloc} of 2-64
 * MiB); the allocator hands out pointers into its middle, which the trace never names. What the trace does show are
 * the pointer values themselves: every address a launch parameter or a copy names inside a segment is the start of
 * something there (a block, or a view into one). The sorted set of those <em>boundaries</em> partitions each
 * segment, and the block a pointer {@code p} names is taken as {@code [p, next boundary above p)}, or up to the
 * segment's end when no boundary lies above.
 * <p>
 * This is an inference, not knowledge, and it can be wrong in two ways that make a speculation miss bytes:
 * <ul>
 * <li>a view: a pointer into the middle of a tensor (a slice, a column) seen earlier puts a boundary inside the
 * tensor, and a later kernel given the tensor's start that touches all of it is bounded at the view;</li>
 * <li>reuse: the allocator frees blocks, merges neighbours and hands out a larger block over old boundaries (the
 * trace records no event for it).</li>
 * </ul>
 * Both show up as missed writes in {@code validate}; nothing here looks at observed accesses. Only the past is used
 * (the events before and including the launch being speculated), so it could run live.
 * <p>
 * Copies give more than a start: a copy of {@code n} bytes from or to {@code p} says that {@code [p, p + n)} is one
 * piece of memory at that time, so boundaries strictly inside it are dropped (a view seen earlier cannot cut a block
 * a copy later moved whole), and {@code p + n} becomes a boundary. Freeing a segment drops its boundaries.
 * <p>
 * Not thread-safe; one instance per walk.
 */
public final class SegmentBlocks {

	/**
	 * One device allocation, the sorted boundaries seen strictly inside it and when each was seen last (an event
	 * index; the base's own in {@code baseSeen}).
	 */
	private static final class Segment {
		final long base;
		final long end;
		long[] bounds = new long[8];
		long[] seen = new long[8];
		int count;
		long baseSeen = -1;

		Segment(long base, long end) {
			this.base = base;
			this.end = end;
		}

		void add(long address, long when) {
			if (address == base) {
				baseSeen = when;
				return;
			}
			int at = Arrays.binarySearch(bounds, 0, count, address);
			if (at >= 0) {
				seen[at] = when;
				return;
			}
			int insert = -at - 1;
			if (count == bounds.length) {
				bounds = Arrays.copyOf(bounds, count * 2);
				seen = Arrays.copyOf(seen, count * 2);
			}
			System.arraycopy(bounds, insert, bounds, insert + 1, count - insert);
			System.arraycopy(seen, insert, seen, insert + 1, count - insert);
			bounds[insert] = address;
			seen[insert] = when;
			count++;
		}

		/** Drops the boundaries in {@code (from, to)}. */
		void clear(long from, long to) {
			int lo = Arrays.binarySearch(bounds, 0, count, from);
			lo = lo >= 0 ? lo + 1 : -lo - 1;
			int hi = Arrays.binarySearch(bounds, 0, count, to);
			hi = hi >= 0 ? hi : -hi - 1;
			if (hi > lo) {
				System.arraycopy(bounds, hi, bounds, lo, count - hi);
				System.arraycopy(seen, hi, seen, lo, count - hi);
				count -= hi - lo;
			}
		}

		/**
		 * The first boundary above {@code pointer} seen no earlier than {@code pointer} itself was last seen: both
		 * were live together then, after the block at {@code pointer} was handed out. A pointer never seen before
		 * is a block the allocator may just have carved from merged free blocks: no boundary of the past bounds it.
		 */
		long next(long pointer) {
			int at = Arrays.binarySearch(bounds, 0, count, pointer);
			long since = pointer == base ? baseSeen : at >= 0 ? seen[at] : -1;
			if (since < 0) {
				return end;
			}
			for (int i = at >= 0 ? at + 1 : -at - 1; i < count; i++) {
				if (seen[i] >= since) {
					return bounds[i];
				}
			}
			return end;
		}
	}

	private final TreeMap<Long, Segment> byBase = new TreeMap<>();
	/** The segment found last, so that runs of pointers into one segment skip the tree. */
	private @Nullable Segment last;

	/**
	 * A segment was allocated (replaces one at the same base, whose boundaries are forgotten).
	 *
	 * @param base its first byte
	 * @param size its size in bytes
	 */
	public void allocated(long base, long size) {
		Segment s = new Segment(base, base + size);
		byBase.put(base, s);
		last = null;
	}

	/** A segment was freed: its boundaries are forgotten. */
	public void freed(long base) {
		byBase.remove(base);
		last = null;
	}

	private @Nullable Segment segment(long address) {
		Segment s = last;
		if (s != null && address >= s.base && address < s.end) {
			return s;
		}
		Map.Entry<Long, Segment> e = byBase.floorEntry(address);
		if (e == null || address >= e.getValue().end) {
			return null;
		}
		last = e.getValue();
		return last;
	}

	/**
	 * A pointer value was seen (a launch parameter word, the start of a copy or fill): when it lies strictly inside
	 * a live segment, it becomes a boundary there.
	 *
	 * @param address the value
	 * @param when the event that showed it (event indices grow along the trace)
	 */
	public void pointerSeen(long address, long when) {
		Segment s = segment(address);
		if (s != null) {
			s.add(address, when);
		}
	}

	/**
	 * A copy or fill moved {@code [begin, end)} as one piece: boundaries strictly inside are dropped, {@code begin}
	 * and {@code end} become boundaries.
	 *
	 * @param begin first byte
	 * @param end past the last
	 * @param when the event that showed it
	 */
	public void extentSeen(long begin, long end, long when) {
		Segment s = segment(begin);
		if (s == null || end <= begin) {
			return;
		}
		long to = Math.min(end, s.end);
		s.clear(begin, to);
		s.add(begin, when);
		if (to < s.end) {
			s.add(to, when);
		}
	}

	/**
	 * @param pointer an address inside a live segment
	 * @param segmentEnd the end of the allocation holding it, as the caller knows it (bounds the answer)
	 * @return the end of the block {@code pointer} names: the first boundary above it, else {@code segmentEnd}
	 */
	public long blockEnd(long pointer, long segmentEnd) {
		Segment s = segment(pointer);
		if (s == null) {
			return segmentEnd;
		}
		return Math.min(segmentEnd, s.next(pointer));
	}

	/** @return the number of boundaries held, over all live segments (for tests and notes) */
	public int boundaryCount() {
		int n = 0;
		for (Segment s : byBase.values()) {
			n += s.count;
		}
		return n;
	}
}
