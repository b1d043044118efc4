package org.phos.workbench.internal.speculation.core.engines;

import static org.phos.workbench.speculation.core.SpeculatedAccess.WHOLE_ALLOCATION;


import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.LaunchContext;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;

/**
 * Narrows the whole-allocation accesses another engine speculates through a pointer parameter to the block of a
 * caching allocator's segment (PyTorch, CuPy, Triton: tensors carved out of 2-64 MiB {@code cudaMalloc} segments)
 * that the pointer names. An access from parameter word {@code w} holding pointer {@code p} becomes
 * {@code [p, block end)}; accesses the base engine already bounded (PTX ranges) and accesses without a parameter
 * (through stored pointers, {@code +indirect}) pass unchanged. Two modifiers, by what bounds a block:
 * <ul>
 * <li>{@code +blocks}: the other pointers of the same launch. Every parameter word the base engine takes for a
 * pointer into the same allocation above {@code p} starts something that is live now, so the block ends at the
 * nearest one, else at the allocation's end (words the base engine does not take for pointers do not count: it
 * would not cover what lies behind them). It remembers nothing ({@link Memory} of the base engine), and can be wrong only when
 * a kernel writes through {@code p} past the start of another argument (two views of one tensor).</li>
 * <li>{@code +past-blocks}: also the pointer values of every earlier launch and the extents of earlier copies and
 * fills, kept per segment by {@link SegmentBlocks}. More precise, but the caching allocator frees and merges blocks
 * without any event in the trace, so a boundary seen earlier can lie inside a block handed out later: on PyTorch's
 * samples this misses writes (a workspace freed after a convolution is re-used as a larger activation a few
 * launches later). It is kept to measure that, not as a default.</li>
 * </ul>
 * Neither looks at observed accesses, and both use only what is known before the launch runs, so either could run
 * live. Where they are wrong the speculation misses bytes and {@code validate} reports missed reads or writes.
 */
public final class BlockEngine extends ModifierEngine {

	/** The suffix naming the modifier that bounds blocks by the launch's own pointers. */
	public static final String SUFFIX = "+blocks";
	/** The suffix naming the modifier that also uses the pointers and copies of earlier launches. */
	public static final String PAST_SUFFIX = "+past-blocks";

	private final Trace trace;
	/** The segments' boundaries seen so far ({@code +past-blocks}), else null. */
	private final @Nullable SegmentBlocks past;
	/** The first event not yet read into {@link #past}. */
	private int nextEvent;
	/** The accesses the base engine gave for the launch, held until all its pointers are known. */
	private final HeldAccesses held = new HeldAccesses();
	private final HeldAccesses.Narrower narrower = this::narrow;

	/**
	 * @param base the engine whose accesses are narrowed
	 * @param trace the trace both speculate
	 * @param usePast whether earlier launches and copies bound blocks too ({@code +past-blocks})
	 */
	public BlockEngine(SpeculationEngine base, Trace trace, boolean usePast) {
		super(base, usePast ? PAST_SUFFIX : SUFFIX);
		this.trace = trace;
		this.past = usePast ? new SegmentBlocks() : null;
	}

	// i15-alloc: begin
	/** @return the engine whose accesses it narrows ({@code +alloc-blocks} composes with {@code +blocks} through it) */
	public SpeculationEngine base() {
		return base;
	}

	/** @return whether earlier launches bound blocks too ({@code +past-blocks}) */
	public boolean usesPast() {
		return past != null;
	}
	// i15-alloc: end

	@Override
	public Memory memory() {
		return past != null ? Memory.EVERY_LAUNCH : base.memory();
	}

	@Override
	public boolean speculate(LaunchContext launch, AccessSink sink) {
		int event = launch.event();
		SegmentBlocks blocks = past;
		if (blocks != null) {
			for (int i = nextEvent; i < event; i++) {
				observe(trace, i, blocks);
			}
			nextEvent = Math.max(nextEvent, event);
		}
		held.clear();
		boolean covered = base.speculate(launch, held);
		held.takeWords(launch); // the pointers the base engine took: each starts something the launch uses
		held.narrowEach(launch, sink, narrower);
		return covered;
	}

	/**
	 * What one event tells {@code +past-blocks}: allocations and frees delimit segments, launch parameter words are
	 * pointers, copies and fills are extents.
	 *
	 * @param trace the trace
	 * @param i an event index
	 * @param blocks the inference to feed
	 */
	public static void observe(Trace trace, int i, SegmentBlocks blocks) {
		EventKind kind = trace.kind(i);
		switch (kind) {
			case ALLOC -> blocks.allocated(trace.address(i), trace.size(i));
			case FREE -> blocks.freed(trace.address(i));
			case LAUNCH -> {
				int length = trace.paramLength(i);
				for (int offset = 0; offset + 8 <= length; offset += 8) {
					long value = trace.paramLong(i, offset);
					if (value != 0) {
						blocks.pointerSeen(value, i);
					}
				}
			}
			case MEMCPY -> {
				long n = trace.bytes(i);
				blocks.extentSeen(trace.dst(i), trace.dst(i) + n, i);
				blocks.extentSeen(trace.src(i), trace.src(i) + n, i);
			}
			case MEMSET -> blocks.extentSeen(trace.dst(i), trace.dst(i) + trace.bytes(i), i);
			default -> {
				// syncs and graph launches say nothing about blocks
			}
		}
	}

	/**
	 * @param pointer a pointer of the launch
	 * @param end the end of its allocation
	 * @param words the launch's non-zero parameter words
	 * @param count how many
	 * @return the nearest word in {@code (pointer, end)}, else {@code end}
	 */
	public static long nextPointer(long pointer, long end, long[] words, int count) {
		long next = end;
		for (int i = 0; i < count; i++) {
			long w = words[i];
			if (Long.compareUnsigned(w, pointer) > 0 && Long.compareUnsigned(w, next) < 0) {
				next = w;
			}
		}
		return next;
	}

	private void narrow(LaunchContext context, AccessSink sink, long id, long allocationBase, long begin, long end,
			int mode, int param, int offset) {
		if ((mode & WHOLE_ALLOCATION) == 0 || offset < 0) {
			sink.access(id, allocationBase, begin, end, mode, param, offset);
			return;
		}
		long pointer = context.paramLong(offset);
		if (Long.compareUnsigned(pointer, begin) < 0 || Long.compareUnsigned(pointer, end) >= 0) {
			sink.access(id, allocationBase, begin, end, mode, param, offset);
			return;
		}
		long blockEnd = nextPointer(pointer, end, held.words(), held.wordCount());
		SegmentBlocks blocks = past;
		if (blocks != null) {
			blockEnd = blocks.blockEnd(pointer, blockEnd);
		}
		if (pointer == begin && blockEnd == end) { // the block is the whole allocation: say so
			sink.access(id, allocationBase, begin, end, mode, param, offset);
			return;
		}
		sink.access(id, allocationBase, pointer, blockEnd, mode & ~WHOLE_ALLOCATION, param, offset);
	}
}
