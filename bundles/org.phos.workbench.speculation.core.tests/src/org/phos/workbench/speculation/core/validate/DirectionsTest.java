package org.phos.workbench.speculation.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.speculation.core.TraceFixture.words;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.speculation.core.LaunchSpeculation;
import org.phos.workbench.speculation.core.SpeculatedAccess;
import org.phos.workbench.speculation.core.TraceFixture;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.Trace;

/**
 * Issue #15, direction counts (i15-val): the direction figures of {@link Accuracy.Directions} computed by hand on
 * {@link SpeculationValidatorTest}'s trace, the direction {@code +indirect} gives what it finds through pointer tables
 * (PTX first, then the signature, else read-write), and {@link PtxCoverage}'s reasons.
 */
class DirectionsTest {

	@Test
	void phosDirectionFiguresByHand() {
		SpeculationValidatorTest.build();
		Accuracy a = SpeculationValidatorTest.report.engines().get(0).total();
		Accuracy.Directions d = a.directions();
		// phos speculates: l1 A read (const) + B read-write; l2 the same; l4 A read-write (scanned, extern "C");
		// l5 nothing (null pointers); l6 B read-write
		assertEquals(3 * 4096 + 3 * 65536, d.speculatedReadBytes());
		assertEquals(3 * 65536 + 4096, d.speculatedWrittenBytes());
		// observed read: l1 A 4096 + B 100, l4 M 16 + A 4, l5 C 8, l6 B 65536 (the record outside every allocation
		// is not judged)
		assertEquals(4096 + 100 + 16 + 4 + 8 + 65536, d.readBytes());
		// matched: l1 4096 + 100, l4 A 4 (M not speculated), l6 65536
		assertEquals(4096 + 100 + 4 + 65536, d.readBytesMatched());
		assertEquals(100 + 8 + 16 + 65536, d.writtenBytes());
		assertEquals(100 + 65536, d.writtenBytesMatched());
		// pairs named by both: l1 A (R/R right), l1 B (RW/RW right), l2 A (R vs W wrong), l4 A (RW vs R wrong),
		// l6 B (RW/RW right)
		assertEquals(5, d.directionPairs());
		assertEquals(3, d.directionPairsCorrect());
		assertEquals((4096 + 100 + 4 + 65536) / (double) (3 * 4096 + 3 * 65536), d.readPrecision(), 1e-12);
		assertEquals((100 + 65536) / (double) (3 * 65536 + 4096), d.writePrecision(), 1e-12);
		assertEquals((4096 + 100 + 4 + 65536) / (double) (4096 + 100 + 16 + 4 + 8 + 65536), d.readRecall(), 1e-12);
		assertEquals((100 + 65536) / (double) (100 + 8 + 16 + 65536), d.writeRecall(), 1e-12);
		assertEquals(0.6, d.directionAccuracy(), 1e-12);
		// the extern "C" kernel alone: its one pair (l4 A) has the wrong class
		Accuracy k = SpeculationValidatorTest.report.engines().get(0).kernels().get(2);
		assertEquals(1, k.directions().directionPairs());
		assertEquals(0, k.directions().directionPairsCorrect());
		assertEquals(0.0, k.directions().directionAccuracy());
	}

	@Test
	void sharesOfNothingAreOne() {
		assertEquals(1.0, Accuracy.Directions.NONE.readPrecision());
		assertEquals(1.0, Accuracy.Directions.NONE.writePrecision());
		assertEquals(1.0, Accuracy.Directions.NONE.directionAccuracy());
	}

	static final long TABLE = 0x7f00_0020_0000L;
	static final long B = 0x7f00_0030_0000L;
	static final long OUT = 0x7f00_0040_0000L;

	/** gather(table, out): loads a pointer from table[0], reads through it; stores to out, or through the pointer. */
	private static String ptx(String name, boolean storeThroughTable) {
		return """
				.version 8.0
				.target sm_90
				.address_size 64
				.visible .entry NAME(
					.param .u64 NAME_param_0,
					.param .u64 NAME_param_1
				)
				{
					.reg .b64 %rd<8>;
					.reg .f32 %f<2>;
					ld.param.u64 %rd1, [NAME_param_0];
					ld.param.u64 %rd2, [NAME_param_1];
					cvta.to.global.u64 %rd3, %rd1;
					ld.global.u64 %rd4, [%rd3];
					cvta.to.global.u64 %rd5, %rd4;
					ld.global.f32 %f1, [%rd5];
					cvta.to.global.u64 %rd6, %rd2;
					st.global.f32 [TARGET], %f1;
					ret;
				}
				""".replace("NAME", name).replace("TARGET", storeThroughTable ? "%rd5" : "%rd6");
	}

	/** One launch of {@code mangled}(TABLE, OUT) after TABLE was filled with B's address. */
	private static Trace tableTrace(String mangled, int module) {
		TraceFixture f = TraceFixture.create();
		f.module(ModuleInfo.of(1, ModuleKind.PTX, ptx("gather", false).getBytes(StandardCharsets.UTF_8), "test"));
		f.module(ModuleInfo.of(2, ModuleKind.PTX, ptx("scatter", true).getBytes(StandardCharsets.UTF_8), "test"));
		f.alloc(TABLE, 256);
		f.alloc(B, 4096);
		f.alloc(OUT, 4096);
		f.function(1, module, mangled, 0, 8, 8, 8);
		f.h2d(TABLE, words(B));
		f.launch(1, words(TABLE, OUT));
		return f.build();
	}

	private static SpeculatedAccess indirectOne(Trace trace, String engine) {
		List<LaunchSpeculation> s = TraceFixture.speculate(trace, engine);
		List<SpeculatedAccess> found = s.get(0).accesses().stream().filter(SpeculatedAccess::indirect).toList();
		assertEquals(1, found.size(), s.get(0).accesses().toString());
		assertEquals(B, found.get(0).allocationBase());
		return found.get(0);
	}

	@Test
	void indirectReadsWhatThePtxOnlyReadsThroughTheTable() {
		SpeculatedAccess b = indirectOne(tableTrace("gather", 1), "ptx-flow+indirect");
		assertTrue(b.read());
		assertFalse(b.written(), "the PTX stores only to its second parameter");
		SpeculatedAccess viaBest = indirectOne(tableTrace("gather", 1), "best");
		assertFalse(viaBest.written());
	}

	@Test
	void indirectWritesWhenThePtxStoresThroughTheTable() {
		SpeculatedAccess b = indirectOne(tableTrace("scatter", 2), "best");
		assertTrue(b.read() && b.written(), "the PTX stores through the loaded pointer");
	}

	@Test
	void oneTableReadThroughOneParameterAndWrittenThroughAnotherIsWritten() {
		String twoWays = """
				.version 8.0
				.target sm_90
				.address_size 64
				.visible .entry two(
					.param .u64 two_param_0,
					.param .u64 two_param_1
				)
				{
					.reg .b64 %rd<10>;
					.reg .f32 %f<2>;
					ld.param.u64 %rd1, [two_param_0];
					ld.param.u64 %rd2, [two_param_1];
					cvta.to.global.u64 %rd3, %rd1;
					ld.global.u64 %rd4, [%rd3];
					cvta.to.global.u64 %rd5, %rd4;
					ld.global.f32 %f1, [%rd5];
					cvta.to.global.u64 %rd6, %rd2;
					ld.global.u64 %rd7, [%rd6];
					cvta.to.global.u64 %rd8, %rd7;
					st.global.f32 [%rd8], %f1;
					ret;
				}
				""";
		TraceFixture f = TraceFixture.create();
		f.module(ModuleInfo.of(1, ModuleKind.PTX, twoWays.getBytes(StandardCharsets.UTF_8), "test"));
		f.alloc(TABLE, 256);
		f.alloc(B, 4096);
		f.function(1, 1, "two", 0, 8, 8, 8);
		f.h2d(TABLE, words(B));
		f.launch(1, words(TABLE, TABLE)); // the same table as both parameters: read through first, then written
		List<SpeculatedAccess> s = TraceFixture.speculate(f.build(), "best").get(0).accesses();
		assertTrue(s.stream().anyMatch(a -> a.indirect() && a.allocationBase() == B && a.written()), s.toString());
	}

	@Test
	void withoutPtxTheSignatureDecidesAndNothingMeansReadWrite() {
		// gather(float const**, float*): the pointees are const
		SpeculatedAccess constTable = indirectOne(tableTrace("_Z6gatherPPKfPf", 0), "arg-scan+indirect");
		assertTrue(constTable.read());
		assertFalse(constTable.written());
		// gather(float**, float*): may write through the table
		assertTrue(indirectOne(tableTrace("_Z6gatherPPfPf", 0), "arg-scan+indirect").written());
		// extern "C" without PTX: no evidence either way, so read-write (a missed write is unsafe)
		assertTrue(indirectOne(tableTrace("gather_c", 0), "arg-scan+indirect").written());
	}

	@Test
	void validateCreditsTheRightDirectionOfIndirectReads() {
		TraceFixture f = TraceFixture.create();
		f.module(ModuleInfo.of(1, ModuleKind.PTX, ptx("gather", false).getBytes(StandardCharsets.UTF_8), "test"));
		f.alloc(TABLE, 256);
		f.alloc(B, 4096);
		f.alloc(OUT, 4096);
		f.function(1, 1, "gather", 0, 8, 8, 8);
		f.h2d(TABLE, words(B));
		int l = f.launch(1, words(TABLE, OUT));
		f.observed(l, TABLE, new long[] { TABLE, TABLE + 8 }, new long[0]);
		f.observed(l, B, new long[] { B, B + 4 }, new long[0]);
		f.observed(l, OUT, new long[0], new long[] { OUT, OUT + 4 });
		Trace trace = f.build();
		ValidationReport r = SpeculationValidator.validate(trace, List.of(EngineRegistry.create("best", trace)), null,
				null, null);
		Accuracy.Directions d = r.engines().get(0).total().directions();
		// ptx-flow: TABLE read [0, 8)? its range analysis bounds it or takes the whole 256 bytes; OUT written; B read
		// whole (4096) by +indirect: every pair has the observed class
		assertEquals(3, d.directionPairs());
		assertEquals(3, d.directionPairsCorrect());
		assertEquals(0, r.engines().get(0).total().unsafeLaunches());
		assertEquals(4, d.writtenBytesMatched());
		assertTrue(d.speculatedWrittenBytes() <= 4096, "only OUT is speculated written: " + d);
		assertEquals(0, d.readBytes() - d.readBytesMatched(), "every read recalled: " + d);
	}

	@Test
	void ptxCoverageSaysWhyLaunchesHaveNoPtx() {
		TraceFixture f = TraceFixture.create();
		f.module(ModuleInfo.of(1, ModuleKind.PTX, ptx("gather", false).getBytes(StandardCharsets.UTF_8), "test"));
		f.module(new ModuleInfo(2, ModuleKind.FATBIN, new byte[0], 42, "cuLibraryLoadData", 5 << 20));
		f.module(new ModuleInfo(3, ModuleKind.CUBIN, new byte[0], 43, "cuLibraryLoadData", 8 << 20));
		f.function(1, 1, "gather", 0, 8, 8, 8);
		f.function(2, 2, "_Z3libPf", 0, 8);
		f.function(3, 3, "cublas_kernel", 0, 8);
		f.function(4, 1, "not_in_the_ptx", 0, 8);
		// a Triton cubin with the PTX the recorder found in Triton's cache beside it
		f.module(new ModuleInfo(4, ModuleKind.CUBIN, new byte[] { 0x7f, 'E', 'L', 'F' }, 44, "cuModuleLoadData", 4,
				ptx("triton_k", false).getBytes(StandardCharsets.UTF_8), "/tmp/triton/cache/k.ptx"));
		f.function(5, 4, "triton_k", 0, 8, 8, 8);
		f.launch(5, words(0, 0));
		f.launch(1, words(0, 0));
		f.launch(2, words(0));
		f.launch(2, words(0));
		f.launch(3, words(0));
		f.launch(4, words(0));
		PtxCoverage.Summary s = PtxCoverage.of(f.build());
		assertEquals(6, s.launches());
		assertEquals(2, s.withPtx());
		assertEquals(4, s.withoutPtx());
		assertEquals(2L, s.launchesByStatus().get(PtxCoverage.Status.IMAGE_DROPPED));
		assertEquals(1L, s.kernelsByStatus().get(PtxCoverage.Status.IMAGE_DROPPED));
		assertEquals(1L, s.launchesByStatus().get(PtxCoverage.Status.CUBIN_ONLY));
		assertEquals(1L, s.launchesByStatus().get(PtxCoverage.Status.KERNEL_NOT_IN_PTX));
		assertEquals("2 of 6 launches have their kernel's PTX (2 of 5 kernels); 4 without PTX (no PTX analysis, no "
				+ "PTX-replay truth): 2 image dropped by the module-image limit (PHOS_MODULE_IMAGE_LIMIT) (1 kernel), "
				+ "1 cubin only, no PTX shipped (1 kernel), 1 module has PTX, not for this kernel (1 kernel)",
				s.line());
	}
}
