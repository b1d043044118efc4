package org.phos.workbench.speculation.core.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.phos.workbench.speculation.core.testdata.TestData;

/**
 * Slices given by scalar parameters (issue #15): {@code base[off .. off + n)} with {@code off} and {@code n} passed by
 * value, under an {@code if (i < n)} guard and in a grid-stride loop, on nvcc 13 -O3 output of slices.cu, and the
 * shapes that must stay whole.
 */
class PtxSliceRangesTest {

	private static final Map<String, KernelAccessSummary> SUMMARIES = new HashMap<>();

	@BeforeAll
	static void analyse() throws PtxParseException {
		for (String name : new String[] { "slices.ptx", "forms.ptx", "flow_kernels.ptx", "triton_scale_inplace.ptx" }) {
			for (KernelAccessSummary s : PtxFlowAnalyzer.analyze(PtxParser.parse(name, TestData.read(name)))) {
				SUMMARIES.put(s.kernel(), s);
			}
		}
	}

	private static ParamWordAccess word(String kernel, int param) {
		return SUMMARIES.get(kernel).param(param);
	}

	@Test
	void guardedSliceWithIntOffsetIsBoundedByOffsetAndCount() {
		ParamWordAccess base = word("slice_write", 0);
		assertTrue(base.pointer() && base.written() && !base.read(), base.toString());
		assertEquals("[4*slice_write_param_1@8, 4*slice_write_param_1@8 + 4*slice_write_param_2@12)",
				base.writeRange().toString());
		assertFalse(word("slice_write", 1).pointer(), "the offset is a scalar, not a pointer");
		assertFalse(word("slice_write", 2).pointer());
	}

	@Test
	void sliceWithA64BitIndexSummedFromTwoPartsStaysWhole() {
		// a known limit: i = ctaid * (u64) ntid + tid is compared to n as one register but enters the address as the
		// sum of its parts (mul.wide + cvt), and the bound is looked up per part: whole, never too small
		assertEquals(AccessRange.WHOLE, word("slice_copy", 0).readRange());
		assertEquals(AccessRange.WHOLE, word("slice_copy", 1).writeRange());
		assertTrue(word("slice_copy", 1).written());
	}

	@Test
	void gridStrideLoopIsBoundedByItsCondition() {
		// i = tid + ctaid * ntid; while (i < n) { base[off + i] = v; i += ntid * nctaid; }: two definitions of i,
		// the pre-check and the back edge both give i < n
		assertEquals("[4*grid_stride_fill_param_1@8, 4*grid_stride_fill_param_1@8 + 4*grid_stride_fill_param_2@12)",
				word("grid_stride_fill", 0).writeRange().toString());
	}

	@Test
	void tritonMaskedVectorAccessesAreBoundedByTheMask() {
		// offs = pid * 1024 + (tid * 4) & 508 (| 512 for the second half): ors of disjoint bits are sums; each v4
		// load/store is predicated by offs < n: bytes [0, 4 * (n - 1) + 16) of buf (16: the last vector)
		ParamWordAccess buf = word("scale_inplace_kernel", 0);
		assertTrue(buf.read() && buf.written(), buf.toString());
		assertEquals("[0, 4*scale_inplace_kernel_param_1@8 + 12)", buf.writeRange().toString());
		assertEquals("[0, 4*scale_inplace_kernel_param_1@8 + 12)", buf.readRange().toString());
	}

	@Test
	void earlierVerdictsAreUnchanged() {
		// what PtxFlowAnalyzerTest pins for the single-parameter forms still holds
		assertEquals("[0, 4*generic_param_2@16)", word("generic", 1).writeRange().toString());
		assertEquals(AccessRange.WHOLE, word("generic", 0).readRange());
	}
}
