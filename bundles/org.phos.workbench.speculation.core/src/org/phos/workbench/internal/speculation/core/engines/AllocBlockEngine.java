package org.phos.workbench.internal.speculation.core.engines;

import static org.phos.workbench.speculation.core.SpeculatedAccess.WHOLE_ALLOCATION;

import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.LaunchContext;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code X+alloc-blocks}: narrows the whole-allocation accesses another engine speculates through a pointer parameter
 * to the caching allocator's block that holds the pointer, as the allocator itself reported it
 * ({@link EventKind#ALLOCATOR_BLOCK} events, recorded with {@code PHOS_TORCH_ALLOC=1}). Where {@code +blocks} and
 * {@code +past-blocks} infer blocks from pointer values, this one knows them: the block live at the launch is the
 * last {@code ALLOC} at or below the pointer that no {@code FREE_COMPLETED}, segment free or device free has ended
 * since ({@link AllocatorBlocks}). Only events before the launch are used, so it could run live.
 * <ul>
 * <li>An access from parameter word {@code w} holding pointer {@code p} inside a device allocation becomes the whole
 * block holding {@code p}, {@code [block start, block start + requested size)}: a pointer into a block's middle (a
 * view) gets all of the block, since a kernel may index below its pointer.</li>
 * <li>Composed after {@code +blocks} ({@code best+alloc-blocks} = {@code ptx-flow/arg-scan+indirect+blocks+alloc-blocks})
 * it takes both bounds: {@code [p, min(block end, next pointer of the launch))}; where no block is known, the
 * {@code +blocks} range.</li>
 * <li>Accesses the base engine already bounded (PTX ranges), accesses through stored pointers ({@code +indirect}, no
 * parameter) and pointers in no live block (memory not from the allocator, or a trace without block events) pass
 * unchanged.</li>
 * </ul>
 * {@code X+alloc-blocks-strict} goes one step further: a pointer into one of the allocator's segments that lies in no
 * live block (the free space of the segment: typically a stale word in a parameter struct, such as a workspace freed
 * just before the launch) names nothing, where {@code +alloc-blocks} keeps the whole segment. It trusts that no kernel
 * reads or writes memory the allocator holds as free (a use after free in the program).
 * <p>
 * It can be wrong when a kernel reaches past the block its pointer names (a buffer and a neighbour handed over as one,
 * or the requested size smaller than what the kernel touches); {@code validate} then counts missed reads or writes and
 * unsafe launches. Nothing here looks at observed accesses.
 * <p>
 * Its state (the live blocks) is a function of the events before the launch only, rebuilt from the start when a
 * launch comes out of order, so it remembers nothing of earlier launches: {@link #memory()} is the base engine's.
 */
public final class AllocBlockEngine extends ModifierEngine {

	/** The suffix naming the modifier. */
	public static final String SUFFIX = "+alloc-blocks";
	/** The suffix naming the variant for which a pointer into a segment's free space names nothing. */
	public static final String STRICT_SUFFIX = "+alloc-blocks-strict";

	private final boolean launchBounds;
	private final boolean strict;
	private final AllocatorBlocks blocks;
	private final List<String> notes;
	/** The accesses the base engine gave for the launch, held until all its pointers are known. */
	private final HeldAccesses held = new HeldAccesses();
	private final HeldAccesses.Narrower narrower = this::narrow;

	/**
	 * @param base the engine whose accesses are narrowed
	 * @param trace the trace both speculate
	 * @param launchBounds whether the launch's other pointers bound a block too (composed after {@code +blocks}: then
	 *        {@code base} is the engine {@code +blocks} wrapped)
	 * @param strict whether a pointer into an allocator segment that lies in no live block names nothing
	 *        ({@code +alloc-blocks-strict}) instead of the whole segment
	 */
	public AllocBlockEngine(SpeculationEngine base, Trace trace, boolean launchBounds, boolean strict) {
		super(base, (launchBounds ? BlockEngine.SUFFIX : "") + (strict ? STRICT_SUFFIX : SUFFIX));
		this.launchBounds = launchBounds;
		this.strict = strict;
		this.blocks = new AllocatorBlocks(trace);
		List<String> n = new ArrayList<>(base.notes());
		if (!hasAllocatorEvents(trace)) {
			n.add(SUFFIX + ": the trace has no allocator block events (record with PHOS_TORCH_ALLOC=1), so it narrows "
					+ (launchBounds ? "as +blocks alone" : "nothing"));
		}
		this.notes = List.copyOf(n);
	}

	/**
	 * Whether {@code trace} has the allocator's block events, or will have them: its recorder was asked for them
	 * (the header says so from the start, so a live trace that has none yet counts).
	 */
	public static boolean hasAllocatorEvents(Trace trace) {
		if (trace.count(EventKind.ALLOCATOR_BLOCK) > 0) {
			return true;
		}
		try {
			return !trace.header().allocatorEvents().isEmpty();
		} catch (IllegalStateException notYet) {
			return true; // a live trace before its first events (no header yet): it may have them, and without any
							// the modifier changes nothing
		}
	}

	@Override
	public List<String> notes() {
		return notes;
	}

	@Override
	public boolean speculate(LaunchContext launch, AccessSink sink) {
		blocks.advanceTo(launch.event());
		held.clear();
		boolean covered = base.speculate(launch, held);
		if (launchBounds) {
			held.takeWords(launch);
		}
		held.narrowEach(launch, sink, narrower);
		return covered;
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
		long[] b = blocks.find(pointer);
		if (b == null && strict && blocks.isSegment(allocationBase)) {
			return; // free space of the allocator's segment: nothing there is the kernel's (a stale word, never read)
		}
		long from;
		long to;
		if (launchBounds) {
			from = pointer;
			to = BlockEngine.nextPointer(pointer, end, held.words(), held.wordCount());
			if (b != null && Long.compareUnsigned(b[1], to) < 0) {
				to = b[1];
			}
		} else if (b != null) {
			from = b[0];
			to = b[1];
		} else {
			sink.access(id, allocationBase, begin, end, mode, param, offset);
			return;
		}
		// a block lies inside its segment; clip anyway, so that an access never leaves the allocation
		if (Long.compareUnsigned(from, begin) < 0) {
			from = begin;
		}
		if (Long.compareUnsigned(to, end) > 0) {
			to = end;
		}
		if (from == begin && to == end) { // the block is the whole allocation: say so
			sink.access(id, allocationBase, begin, end, mode, param, offset);
			return;
		}
		sink.access(id, allocationBase, from, to, mode & ~WHOLE_ALLOCATION, param, offset);
	}
}
