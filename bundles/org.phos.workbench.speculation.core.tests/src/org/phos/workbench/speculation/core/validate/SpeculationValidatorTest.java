package org.phos.workbench.speculation.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.phos.workbench.speculation.core.TraceFixture.words;
import static org.phos.workbench.speculation.core.validate.AccessVerdict.EXACT;
import static org.phos.workbench.speculation.core.validate.AccessVerdict.MISSED_READ;
import static org.phos.workbench.speculation.core.validate.AccessVerdict.MISSED_WRITE;
import static org.phos.workbench.speculation.core.validate.AccessVerdict.OVER_APPROXIMATED;
import static org.phos.workbench.speculation.core.validate.AccessVerdict.WRONG_DIRECTION;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.speculation.core.TraceFixture;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Trace;

/**
 * phos and arg-scan judged on a trace whose truth is written by hand, so every verdict and every aggregate is known:
 * see the comment at each launch.
 */
class SpeculationValidatorTest {

	static final long A = 0x7f00_0000_0000L; // 4 KiB plain
	static final long B = 0x7f00_0001_0000L; // 64 KiB plain
	static final long M = 0x7f00_0010_0000L; // 4 KiB managed
	static final long C = 0x7f00_0040_0000L; // 512 B plain, never passed

	static Trace trace;
	static int l1, l2, l4, l5, l6;
	static final List<String> verdictLog = new ArrayList<>();
	static ValidationReport report;

	@BeforeAll
	static void build() {
		TraceFixture f = TraceFixture.create();
		f.alloc(A, 4096);
		f.alloc(B, 65536);
		f.alloc(M, 4096, AllocKind.MANAGED);
		f.alloc(C, 512);
		f.function(1, 0, "_Z4testPKfPfi", 0, 8, 8, 8, 16, 4); // test(float const*, float*, int)
		f.function(2, 0, "triton_k", 0, 8, 8, 8); // extern "C": nothing typed
		l1 = f.launch(1, words(A, B, 7));
		l2 = f.launch(1, words(A, B, 7));
		f.launch(2, words(A, 0)); // unobserved; phos fixes (param 0, offset 0)
		l4 = f.launch(2, words(A, M));
		l5 = f.launch(1, words(0, 0, 0));
		l6 = f.launch(1, words(0, B, 7));
		// l1: A read entirely (phos EXACT, arg-scan OVER); B 100 bytes read and written (both OVER)
		f.observed(l1, A, new long[] { A, A + 4096 }, new long[0]);
		f.observed(l1, B, new long[] { B, B + 100 }, new long[] { B, B + 100 });
		// l2: the const pointer is written through (phos WRONG_DIRECTION); B untouched (both OVER)
		f.observed(l2, A, new long[0], new long[] { A, A + 8 });
		// l4: M (managed, param 1) read and written: phos MISSED_WRITE; A read 4 bytes: both OVER
		f.observed(l4, M, new long[] { M, M + 16 }, new long[] { M, M + 16 });
		f.observed(l4, A, new long[] { A, A + 4 }, new long[0]);
		// l5: C read through a pointer no engine can see: both MISSED_READ; one record outside any allocation
		f.observed(l5, C, new long[] { C, C + 8 }, new long[0]);
		f.observed(l5, 0, new long[] { 16, 24 }, new long[0]);
		// l6: B read and written entirely: both EXACT
		f.observed(l6, B, new long[] { B, B + 65536 }, new long[] { B, B + 32768, B + 32768, B + 65536 });
		trace = f.build();
		report = SpeculationValidator.validate(trace,
				List.of(EngineRegistry.create("phos", trace), EngineRegistry.create("arg-scan", trace)), null, null,
				(engine, v) -> verdictLog.add(engine + " " + v.launchEvent() + " " + Long.toHexString(v.allocationBase())
						+ " " + v.verdict()));
	}

	private static Map<AccessVerdict, Long> counts(long exact, long over, long missedRead, long missedWrite,
			long wrong) {
		return Map.of(EXACT, exact, OVER_APPROXIMATED, over, MISSED_READ, missedRead, MISSED_WRITE, missedWrite,
				WRONG_DIRECTION, wrong);
	}

	@Test
	void reportCountsObservedLaunchesOnly() {
		assertEquals(5, report.observedLaunches());
		assertEquals(8, report.observedEntries());
		assertEquals(1, report.unattributedEntries());
		assertEquals(List.of("test-truth"), report.tools());
		assertEquals(List.of("phos", "arg-scan"), report.engines().stream().map(EngineValidation::engine).toList());
		assertEquals(5, SpeculationValidator.observedLaunchCount(trace, null));
		assertEquals(0, SpeculationValidator.observedLaunchCount(trace, "sanitizer"));
	}

	@Test
	void phosVerdictsAndAggregates() {
		Accuracy a = report.engines().get(0).total();
		assertEquals(counts(2, 3, 1, 1, 1), a.verdicts());
		assertEquals(5, a.launches());
		assertEquals(2, a.unsafeLaunches());
		assertEquals(4, a.writePairs());
		assertEquals(2, a.writePairsRecalled());
		assertEquals(0.5, a.writeRecall());
		assertEquals(6, a.readPairs());
		assertEquals(4, a.readPairsRecalled());
		assertEquals(3 * 4096 + 3 * 65536, a.speculatedBytes());
		assertEquals(4096 + 100 + 8 + 4 + 65536, a.usefulBytes());
		assertEquals(65660, a.writtenBytes());
		assertEquals(65636, a.writtenBytesRecalled());
		assertEquals((4096 + 100 + 8 + 4 + 65536) / (double) (3 * 4096 + 3 * 65536), a.bytePrecision(), 1e-12);
		assertEquals(0, report.engines().get(0).launchesNotCovered());
	}

	@Test
	void phosPerKernel() {
		Map<Integer, Accuracy> kernels = report.engines().get(0).kernels();
		assertEquals(List.of(1, 2), List.copyOf(kernels.keySet()));
		assertEquals(counts(0, 1, 0, 1, 0), kernels.get(2).verdicts());
		assertEquals(1, kernels.get(2).launches());
		assertEquals(1, kernels.get(2).unsafeLaunches());
		assertEquals(counts(2, 2, 1, 0, 1), kernels.get(1).verdicts());
		assertEquals(4, kernels.get(1).launches());
		assertEquals(1, kernels.get(1).unsafeLaunches());
	}

	@Test
	void argScanVerdictsAndAggregates() {
		Accuracy a = report.engines().get(1).total();
		assertEquals(counts(1, 6, 1, 0, 0), a.verdicts());
		assertEquals(0, a.unsafeLaunches());
		assertEquals(1.0, a.writeRecall());
		assertEquals(5.0 / 6, a.readRecall(), 1e-12);
		assertEquals(3 * 65536 + 4 * 4096, a.speculatedBytes());
		assertEquals(4096 + 100 + 8 + 4 + 16 + 65536, a.usefulBytes());
	}

	@Test
	void everyVerdictReachesTheListener() {
		assertEquals(16, verdictLog.size());
		assertEquals(true, verdictLog.contains("phos " + l2 + " " + Long.toHexString(A) + " WRONG_DIRECTION"));
		assertEquals(true, verdictLog.contains("phos " + l4 + " " + Long.toHexString(M) + " MISSED_WRITE"));
		assertEquals(true, verdictLog.contains("arg-scan " + l5 + " " + Long.toHexString(C) + " MISSED_READ"));
		assertEquals(true, verdictLog.contains("arg-scan " + l6 + " " + Long.toHexString(B) + " EXACT"));
	}

	@Test
	void partialWriteCoverageIsAMissedWrite() {
		// ptx-flow-like bounded speculation: written [B, B+40) speculated, [B, B+48) observed
		TraceFixture f = TraceFixture.create();
		f.alloc(B, 65536);
		f.function(1, 0, "k", 0, 8);
		int l = f.launch(1, words(B));
		f.observed(l, B, new long[0], new long[] { B, B + 48 });
		Trace t = f.build();
		EngineRegistry.register("fixed-forty", "writes [p, p+40) of its first argument", tr -> new FixedEngine());
		ValidationReport r = SpeculationValidator.validate(t, List.of(EngineRegistry.create("fixed-forty", t)), null,
				null, null);
		Accuracy a = r.engines().get(0).total();
		assertEquals(1, a.count(MISSED_WRITE));
		assertEquals(40, a.writtenBytesRecalled());
		assertEquals(48, a.writtenBytes());
		assertEquals(1.0, a.bytePrecision());
	}

	/** Speculates a 40-byte write at its first parameter word. */
	static final class FixedEngine implements org.phos.workbench.speculation.core.SpeculationEngine {
		@Override
		public String name() {
			return "fixed-forty";
		}

		@Override
		public boolean speculate(org.phos.workbench.speculation.core.LaunchContext launch,
				org.phos.workbench.speculation.core.AccessSink sink) {
			long p = launch.paramLong(0);
			long id = launch.findAllocation(p);
			if (id >= 0) {
				sink.access(id, launch.allocationBase(id), p, p + 40,
						org.phos.workbench.speculation.core.SpeculatedAccess.WRITE, 0, 0);
			}
			return true;
		}
	}
}
