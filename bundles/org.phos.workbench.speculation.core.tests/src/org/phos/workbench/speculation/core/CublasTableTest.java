package org.phos.workbench.speculation.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.speculation.core.engines.CublasKernels;
import org.phos.workbench.internal.speculation.core.engines.CublasKernels.Bound;
import org.phos.workbench.internal.speculation.core.engines.CublasKernels.Decoded;
import org.phos.workbench.internal.speculation.core.engines.CublasKernels.Family;
import org.phos.workbench.speculation.core.validate.AccessVerdict;
import org.phos.workbench.speculation.core.validate.Accuracy;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/**
 * {@code +cublas}, the library table of cuBLAS's split-K kernels ({@link CublasKernels}): decoding the real parameter
 * bytes of launches from the sample traces, falling back on implausible ones, narrowing in the engine, and the
 * figures on the samples (docs/accuracy.md, i15-cublas).
 */
class CublasTableTest {

	static final String KERNEL2_SGEMM = "_ZN7cutlass7Kernel2I42cutlass_80_simt_sgemm_128x64_8x5_nn_align1EEvNT_6ParamsE";
	static final String REDUCE_F32 = "_ZN8cublasLt19splitKreduce_kernelILi32ELi16EiffffLb0EfffLb1ELb0ELb0ELb0EEEvNS_"
			+ "18cublasSplitKParamsIT4_EEPKT2_PKT8_PT7_PT3_PKS2_SF_PKT9_S6_PSG_PvlPS2_PiSL_SL_SF_SF_SF_SF_SF_";
	static final String REDUCE_F16 = "_ZN8cublasLt19splitKreduce_kernelILi32ELi16Eif6__halffS1_Lb0EfS1_S1_Lb1ELb0ELb0E"
			+ "Lb0EEEvNS_18cublasSplitKParamsIT4_EEPKT2_PKT8_PT7_PT3_PKS3_SG_PKT9_S7_PSH_PvlPS3_PiSM_SM_SG_SG_SG_SG_SG_";
	static final String REDUCE_F64 = "_ZN8cublasLt19splitKreduce_kernelILi32ELi16EiddddLb0EdddLb1ELb0ELb0ELb0EEEvNS_"
			+ "18cublasSplitKParamsIT4_EEPKT2_PKT8_PT7_PT3_PKS2_SF_PKT9_S6_PSG_PvlPS2_PiSL_SL_SF_SF_SF_SF_SF_";

	/** cupy-ops.phos event 57: C[128,32] = A[128,64] B[64,32] in 2 splits; workspace 0x7f7eb2000000. */
	static final String CUPY_KERNEL2 =
			"800000002000000040000000020000000100000002000000000000000100000042000000200000000010000000000000"
			+ "00000000000000004000000000000000001000000000000020d0ffffffffffff20000000000000002000000000000000"
			+ "800000000000000080000000000000000004000000000000800000000000000080000000000000000004000000000000"
			+ "80fcffffffffffff80000000000000000006000000000000001000000000000000040000000000008000000000000000"
			+ "8000000000000000000400000000000080fcffffffffffff800000000000000000060000000000000010000000000000"
			+ "00040000000000000000803f000000000000c07f000000000000000000000000000000000000000000eceddf7e7f0000"
			+ "006ceedf7e7f000000a0f1df7e7f0000000000b27e7f0000000000000000000000000000000000000000000000000000"
			+ "000000000000000000000000000000000000000000000000";
	/** cupy-ops.phos event 58: its reduction. */
	static final String CUPY_REDUCE =
			"0000803f0000000020000000800000002000000020000000200000002000000001000000001000000200000000000000"
			+ "00000000000000000100000000000000000000b27e7f000000a0f1df7e7f000000a0f1df7e7f000000a0f1df7e7f0000"
			+ "50c42ad5fe7f000054c42ad5fe7f00000000000000000000000000000000000000000000000000000000000000000000"
			+ "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
			+ "0000000000000000000000000000000000000000000000000000000000000000";
	/** triton-ops.phos event 70: m, n, k = 96, 80, 64 in 2 splits, swizzled grid (4, 1, 2). */
	static final String TRITON_KERNEL2 =
			"60000000500000004000000002000000020000000200000001000000010000001000000020000000001e000000000000"
			+ "00000000000000004000000000000000001000000000000020d0ffffffffffff20000000000000005000000000000000"
			+ "80020000000000008002000000000000000a00000000000040010000000000004001000000000000000a000000000000"
			+ "40f7ffffffffffff4001000000000000000f0000000000000028000000000000000a0000000000004001000000000000"
			+ "4001000000000000000a00000000000040f7ffffffffffff4001000000000000000f0000000000000028000000000000"
			+ "000a0000000000000000803f000000000000c07f0000000000000000000000000000000000000000003cfac7e17f0000"
			+ "009cfac7e17f00000064fbc7e17f00000000a096e17f0000000000000000000000000000000000000000000000000000"
			+ "000000000000000000000000000000000000000000000000";
	/** cublas-shapes.phos event 161: fp16 (48, 200, 12000) after an nvjet split-K GEMM: leading dimensions 224/200. */
	static final String SHAPES_REDUCE_F16 =
			"0000803f00000000c800000030000000e0000000c8000000e0000000c800000001000000002a00000600000000000000"
			+ "00000000000000000100000000000000000020402e7f000000469d422e7f0000000020402e7f000000469d422e7f0000"
			+ "b0a787ecfc7f0000b4a787ecfc7f00000000000000000000000000000000000000000000000000000000000000000000"
			+ "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
			+ "0000000000000000000000000000000000000000000000000000000000000000";
	/** gpt-train.phos event 465: serial split-K (mode 0): D is C, the workspace holds semaphores. */
	static final String GPT_SERIAL =
			"004000000004000000100000400000000800000002000000030000000000000002000000000800000000000000000000"
			+ "0000002c027f000000400000000000000000010000000000000001000000000000000800000000000004000000000000"
			+ "002000000000000000200000000000000080000000000000001000000000000000100000000000000080000000000000"
			+ "0090ffffffffffff001000000000000000c0000000000000000004000000000000000100000000000010000000000000"
			+ "001000000000000000800000000000000090ffffffffffff001000000000000000c00000000000000000040000000000"
			+ "00000100000000000000803f000000000000c07f000000000000000000000000000000000000000000000018027f0000"
			+ "0000005e027f000000000028027f000000000028027f0000000000000000000000000000000000000000000000000000"
			+ "000000000000000000000000000000000000000000000000";
	/** cublas-shapes-holdout.phos event 64: (1, 1, 50000), words at 32 and 56 are 0 and 264 splits. */
	static final String HOLDOUT_REDUCE_1X1 =
			"0000803f0000000001000000010000000100000001000000010000000100000000000000100000000801000000000000"
			+ "000000000000000001000000000000000000206e177f000000ace669177f000000ace669177f000000ace669177f0000"
			+ "e418df06ff7f0000e018df06ff7f00000000000000000000000000000000000000000000000000000000000000000000"
			+ "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
			+ "0000000000000000000000000000000000000000000000000000000000000000";
	/** cublas-shapes-holdout.phos event 349: fp64, cublasSplitKParams<double>. */
	static final String HOLDOUT_REDUCE_F64 =
			"000000000000f03f00000000000000002000000020000000200000002000000020000000200000000100000000040000"
			+ "2000000000000000000000000000000001000000000000000000206e177f00000060fb69177f00000060fb69177f0000"
			+ "0060fb69177f0000e018df06ff7f0000d818df06ff7f0000000000000000000000000000000000000000000000000000"
			+ "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
			+ "00000000000000000000000000000000000000000000000000000000000000000000000000000000";

	static byte[] hex(String h) {
		return HexFormat.of().parseHex(h);
	}

	static FunctionInfo reduce(String mangled, int first) {
		List<ParamInfo> layout = new ArrayList<>();
		layout.add(new ParamInfo(0, first));
		for (int i = 0; i < 20; i++) {
			layout.add(new ParamInfo((first + 7) / 8 * 8 + 8 * i, 8));
		}
		return new FunctionInfo(2, 0, mangled, "", layout);
	}

	static Decoded decode(FunctionInfo f, String params, int gridZ) {
		byte[] b = hex(params);
		return CublasKernels.decode(CublasKernels.entry(f), b, b.length, gridZ);
	}

	static FunctionInfo kernel2(String mangled) {
		return new FunctionInfo(1, 0, mangled, "", List.of(new ParamInfo(0, 360)));
	}

	@Test
	void familiesByName() {
		assertEquals(Family.CUTLASS_SPLIT_K, CublasKernels.family(KERNEL2_SGEMM));
		assertEquals(Family.CUTLASS_SPLIT_K, CublasKernels.family(
				"_ZN7cutlass7Kernel2I62cutlass_80_wmma_tensorop_s161616gemm_f16_32x32_128x2_nn_align2EEvNT_6ParamsE"));
		assertEquals(Family.CUTLASS_SPLIT_K, CublasKernels.family(
				"_ZN7cutlass7Kernel2I50cutlass_75_tensorop_s1688gemm_bf16_64x64_nn_align1EEvNT_6ParamsE"));
		assertEquals(Family.SPLIT_K_REDUCE, CublasKernels.family(REDUCE_F16));
		// fp64 and fp16-output wmma kernels: not read into the table (cublas-shapes-holdout), they fall back
		assertEquals(Family.OTHER_CUBLAS, CublasKernels.family(
				"_ZN7cutlass7Kernel2I49cutlass_80_tensorop_d884gemm_64x32_16x4_nn_align1EEvNT_6ParamsE"));
		assertEquals(Family.OTHER_CUBLAS, CublasKernels.family("_ZN7cutlass7Kernel2I65cutlass_80_wmma_tensorop_f16_"
				+ "s161616gemm_f16_32x32_128x2_nn_align8EEvNT_6ParamsE"));
		assertEquals(Family.OTHER_CUBLAS, CublasKernels.family("nvjet_sm90_tst_64x16_64x16_2x4_h_bz_splitK_NNT"));
		assertEquals(Family.NOT_CUBLAS, CublasKernels.family("sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs"
				+ "_nchw_tilesize128x32x8_stage3_warpsize2x2x1_g1_ffma_aligna4_alignc4_execute_kernel__5x_cudnn"));
		assertEquals(Family.NOT_CUBLAS, CublasKernels.family("strided_scale"));
	}

	@Test
	void parallelSplitKGemmBoundsItsWorkspaceToSplitsTimesStride() {
		Decoded d = decode(kernel2(KERNEL2_SGEMM), CUPY_KERNEL2, 2);
		assertNull(d.fallback());
		assertEquals(List.of(new Bound(304, 128 * 32 * 2 * 4, true)), d.bounds()); // 32 KiB of a 64 MiB workspace
		Decoded t = decode(kernel2(KERNEL2_SGEMM), TRITON_KERNEL2, 2);
		assertEquals(List.of(new Bound(304, 96 * 80 * 2 * 4, true)), t.bounds()); // 60 KiB, as observed
	}

	@Test
	void reductionBoundsWorkspaceAndOutputsByItsOwnElementTypes() {
		Decoded d = decode(reduce(REDUCE_F32, 60), CUPY_REDUCE, 1);
		assertNull(d.fallback());
		assertEquals(List.of(new Bound(64, 32 * 128 * 2 * 4, true), new Bound(72, 32 * 128 * 4, false),
				new Bound(80, 32 * 128 * 4, false), new Bound(88, 32 * 128 * 4, false)), d.bounds());
		// m, n = 200, 48, leading dimensions 224, 200, 224, 200, stride 10752 = 224 * 48, 6 splits; observed: the
		// workspace read [0, 257952), the fp16 output written [0, 19200)
		Decoded h = decode(reduce(REDUCE_F16, 60), SHAPES_REDUCE_F16, 1);
		assertNull(h.fallback());
		assertEquals(new Bound(64, 6L * 10752 * 4, true), h.bounds().get(0));
		assertTrue(h.bounds().get(0).extent() >= 257952);
		assertEquals(new Bound(72, (224L * 47 + 200) * 2, false), h.bounds().get(1)); // __half const* C
		assertEquals(new Bound(80, (224L * 47 + 200) * 4, false), h.bounds().get(2)); // float*
		assertEquals(new Bound(88, (224L * 47 + 200) * 2, false), h.bounds().get(3)); // __half* D
		assertTrue(h.bounds().get(3).extent() >= 19200);
	}

	@Test
	void implausibleValuesFallBack() {
		FunctionInfo k2 = new FunctionInfo(1, 0,
				"_ZN7cutlass7Kernel2I43cutlass_80_simt_sgemm_128x256_8x4_nt_align1EEvNT_6ParamsE",
				"", List.of(new ParamInfo(0, 360)));
		assertTrue(decode(k2, GPT_SERIAL, 2).fallback().startsWith("mode 0"), "serial split-K: D is C");
		assertTrue(decode(kernel2(KERNEL2_SGEMM), CUPY_KERNEL2, 1).fallback().contains("grid depth 1"));
		assertTrue(decode(kernel2(KERNEL2_SGEMM), CUPY_KERNEL2.substring(2), 2).fallback().startsWith("Params of 359"));
		byte[] shortStride = hex(CUPY_KERNEL2);
		ByteBuffer.wrap(shortStride).order(ByteOrder.LITTLE_ENDIAN).putLong(40, 128 * 32 - 1);
		assertTrue(CublasKernels.decode(CublasKernels.entry(kernel2(KERNEL2_SGEMM)), shortStride, 360, 2).fallback()
				.startsWith("partials' stride 4095"));
		byte[] dIsC = hex(CUPY_KERNEL2);
		ByteBuffer w = ByteBuffer.wrap(dIsC).order(ByteOrder.LITTLE_ENDIAN);
		w.putLong(304, w.getLong(296));
		assertTrue(CublasKernels.decode(CublasKernels.entry(kernel2(KERNEL2_SGEMM)), dIsC, 360, 2).fallback()
				.startsWith("D is null or another operand"));
		assertTrue(decode(reduce(REDUCE_F32, 60), HOLDOUT_REDUCE_1X1, 1).fallback().contains("words at 32 and 56 0, 1"));
		assertTrue(decode(reduce(REDUCE_F64, 72), HOLDOUT_REDUCE_F64, 1).fallback().startsWith(
				"cublasSplitKParams of 72 bytes"));
		byte[] shortLd = hex(CUPY_REDUCE);
		ByteBuffer.wrap(shortLd).order(ByteOrder.LITTLE_ENDIAN).putInt(20, 31); // m is 32
		assertTrue(CublasKernels.decode(CublasKernels.entry(reduce(REDUCE_F32, 60)), shortLd, shortLd.length, 1)
				.fallback().startsWith("leading dimension 31"));
		String unknownType = REDUCE_F32.replace("PKT2_", "PKc"); // a char const* workspace: not a type it knows
		assertNotNull(decode(reduce(unknownType, 60), CUPY_REDUCE, 1).fallback());
		assertEquals("not in the table", decode(kernel2("nvjet_sm90_tst_64x8_64x16_1x1_h_bz_splitK_NNT"),
				CUPY_KERNEL2, 2).fallback());
	}

	static final long WS = 0x7f7e_b200_0000L; // the workspace of cupy-ops: 64 MiB
	static final long OPS = 0x7f7e_df00_0000L; // its operands
	static final long MIB = 1L << 20;

	/** The cupy-ops pair with the workspace at {@code ws}, operands allocated as in the recording. */
	private static TraceFixture cupyPair(long ws, long wsSize, int[] launches) {
		TraceFixture f = TraceFixture.create();
		f.alloc(OPS, 32 * MIB);
		f.alloc(ws, wsSize);
		f.function(1, 0, KERNEL2_SGEMM, 0, 360);
		int[] layout = new int[42];
		layout[1] = 60;
		for (int i = 1; i <= 20; i++) {
			layout[2 * i] = 56 + 8 * i;
			layout[2 * i + 1] = 8;
		}
		f.function(2, 0, REDUCE_F32, layout);
		byte[] k = hex(CUPY_KERNEL2);
		ByteBuffer.wrap(k).order(ByteOrder.LITTLE_ENDIAN).putLong(304, ws);
		byte[] r = hex(CUPY_REDUCE);
		ByteBuffer.wrap(r).order(ByteOrder.LITTLE_ENDIAN).putLong(64, ws);
		launches[0] = f.launch(1, k, new Dim3(2, 1, 2));
		launches[1] = f.launch(2, r, new Dim3(1, 8, 1));
		return f;
	}

	private static SpeculatedAccess on(List<SpeculatedAccess> accesses, long allocationBase, int offset) {
		return accesses.stream().filter(a -> a.allocationBase() == allocationBase && a.paramOffset() == offset)
				.findFirst().orElseThrow(() -> new AssertionError(allocationBase + "@" + offset + ": " + accesses));
	}

	@Test
	void theEngineNarrowsTheWorkspaceAndTheOutputs() {
		int[] l = new int[2];
		Trace t = cupyPair(WS, 64 * MIB, l).build();
		List<LaunchSpeculation> base = TraceFixture.speculate(t, "best");
		List<LaunchSpeculation> table = TraceFixture.speculate(t, "best+cublas");
		assertTrue(on(base.get(0).accesses(), WS, 304).wholeAllocation());
		SpeculatedAccess ws = on(table.get(0).accesses(), WS, 304);
		assertEquals(WS, ws.begin());
		assertEquals(WS + 32768, ws.end());
		assertFalse(ws.wholeAllocation());
		assertEquals("RW", ws.direction()); // directions are the base engine's
		assertEquals(base.get(0).accesses().size(), table.get(0).accesses().size());
		long c = 0x7f7e_dff1_a000L; // C, inside the operands' allocation
		SpeculatedAccess red = on(table.get(1).accesses(), WS, 64);
		assertEquals(WS + 32768, red.end());
		SpeculatedAccess out = on(table.get(1).accesses(), OPS, 88);
		assertEquals(c, out.begin());
		assertEquals(c + 32 * 128 * 4, out.end());
		// the A and B of the GEMM pass as the base engine gave them
		assertEquals(on(base.get(0).accesses(), OPS, 280), on(table.get(0).accesses(), OPS, 280));
		assertEquals("ptx-flow/arg-scan+indirect+blocks+cublas", EngineRegistry.create("best+cublas", t).name());
		assertEquals("phos+cublas+blocks", EngineRegistry.create("phos+cublas+blocks", t).name());
		assertEquals(SpeculationEngine.Memory.NONE, EngineRegistry.create("arg-scan+cublas", t).memory());
	}

	@Test
	void aWorkspaceNotAtAnAllocationStartOrTooSmallFallsBack() {
		// the GEMM's D 4 KiB into the 64 MiB workspace allocation: not cuBLAS's own workspace, unchanged
		byte[] k = hex(CUPY_KERNEL2);
		ByteBuffer.wrap(k).order(ByteOrder.LITTLE_ENDIAN).putLong(304, WS + 4096);
		TraceFixture g = TraceFixture.create();
		g.alloc(OPS, 32 * MIB);
		g.alloc(WS, 64 * MIB);
		g.function(1, 0, KERNEL2_SGEMM, 0, 360);
		g.launch(1, k, new Dim3(2, 1, 2));
		SpeculatedAccess a = on(TraceFixture.speculate(g.build(), "arg-scan+cublas").get(0).accesses(), WS, 304);
		assertEquals(WS, a.begin());
		assertTrue(a.wholeAllocation(), a.toString());
		// a workspace of 16 KiB, smaller than the 32 KiB the parameters say: unchanged, both launches
		int[] l = new int[2];
		Trace small = cupyPair(WS, 16384, l).build();
		List<LaunchSpeculation> s = TraceFixture.speculate(small, "arg-scan+cublas");
		assertTrue(on(s.get(0).accesses(), WS, 304).wholeAllocation());
		assertTrue(on(s.get(1).accesses(), WS, 64).wholeAllocation());
		assertEquals(OPS, on(s.get(1).accesses(), OPS, 88).begin(), "the outputs too: the launch falls back whole");
		// the same launches with the 64 MiB workspace: bounded
		Trace t = cupyPair(WS, 64 * MIB, l).build();
		assertEquals(WS + 32768, on(TraceFixture.speculate(t, "arg-scan+cublas").get(0).accesses(), WS, 304).end());
	}

	@Test
	void aWriteBeyondTheTableIsAMissedWriteInValidate() {
		int[] l = new int[2];
		TraceFixture f = cupyPair(WS, 64 * MIB, l);
		// truth: the GEMM writes 64 KiB of the workspace (as another cuBLAS version might), more than the table says
		f.observed(l[0], WS, new long[0], new long[] { WS, WS + 65536 });
		f.observed(l[1], WS, new long[] { WS, WS + 32768 }, new long[0]);
		Trace t = f.build();
		List<String> verdicts = new ArrayList<>();
		ValidationReport r = SpeculationValidator.validate(t,
				List.of(EngineRegistry.create("arg-scan", t), EngineRegistry.create("arg-scan+cublas", t)), null, 1,
				null, (engine, v) -> verdicts.add(engine + " " + v.launchEvent() + " " + v.verdict()));
		Accuracy plain = r.engines().get(0).total();
		Accuracy table = r.engines().get(1).total();
		assertEquals(0, plain.unsafeLaunches());
		assertEquals(1, table.unsafeLaunches());
		assertTrue(verdicts.contains("arg-scan+cublas " + l[0] + " " + AccessVerdict.MISSED_WRITE), verdicts::toString);
		assertEquals(32768, table.writtenBytes() - table.writtenBytesRecalled());
		assertTrue(verdicts.contains("arg-scan+cublas " + l[1] + " " + AccessVerdict.OVER_APPROXIMATED),
				verdicts::toString);
	}

	private static Path sample(String name) {
		Path p = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
		assumeTrue(Files.isRegularFile(p), p + " missing (set -Dphos.repo to the repository root)");
		return p;
	}

	/**
	 * The figures of docs/accuracy.md (i15-cublas): no unsafe launch and no missed write with the table on any sample
	 * with cuBLAS launches, the held-out recording included, and the precision it gains.
	 */
	@Test
	void onTheSamplesTheTableMissesNothingAndGains() throws IOException {
		String[] names = { "cupy-ops", "triton-ops", "cublas-shapes", "cublas-shapes-holdout" };
		double[] atLeast = { 0.80, 0.33, 0.17, 0.15 };
		for (int i = 0; i < names.length; i++) {
			Trace t = TraceReader.read(sample(names[i] + ".phos"), null).trace();
			ValidationReport r = SpeculationValidator.validate(t,
					List.of(EngineRegistry.create("best", t), EngineRegistry.create("best+cublas", t)), null, null,
					null);
			Accuracy best = r.engines().get(0).total();
			Accuracy table = r.engines().get(1).total();
			assertEquals(0, table.unsafeLaunches(), names[i]);
			assertEquals(1.0, table.writeRecall(), names[i]);
			assertEquals(best.readRecall(), table.readRecall(), names[i]);
			assertEquals(best.launches(), table.launches(), names[i]);
			assertTrue(table.bytePrecision() >= atLeast[i] && best.bytePrecision() < table.bytePrecision(),
					names[i] + ": " + best.bytePrecision() + " -> " + table.bytePrecision());
		}
	}

	/**
	 * Which cuBLAS kernels of the held-out recording the table does not know (they fall back): the GEMMs without a
	 * workspace of their own (Hopper's nvjet, xmma, gemv, dot) and three CUTLASS 2 variants whose names it was not
	 * read from; and the split-K launches it knows but whose values it refuses.
	 */
	@Test
	void theHeldOutRecordingsUnknownVariants() throws IOException {
		Trace t = TraceReader.read(sample("cublas-shapes-holdout.phos"), null).trace();
		TreeSet<String> unknownCutlass = new TreeSet<>();
		List<String> refused = new ArrayList<>();
		int decoded = 0;
		for (int i = 0; i < t.eventCount(); i++) {
			if (t.kind(i) != EventKind.LAUNCH) {
				continue;
			}
			FunctionInfo f = t.functionById(t.functionId(i));
			assertNotNull(f);
			CublasKernels.Entry e = CublasKernels.entry(f);
			if (e.family() == Family.OTHER_CUBLAS && f.mangledName().contains("cutlass7Kernel2")) {
				unknownCutlass.add(f.mangledName()
						.replaceAll("^_ZN7cutlass7Kernel2I\\d+(cutlass_\\d+_[a-z0-9_]*?gemm(?:_b?f16)?)_.*", "$1"));
			}
			if (e.family() == Family.CUTLASS_SPLIT_K || e.family() == Family.SPLIT_K_REDUCE) {
				ByteBuffer p = t.params(i);
				byte[] b = new byte[p.remaining()];
				p.duplicate().get(b);
				Decoded d = CublasKernels.decode(e, b, b.length, t.gridZ(i));
				if (d.fallback() == null) {
					decoded++;
				} else {
					refused.add(i + ": " + d.fallback());
				}
			}
		}
		assertEquals("[cutlass_80_tensorop_d884gemm, cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16, "
				+ "cutlass_80_wmma_tensorop_f16_s161616gemm_f16]", unknownCutlass.toString());
		assertEquals(40, decoded, refused::toString); // 13 GEMMs, 27 reductions
		assertEquals(2, refused.size(), refused::toString); // (1, 1, 50000) fp32, and the fp64 reduction
	}
}
