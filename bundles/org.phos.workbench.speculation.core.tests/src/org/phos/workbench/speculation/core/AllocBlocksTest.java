package org.phos.workbench.speculation.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.speculation.core.TraceFixture.words;
import static org.phos.workbench.trace.core.BlockAction.ALLOC;
import static org.phos.workbench.trace.core.BlockAction.FREE_COMPLETED;
import static org.phos.workbench.trace.core.BlockAction.FREE_REQUESTED;
import static org.phos.workbench.trace.core.BlockAction.SEGMENT_ALLOC;
import static org.phos.workbench.trace.core.BlockAction.SEGMENT_FREE;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.speculation.core.validate.AccessVerdict;
import org.phos.workbench.speculation.core.validate.Accuracy;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code +alloc-blocks} (i15-alloc) on hand-made traces with the caching allocator's own block events: the block live
 * at the launch, re-use, a free then a larger re-allocation, a pointer into a block's middle, two tensors of one
 * segment, misses that validate must report.
 */
class AllocBlocksTest {

	static final long S = 0x7f00_0000_0000L; // a 2 MiB segment
	static final long SEG = 2L << 20;
	static final long X = 0x7f00_1000_0000L; // a plain cudaMalloc of 4 KiB, no blocks
	static final long K = 1024;

	private static void assertRange(SpeculatedAccess a, long begin, long end, int offset) {
		assertEquals(begin, a.begin(), a.toString());
		assertEquals(end, a.end(), a.toString());
		assertEquals(offset, a.paramOffset(), a.toString());
		assertFalse(a.wholeAllocation(), a.toString());
	}

	/** A segment with two tensors, A (4 KiB at its start) and B (1000 bytes after A), and X of its own. */
	private static TraceFixture twoTensors() {
		TraceFixture f = TraceFixture.create();
		f.alloc(S, SEG);
		f.block(SEGMENT_ALLOC, S, SEG);
		f.block(ALLOC, S, 4 * K);
		f.block(ALLOC, S + 4 * K, 1000);
		f.alloc(X, 4 * K);
		f.function(1, 0, "k", 0, 24);
		return f;
	}

	@Test
	void aPointerIntoABlockGetsTheWholeBlockAndTwoTensorsOfOneSegmentStayApart() {
		TraceFixture f = twoTensors();
		// a view into A's middle, B, and X (no blocks: unchanged)
		f.launch(1, words(S + 100, S + 4 * K, X + 8));
		Trace t = f.build();
		List<SpeculatedAccess> a = TraceFixture.speculate(t, "arg-scan+alloc-blocks").get(0).accesses();
		assertEquals(3, a.size());
		assertRange(a.get(0), S, S + 4 * K, 0); // all of A: a kernel may index below a view's pointer
		assertRange(a.get(1), S + 4 * K, S + 4 * K + 1000, 8); // B's requested size, not the segment
		assertEquals(X, a.get(2).begin());
		assertEquals(X + 4 * K, a.get(2).end());
		assertTrue(a.get(2).wholeAllocation(), "no block known: unchanged " + a.get(2));
		// after +blocks: both bounds, [p, min(block end, next pointer))
		List<SpeculatedAccess> both = TraceFixture.speculate(t, "arg-scan+blocks+alloc-blocks").get(0).accesses();
		assertRange(both.get(0), S + 100, S + 4 * K, 0);
		assertRange(both.get(1), S + 4 * K, S + 4 * K + 1000, 8);
		// +blocks alone: B runs to the segment's end
		assertRange(TraceFixture.speculate(t, "arg-scan+blocks").get(0).accesses().get(1), S + 4 * K, S + SEG, 8);
	}

	@Test
	void aBlockFreedThenReallocatedLargerIsFollowedAndValidateFindsNoMiss() {
		TraceFixture f = twoTensors();
		f.function(3, 0, "fill", 0, 8);
		int l0 = f.launch(1, words(S, S + 4 * K, 0));
		f.block(FREE_REQUESTED, S, 4 * K);
		f.block(FREE_COMPLETED, S, 4 * K);
		f.block(FREE_REQUESTED, S + 4 * K, 1000);
		f.block(FREE_COMPLETED, S + 4 * K, 1000);
		f.block(ALLOC, S, 512 * K); // merged and handed out larger: over both old tensors
		int l1 = f.launch(3, words(S));
		f.observed(l0, S, new long[] { S, S + 4 * K }, new long[] { S + 4 * K, S + 4 * K + 1000 });
		f.observed(l1, S, new long[0], new long[] { S, S + 512 * K });
		Trace t = f.build();
		List<SpeculatedAccess> fill = TraceFixture.speculate(t, "arg-scan+alloc-blocks").get(1).accesses();
		assertRange(fill.get(0), S, S + 512 * K, 0);
		List<String> verdicts = new ArrayList<>();
		ValidationReport r = SpeculationValidator.validate(t,
				List.of(EngineRegistry.create("arg-scan+alloc-blocks", t), EngineRegistry.create("arg-scan+past-blocks", t)),
				null, 1, null, (engine, v) -> verdicts.add(engine + " " + v.launchEvent() + " " + v.verdict()));
		Accuracy alloc = r.engines().get(0).total();
		assertEquals(0, alloc.unsafeLaunches(), verdicts::toString);
		assertEquals(1.0, alloc.writeRecall());
		assertEquals(4 * K + 1000 + 512 * K, alloc.speculatedBytes(), "nothing beyond the blocks: " + alloc);
		// +past-blocks, which only infers blocks, bounds the re-used block at the old boundary S + 4 KiB
		assertTrue(verdicts.contains("arg-scan+past-blocks " + l1 + " " + AccessVerdict.MISSED_WRITE), verdicts::toString);
	}

	@Test
	void aFreeRequestedButNotCompletedBlockStaysLiveAndASegmentFreeEndsAll() {
		TraceFixture f = twoTensors();
		f.block(FREE_REQUESTED, S, 4 * K); // still in use on another stream (record_stream)
		f.launch(1, words(S, 0, 0));
		f.block(FREE_COMPLETED, S, 4 * K);
		f.launch(1, words(S, 0, 0)); // in no live block now: unchanged
		f.block(SEGMENT_FREE, S, SEG);
		f.free(S);
		f.alloc(S, SEG); // the driver hands the same address out again, to someone else
		f.launch(1, words(S + 4 * K, 0, 0));
		Trace t = f.build();
		List<LaunchSpeculation> l = TraceFixture.speculate(t, "arg-scan+alloc-blocks");
		assertRange(l.get(0).accesses().get(0), S, S + 4 * K, 0);
		assertTrue(l.get(1).accesses().get(0).wholeAllocation(), l.get(1).accesses().toString());
		assertTrue(l.get(2).accesses().get(0).wholeAllocation(), "B died with its segment: " + l.get(2).accesses());
	}

	@Test
	void aKernelWritingPastItsBlockIsAMissedWriteInValidateNeverHidden() {
		TraceFixture f = twoTensors();
		int l = f.launch(1, words(S, 0, 0));
		// the kernel writes A and 1 KiB of B through A's pointer (a buffer and a neighbour handed over as one)
		f.observed(l, S, new long[0], new long[] { S, S + 5 * K });
		Trace t = f.build();
		List<String> verdicts = new ArrayList<>();
		ValidationReport r = SpeculationValidator.validate(t, List.of(EngineRegistry.create("arg-scan+alloc-blocks", t)),
				null, 1, null, (engine, v) -> verdicts.add(v.launchEvent() + " " + v.verdict()));
		Accuracy a = r.engines().get(0).total();
		assertEquals(1, a.unsafeLaunches());
		assertEquals(K, a.writtenBytes() - a.writtenBytesRecalled());
		assertEquals(List.of(l + " " + AccessVerdict.MISSED_WRITE), verdicts);
	}

	@Test
	void theSameEngineGivesTheSameAnswerWhenItsLaunchesComeAgainFromTheStart() {
		TraceFixture f = twoTensors();
		f.launch(1, words(S + 100, 0, 0));
		f.block(FREE_COMPLETED, S, 4 * K);
		f.block(ALLOC, S, 8 * K);
		f.launch(1, words(S + 100, 0, 0));
		Trace t = f.build();
		SpeculationEngine e = EngineRegistry.create("arg-scan+alloc-blocks", t);
		List<List<SpeculatedAccess>> first = new ArrayList<>();
		List<List<SpeculatedAccess>> again = new ArrayList<>();
		TraceSpeculator.forEngines(t, List.of(e)).run(null, launch -> first.add(LaunchSpeculation.collect(e, launch).accesses()));
		TraceSpeculator.forEngines(t, List.of(e)).run(null, launch -> again.add(LaunchSpeculation.collect(e, launch).accesses()));
		assertEquals(first, again);
		assertRange(first.get(0).get(0), S, S + 4 * K, 0);
		assertRange(first.get(1).get(0), S, S + 8 * K, 0);
	}

	@Test
	void strictNamesNothingInASegmentsFreeSpaceAndValidateCatchesAWriteToFreedMemory() {
		TraceFixture f = twoTensors();
		f.block(FREE_REQUESTED, S, 4 * K);
		f.block(FREE_COMPLETED, S, 4 * K);
		// a stale word to A (freed) and X (no allocator there): A names nothing, X stays whole
		int l = f.launch(1, words(S, X, 0));
		f.observed(l, X, new long[] { X, X + 8 }, new long[0]);
		Trace t = f.build();
		List<SpeculatedAccess> strict = TraceFixture.speculate(t, "arg-scan+alloc-blocks-strict").get(0).accesses();
		assertEquals(1, strict.size(), strict.toString());
		assertEquals(X, strict.get(0).begin());
		assertTrue(strict.get(0).wholeAllocation());
		assertEquals(2, TraceFixture.speculate(t, "arg-scan+alloc-blocks").get(0).accesses().size());
		Accuracy ok = SpeculationValidator.validate(t, List.of(EngineRegistry.create("arg-scan+alloc-blocks-strict", t)),
				null, 1, null, null).engines().get(0).total();
		assertEquals(0, ok.unsafeLaunches());

		// the same launch, but the kernel does write A's freed bytes: the strict rule misses it, and validate says so
		TraceFixture g = twoTensors();
		g.block(FREE_REQUESTED, S, 4 * K);
		g.block(FREE_COMPLETED, S, 4 * K);
		int m = g.launch(1, words(S, X, 0));
		g.observed(m, S, new long[0], new long[] { S, S + 64 });
		Trace u = g.build();
		List<String> verdicts = new ArrayList<>();
		Accuracy missed = SpeculationValidator.validate(u,
				List.of(EngineRegistry.create("arg-scan+alloc-blocks-strict", u), EngineRegistry.create("arg-scan+alloc-blocks", u)),
				null, 1, null, (engine, v) -> verdicts.add(engine + " " + v.launchEvent() + " " + v.verdict() + " " + v))
				.engines().get(0).total();
		assertEquals(1, missed.unsafeLaunches(), verdicts::toString);
		assertTrue(verdicts.get(0).startsWith("arg-scan+alloc-blocks-strict " + m + " MISSED_WRITE"), verdicts::toString);
		assertEquals(0, SpeculationValidator.validate(u, List.of(EngineRegistry.create("arg-scan+alloc-blocks", u)), null, 1,
				null, null).engines().get(0).total().unsafeLaunches(), "the plain rule keeps the whole segment");
	}

	@Test
	void catalogNamesNotesAndMemory() {
		Trace t = twoTensors().build();
		assertEquals("ptx-flow/arg-scan+indirect+blocks+alloc-blocks", EngineRegistry.create("best+alloc-blocks", t).name());
		assertEquals("ptx-flow/arg-scan+indirect+alloc-blocks",
				EngineRegistry.create("ptx-flow/arg-scan+indirect+alloc-blocks", t).name());
		assertEquals("arg-scan+alloc-blocks+indirect", EngineRegistry.create("arg-scan+alloc-blocks+indirect", t).name());
		assertEquals("ptx-flow/arg-scan+indirect+blocks", EngineRegistry.create("best", t).name(), "best unchanged");
		assertEquals(SpeculationEngine.Memory.NONE, EngineRegistry.create("arg-scan+alloc-blocks", t).memory());
		assertTrue(EngineRegistry.canCreate("phos+alloc-blocks"));
		assertEquals("ptx-flow/arg-scan+indirect+blocks+alloc-blocks-strict",
				EngineRegistry.create("best+alloc-blocks-strict", t).name());
		assertEquals("arg-scan+alloc-blocks-strict", EngineRegistry.create("arg-scan+alloc-blocks-strict", t).name());
		assertTrue(EngineRegistry.create("arg-scan+alloc-blocks", t).notes().isEmpty());
		Trace none = TraceFixture.create().build();
		assertTrue(EngineRegistry.create("arg-scan+alloc-blocks", none).notes().get(0).contains("PHOS_TORCH_ALLOC=1"));
	}
}
