package org.phos.workbench.speculation.core.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.phos.workbench.speculation.core.testdata.TestData;

/** Verdicts on hand-written PTX (forms.ptx) and on nvcc 13 -arch=sm_90 output of flow_kernels.cu. */
class PtxFlowAnalyzerTest {

	private static final Map<String, KernelAccessSummary> SUMMARIES = new HashMap<>();

	@BeforeAll
	static void analyse() throws PtxParseException {
		for (String name : new String[] { "forms.ptx", "flow_kernels.ptx" }) {
			for (KernelAccessSummary s : PtxFlowAnalyzer.analyze(PtxParser.parse(name, TestData.read(name)))) {
				SUMMARIES.put(s.kernel(), s);
			}
		}
	}

	private static ParamWordAccess word(String kernel, int param) {
		return SUMMARIES.get(kernel).param(param);
	}

	private static ParamWordAccess word(String kernel, String param, long offset) {
		return SUMMARIES.get(kernel).word(param, offset).orElseThrow();
	}

	private static void assertAccess(ParamWordAccess w, String direction, boolean atomic) {
		assertTrue(w.pointer(), w.toString());
		assertEquals(direction, w.direction(), w.toString());
		assertEquals(atomic, w.atomic(), w.toString());
	}

	private static void assertRange(AccessRange r, long low, String high) {
		AccessRange.Bounded b = (AccessRange.Bounded) r;
		assertEquals(low, b.low());
		assertEquals(high, b.high().toString());
	}

	@Test
	void vectorsNonCoherentAndLdu() {
		assertAccess(word("vectors", 0), "R", false);
		assertRange(word("vectors", 0).readRange(), 16, "32");
		assertAccess(word("vectors", 1), "W", false);
		assertRange(word("vectors", 1).writeRange(), 8, "16");
		assertAccess(word("vectors", 2), "R", false);
		assertRange(word("vectors", 2).readRange(), 0, "4");
	}

	@Test
	void genericAddressesAndPredicatedStore() {
		assertAccess(word("generic", 0), "R", false);
		assertEquals(AccessRange.WHOLE, word("generic", 0).readRange());
		assertAccess(word("generic", 1), "W", false);
		assertRange(word("generic", 1).writeRange(), 0, "4*generic_param_2@16");
		assertFalse(word("generic", 2).pointer());
	}

	@Test
	void atomicsAndReductions() {
		assertAccess(word("atomics", 0), "RW", true);
		assertAccess(word("atomics", 1), "RW", true);
		assertRange(word("atomics", 1).writeRange(), 4, "8");
		assertAccess(word("atomics", 2), "RW", true);
		assertRange(word("atomics", 2).writeRange(), 0, "8");
	}

	@Test
	void asyncAndBulkCopies() {
		assertAccess(word("async_forms", 0), "R", false);
		assertRange(word("async_forms", 0).readRange(), 0, "32");
		assertAccess(word("async_forms", 1), "R", false);
		assertRange(word("async_forms", 1).readRange(), 0, "256");
		assertAccess(word("async_forms", 2), "W", false);
		assertRange(word("async_forms", 2).writeRange(), 0, "128");
		assertAccess(word("async_forms", 3), "RW", true);
		assertRange(word("async_forms", 3).writeRange(), 64, "128");
	}

	@Test
	void structWordsHoldingPointersWithABoundFromAnotherWord() {
		ParamWordAccess in = word("struct_param", "struct_param_param_0", 0);
		ParamWordAccess out = word("struct_param", "struct_param_param_0", 8);
		ParamWordAccess count = word("struct_param", "struct_param_param_0", 16);
		assertAccess(in, "R", false);
		assertAccess(out, "W", false);
		assertFalse(count.pointer());
		assertEquals(8, out.offset());
		assertRange(out.writeRange(), 0, "8*struct_param_param_0@16");
		ByteBuffer params = ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 1000);
		assertEquals(8000, ((AccessRange.Bounded) out.writeRange()).high().evaluate(params));
	}

	@Test
	void indirectPointersTexturesSurfacesAndSpills() {
		ParamWordAccess table = word("indirect_tex", 0);
		assertAccess(table, "R", false);
		assertTrue(table.indirectWritten());
		assertTrue(word("indirect_tex", 1).unknown());
		assertEquals("R", word("indirect_tex", 1).direction());
		assertTrue(word("indirect_tex", 2).unknown());
		assertTrue(word("indirect_tex", 2).written());
		assertAccess(word("spill", 0), "W", false);
		assertEquals(AccessRange.WHOLE, word("spill", 0).writeRange());
		assertFalse(word("spill", 1).pointer());
	}

	@Test
	void nvccSaxpyAndStructCopy() {
		assertFalse(word("saxpy", 0).pointer());
		assertFalse(word("saxpy", 1).pointer());
		assertAccess(word("saxpy", 2), "R", false);
		assertRange(word("saxpy", 2).readRange(), 0, "4*saxpy_param_0@0");
		assertAccess(word("saxpy", 3), "RW", false);
		assertRange(word("saxpy", 3).writeRange(), 0, "4*saxpy_param_0@0");
		assertAccess(word("struct_copy", "struct_copy_param_0", 0), "R", false);
		assertAccess(word("struct_copy", "struct_copy_param_0", 8), "W", false);
		assertFalse(word("struct_copy", "struct_copy_param_0", 16).pointer());
		assertRange(word("struct_copy", "struct_copy_param_0", 8).writeRange(), 0, "4*struct_copy_param_0@16");
	}

	@Test
	void nvccPointerWordsInsideAMixedStruct() {
		assertFalse(word("mixed_struct", "mixed_struct_param_0", 0).pointer());
		assertAccess(word("mixed_struct", "mixed_struct_param_0", 8), "W", false);
		assertFalse(word("mixed_struct", "mixed_struct_param_0", 16).pointer());
		assertAccess(word("mixed_struct", "mixed_struct_param_0", 24), "R", false);
		assertRange(word("mixed_struct", "mixed_struct_param_0", 24).readRange(), 0, "256");
	}

	@Test
	void nvccAtomicsIndirectionAndConstCasts() {
		assertAccess(word("counter", 0), "RW", true);
		assertAccess(word("counter", 1), "R", false);
		assertAccess(word("reduce_max", 0), "RW", true);
		assertTrue(word("gather_ptrs", 0).indirectWritten());
		assertEquals("R", word("gather_ptrs", 0).direction());
		// const in the signature but written: the PTX says write
		assertAccess(word("sloppy_const", 0), "W", false);
		// non-const in the signature but only read: the PTX says read
		assertAccess(word("read_only_nonconst", 0), "R", false);
		assertRange(word("read_only_nonconst", 0).readRange(), 0, "128");
	}

	@Test
	void nvccVectorsLoopsUnusedParamsAndAsyncCopies() {
		assertRange(word("vec4_copy", 1).writeRange(), 0, "16*vec4_copy_param_2@16");
		assertAccess(word("grid_stride", 0), "RW", false);
		assertEquals(AccessRange.WHOLE, word("grid_stride", 0).writeRange());
		assertRange(word("fixed_slots", 0).writeRange(), 12, "16");
		assertRange(word("fixed_slots", 1).readRange(), 4, "12");
		assertFalse(word("fixed_slots", 2).pointer());
		assertFalse(word("fixed_slots", 3).pointer());
		assertAccess(word("async_copy", 0), "R", false);
		assertAccess(word("async_copy", 1), "W", false);
		assertAccess(word("row_major", 0), "W", false);
		assertFalse(word("row_major", 1).pointer());
	}

	@Test
	void callsAreUnknownNotDropped() {
		assertTrue(word("calls_helper", 0).unknown());
	}
}
