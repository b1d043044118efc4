package org.phos.workbench.speculation.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.speculation.core.TraceFixture.words;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.speculation.core.validate.AccessVerdict;
import org.phos.workbench.speculation.core.validate.Accuracy;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.trace.core.Trace;

/** {@code +blocks} and {@code +past-blocks} on traces shaped like a caching allocator's, truth written by hand. */
class BlocksTest {

	static final long S = 0x7f00_0000_0000L; // a 2 MiB segment
	static final long SEG = 2L << 20;
	static final long X = 0x7f00_1000_0000L; // a 4 KiB allocation of its own
	static final long K256 = 256 * 1024;

	private static void assertRange(SpeculatedAccess a, long begin, long end, int offset) {
		assertEquals(begin, a.begin(), a.toString());
		assertEquals(end, a.end(), a.toString());
		assertEquals(offset, a.paramOffset(), a.toString());
		assertFalse(a.wholeAllocation(), a.toString());
	}

	@Test
	void eachPointerIsBoundedByTheNextPointerOfTheLaunchIntoItsAllocation() {
		TraceFixture f = TraceFixture.create();
		int seg = f.alloc(S, SEG);
		int x = f.alloc(X, 4096);
		f.function(1, 0, "k", 0, 40);
		// out-of-order pointers, one into another allocation, one small integer
		f.launch(1, words(S + 4096, S, X + 64, S + 512, 1000));
		Trace t = f.build();
		List<LaunchSpeculation> whole = TraceFixture.speculate(t, "arg-scan");
		List<SpeculatedAccess> plain = whole.get(0).accesses();
		assertEquals(4, plain.size());
		assertTrue(plain.stream().allMatch(SpeculatedAccess::wholeAllocation));

		List<SpeculatedAccess> a = TraceFixture.speculate(t, "arg-scan+blocks").get(0).accesses();
		assertEquals(4, a.size());
		assertEquals(seg, a.get(0).allocationId());
		assertRange(a.get(0), S + 4096, S + SEG, 0); // the highest pointer: to the segment's end
		assertRange(a.get(1), S, S + 512, 8);
		assertEquals(x, a.get(2).allocationId());
		assertRange(a.get(2), X + 64, X + 4096, 16); // pointers into other allocations do not bound it
		assertRange(a.get(3), S + 512, S + 4096, 24);
		assertEquals("RW", a.get(1).direction());
	}

	@Test
	void wordsTheBaseEngineDoesNotTakeForPointersDoNotBound() {
		TraceFixture f = TraceFixture.create();
		f.alloc(S, SEG);
		f.function(2, 0, "triton_k", 0, 8, 8, 8); // extern "C": phos scans at the first launch only
		f.launch(2, words(S, 0)); // phos fixes offset 0
		f.launch(2, words(S, S + 512)); // offset 8 is not a pointer to phos: what lies behind it is not covered
		Trace t = f.build();
		SpeculatedAccess phos = TraceFixture.speculate(t, "phos+blocks").get(1).accesses().get(0);
		assertEquals(S, phos.begin());
		assertEquals(S + SEG, phos.end());
		assertTrue(phos.wholeAllocation(), "a block that is the whole allocation keeps the flag: " + phos);
		List<SpeculatedAccess> scan = TraceFixture.speculate(t, "arg-scan+blocks").get(1).accesses();
		assertRange(scan.get(0), S, S + 512, 0);
		assertRange(scan.get(1), S + 512, S + SEG, 8);
	}

	/**
	 * Launch 1 writes two tensors of a segment; the allocator then frees both and hands out one block of 1 MiB at
	 * the segment's start (no event), which launch 2 fills and launch 3 reads; launch 4 names the two old ones again.
	 */
	private static Trace reuse(int[] launches) {
		TraceFixture f = TraceFixture.create();
		f.alloc(S, SEG);
		f.function(1, 0, "k", 0, 16);
		f.function(3, 0, "fill", 0, 8);
		launches[0] = f.launch(1, words(S, S + K256));
		launches[1] = f.launch(3, words(S));
		launches[2] = f.launch(3, words(S));
		f.observed(launches[0], S, new long[0], new long[] { S, S + 2 * K256 });
		f.observed(launches[1], S, new long[0], new long[] { S, S + 4 * K256 });
		f.observed(launches[2], S, new long[0], new long[] { S, S + 4 * K256 });
		return f.build();
	}

	@Test
	void aBlockReusedLargerIsAMissedWriteForPastBlocksAndValidateSaysSo() {
		int[] l = new int[3];
		Trace t = reuse(l);
		List<String> verdicts = new ArrayList<>();
		ValidationReport r = SpeculationValidator.validate(t,
				List.of(EngineRegistry.create("arg-scan+blocks", t), EngineRegistry.create("arg-scan+past-blocks", t)),
				null, 1, null, (engine, v) -> verdicts.add(engine + " " + v.launchEvent() + " " + v.verdict()));
		Accuracy blocks = r.engines().get(0).total();
		Accuracy past = r.engines().get(1).total();
		assertEquals("arg-scan+blocks", r.engines().get(0).engine());
		assertEquals(0, blocks.unsafeLaunches());
		assertEquals(1.0, blocks.writeRecall());
		// launch 2: S was last seen with the old boundary S+256K, so the boundary bounds the new 1 MiB block
		assertTrue(verdicts.contains("arg-scan+past-blocks " + l[1] + " " + AccessVerdict.MISSED_WRITE), verdicts::toString);
		// launch 3: S was seen alone at launch 2, after the boundary: no longer bounded by it
		assertTrue(verdicts.contains("arg-scan+past-blocks " + l[2] + " " + AccessVerdict.OVER_APPROXIMATED),
				verdicts::toString);
		assertEquals(1, past.unsafeLaunches());
		assertEquals(3 * K256, past.writtenBytes() - past.writtenBytesRecalled());
	}

	@Test
	void catalogNamesAndCombinations() {
		Trace t = TraceFixture.create().build();
		assertEquals("ptx-flow/arg-scan+indirect+blocks+cublas", EngineRegistry.create("best", t).name());
		assertEquals("phos+indirect+blocks", EngineRegistry.create("phos+indirect+blocks", t).name());
		assertEquals("phos+blocks+indirect", EngineRegistry.create("phos+blocks+indirect", t).name());
		assertEquals("arg-scan+past-blocks", EngineRegistry.create("arg-scan+past-blocks", t).name());
		assertEquals("ptx-flow/arg-scan+indirect+blocks+cublas", EngineRegistry.create("best+blocks", t).name());
		assertEquals("ptx-flow/arg-scan+indirect+past-blocks+cublas", EngineRegistry.create("best+past-blocks", t).name());
		assertEquals(SpeculationEngine.Memory.NONE, EngineRegistry.create("arg-scan+blocks", t).memory());
		assertEquals(SpeculationEngine.Memory.EVERY_LAUNCH, EngineRegistry.create("arg-scan+past-blocks", t).memory());
		assertTrue(EngineRegistry.canCreate("ptx-flow/arg-scan+past-blocks"));
		// at most one block modifier: the outermost wins, in the place of the first
		assertEquals("arg-scan+past-blocks", EngineRegistry.create("arg-scan+blocks+past-blocks", t).name());
		assertEquals("arg-scan+blocks", EngineRegistry.create("arg-scan+blocks+blocks", t).name());
		IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
				() -> EngineRegistry.create("arg-scan/nope+blocks", t));
		assertTrue(e.getMessage().contains("X+blocks"), e.getMessage());
	}
}
