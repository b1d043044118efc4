package org.phos.workbench.internal.speculation.core.engines;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.BlockAction;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;

/**
 * The blocks a caching allocator has handed out and not yet taken back, at a point of a trace, from the allocator's
 * own events ({@link EventKind#ALLOCATOR_BLOCK}): what {@code +alloc-blocks} narrows to. Live blocks never overlap, so
 * the block holding an address is the live block with the greatest start at or below it.
 * <ul>
 * <li>{@link BlockAction#ALLOC} adds {@code [address, address + size)} (the requested size) and drops any live block
 * it overlaps (one whose free the trace lacks: a dropped event);</li>
 * <li>{@link BlockAction#FREE_COMPLETED} ends the block that starts at its address. {@link BlockAction#FREE_REQUESTED}
 * does not: until the free completes, kernels of other streams may still use the block, and the allocator hands
 * none of it out again;</li>
 * <li>{@link BlockAction#SEGMENT_FREE} and {@link BlockAction#SEGMENT_UNMAP} end every block in their range, and so do
 * a device allocation's {@code Free} and a new {@code Alloc} (memory the driver hands out again is nobody's block).</li>
 * </ul>
 * It also knows which live device allocations are the allocator's own segments ({@link BlockAction#SEGMENT_ALLOC}),
 * for {@code +alloc-blocks-strict}.
 * Events are applied in order up to the launch being speculated; a launch before the last one applied starts again from
 * the first event. Not thread-safe; one instance per engine.
 */
final class AllocatorBlocks {

	private final Trace trace;
	private final boolean any;
	/** Live blocks: start to end, unsigned order. */
	private final TreeMap<Long, Long> live = new TreeMap<>(Long::compareUnsigned);
	/** Live device allocations of the trace: base to size. */
	private final Map<Long, Long> allocations = new HashMap<>();
	/** Bases of the live allocations the allocator reported as its own segments ({@code SEGMENT_ALLOC}). */
	private final Set<Long> segments = new HashSet<>();
	/** The first event not yet applied. */
	private int next;

	AllocatorBlocks(Trace trace) {
		this.trace = trace;
		this.any = trace.count(EventKind.ALLOCATOR_BLOCK) > 0;
	}

	/** Applies the events before {@code event} (from the first event again when it lies before those applied). */
	void advanceTo(int event) {
		if (!any) {
			return;
		}
		if (event < next) {
			live.clear();
			allocations.clear();
			segments.clear();
			next = 0;
		}
		for (int i = next; i < event; i++) {
			apply(i);
		}
		next = Math.max(next, event);
	}

	/** @return {start, end} of the live block holding {@code address}, else null */
	long @Nullable [] find(long address) {
		Map.Entry<Long, Long> e = live.floorEntry(address);
		if (e == null || Long.compareUnsigned(address, e.getValue()) >= 0) {
			return null;
		}
		return new long[] { e.getKey(), e.getValue() };
	}

	/**
	 * @param base an allocation's base
	 * @return whether the allocator reported it as one of its segments (and it is still live)
	 */
	boolean isSegment(long base) {
		return segments.contains(base);
	}

	/** @return how many blocks are live */
	int liveCount() {
		return live.size();
	}

	private void apply(int i) {
		EventKind kind = trace.kind(i);
		switch (kind) {
			case ALLOC -> {
				long a = trace.address(i);
				long size = trace.size(i);
				allocations.put(a, size);
				segments.remove(a);
				drop(a, a + size);
			}
			case FREE -> {
				long a = trace.address(i);
				segments.remove(a);
				Long size = allocations.remove(a);
				if (size != null) {
					drop(a, a + size);
				}
			}
			case ALLOCATOR_BLOCK -> {
				TraceEvent.AllocatorBlock b = trace.allocatorBlock(i);
				long a = b.address();
				long end = a + b.size();
				switch (b.action()) {
					case ALLOC -> {
						if (Long.compareUnsigned(end, a) > 0) {
							drop(a, end);
							live.put(a, end);
						}
					}
					case FREE_COMPLETED -> live.remove(a);
					case SEGMENT_ALLOC -> segments.add(a);
					case SEGMENT_FREE -> {
						segments.remove(a);
						drop(a, end);
					}
					case SEGMENT_UNMAP -> drop(a, end);
					default -> {
						// FREE_REQUESTED keeps the block (see above); a new segment holds no block yet
					}
				}
			}
			default -> {
				// launches, copies, syncs: nothing about blocks
			}
		}
	}

	/** Ends every live block overlapping {@code [from, to)}. */
	private void drop(long from, long to) {
		for (;;) {
			Map.Entry<Long, Long> e = live.lowerEntry(to);
			if (e == null || Long.compareUnsigned(e.getValue(), from) <= 0) {
				return;
			}
			live.remove(e.getKey());
		}
	}
}
