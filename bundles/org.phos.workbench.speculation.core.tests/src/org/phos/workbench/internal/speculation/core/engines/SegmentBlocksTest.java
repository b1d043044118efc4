package org.phos.workbench.internal.speculation.core.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The block inference of {@code +past-blocks} on hand-made histories: interior pointers partition a segment, copies
 * give extents, frees forget, and a block re-used larger after the allocator merged it is bounded only by what was
 * seen since.
 */
class SegmentBlocksTest {

	static final long S = 0x7f00_0000_0000L;
	static final long MIB = 1 << 20;
	static final long SEG = 2 * MIB;

	@Test
	void interiorPointersSeenTogetherPartitionTheSegment() {
		SegmentBlocks b = new SegmentBlocks();
		b.allocated(S, SEG);
		// one launch (event 1) names three tensors of the segment
		b.pointerSeen(S, 1);
		b.pointerSeen(S + 512, 1);
		b.pointerSeen(S + 4096, 1);
		assertEquals(S + 512, b.blockEnd(S, S + SEG));
		assertEquals(S + 4096, b.blockEnd(S + 512, S + SEG));
		assertEquals(S + SEG, b.blockEnd(S + 4096, S + SEG), "the last block runs to the segment's end");
		assertEquals(S + SEG, b.blockEnd(S + 100, S + SEG), "a pointer never seen bounds nothing");
		assertEquals(S + MIB, b.blockEnd(S + 4096, S + MIB), "the caller's end bounds the answer");
		assertEquals(2, b.boundaryCount());
	}

	@Test
	void aBoundarySeenBeforeThePointerWasLastSeenDoesNotBoundIt() {
		SegmentBlocks b = new SegmentBlocks();
		b.allocated(S, SEG);
		b.pointerSeen(S + 4096, 1); // some tensor at +4 KiB, seen at event 1
		b.pointerSeen(S, 5); // the block at the base, first seen at event 5: maybe carved after +4 KiB was freed
		assertEquals(S + SEG, b.blockEnd(S, S + SEG));
		b.pointerSeen(S + 4096, 7); // both live after event 5
		assertEquals(S + 4096, b.blockEnd(S, S + SEG));
	}

	@Test
	void copiesGiveExtentsAndDropBoundariesInsideThem() {
		SegmentBlocks b = new SegmentBlocks();
		b.allocated(S, SEG);
		b.pointerSeen(S + 8192, 1);
		b.pointerSeen(S + 8192 + 512, 1); // a view into the tensor at +8 KiB
		// a copy moves [+8 KiB, +8 KiB + 4000) whole: the view's boundary inside it goes, its end comes
		b.extentSeen(S + 8192, S + 8192 + 4000, 2);
		assertEquals(S + 8192 + 4000, b.blockEnd(S + 8192, S + SEG));
		assertEquals(2, b.boundaryCount());
		// a copy to the segment's start
		b.extentSeen(S, S + 100, 3);
		assertEquals(S + 100, b.blockEnd(S, S + SEG));
	}

	@Test
	void aFreedSegmentForgetsItsBoundariesAndANewOneAtTheSameBaseStartsEmpty() {
		SegmentBlocks b = new SegmentBlocks();
		b.allocated(S, SEG);
		b.pointerSeen(S, 1);
		b.pointerSeen(S + 512, 1);
		b.freed(S);
		assertEquals(0, b.boundaryCount());
		b.pointerSeen(S + 512, 2); // outside every segment now: ignored
		b.allocated(S, SEG);
		b.pointerSeen(S, 3);
		assertEquals(S + SEG, b.blockEnd(S, S + SEG));
	}

	@Test
	void aBlockReusedLargerAfterTheAllocatorMergedItIsMissedWhenTheOldBoundaryLooksLive() {
		// The caching allocator's frees and merges leave no event: [S, S+256K) and [S+256K, S+512K) are live
		// together (event 1), both are freed, and [S, S+1M) is handed out and named at event 3. The only evidence,
		// the old boundary, was seen together with S (event 1), and S is named again (event 3) with nothing newer:
		// the old boundary still bounds the new, larger block. The engine test shows validate reporting it.
		SegmentBlocks b = new SegmentBlocks();
		b.allocated(S, SEG);
		b.pointerSeen(S, 1);
		b.pointerSeen(S + 256 * 1024, 1);
		assertEquals(S + 256 * 1024, b.blockEnd(S, S + SEG));
		// a launch at event 3 passes S alone: S was last seen at event 1, like the old boundary
		assertEquals(S + 256 * 1024, b.blockEnd(S, S + SEG), "stale, and nothing in the trace says so");
		b.pointerSeen(S, 3);
		assertEquals(S + SEG, b.blockEnd(S, S + SEG), "after S is seen again, the older boundary no longer bounds it");
	}
}
