package org.phos.workbench.speculation.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.speculation.core.TraceFixture.words;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.speculation.core.testdata.TestData;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.Trace;

/** Each engine on small traces whose right answer is known by construction. */
class EnginesTest {

	static final long A = 0x7f00_0000_0000L; // 4 KiB, plain
	static final long B = 0x7f00_0001_0000L; // 64 KiB, plain
	static final long M = 0x7f00_0010_0000L; // 4 KiB, managed
	static final String TYPED = "_Z4testPKfPfi"; // test(float const*, float*, int)

	private static TraceFixture withAllocations(int[] ids) {
		TraceFixture f = TraceFixture.create();
		ids[0] = f.alloc(A, 4096);
		ids[1] = f.alloc(B, 65536);
		ids[2] = f.alloc(M, 4096, AllocKind.MANAGED);
		return f;
	}

	private static void assertAccess(SpeculatedAccess a, long id, long begin, long end, String direction,
			boolean whole, int param, int offset) {
		assertEquals(id, a.allocationId(), a.toString());
		assertEquals(begin, a.begin(), a.toString());
		assertEquals(end, a.end(), a.toString());
		assertEquals(direction, a.direction(), a.toString());
		assertEquals(whole, a.wholeAllocation(), a.toString());
		assertEquals(param, a.paramIndex(), a.toString());
		assertEquals(offset, a.paramOffset(), a.toString());
	}

	@Test
	void argScanMatchesAlignedWordsAgainstEveryKindOfAllocation() {
		int[] ids = new int[3];
		TraceFixture f = withAllocations(ids).function(1, 0, TYPED, 0, 8, 8, 8, 16, 4).function(2, 0, "triton_k", 0,
				24);
		f.launch(1, words(A + 16, B, 7));
		f.launch(2, words(5, M + 8, A + 4096)); // A + 4096 is one past A's end: no allocation
		List<LaunchSpeculation> s = TraceFixture.speculate(f.build(), "arg-scan");
		assertEquals(2, s.get(0).accesses().size());
		assertAccess(s.get(0).accesses().get(0), ids[0], A, A + 4096, "RW", true, 0, 0);
		assertAccess(s.get(0).accesses().get(1), ids[1], B, B + 65536, "RW", true, 1, 8);
		assertEquals(1, s.get(1).accesses().size());
		assertAccess(s.get(1).accesses().get(0), ids[2], M, M + 4096, "RW", true, 0, 8);
	}

	@Test
	void argScanSeesOnlyLiveAllocations() {
		TraceFixture f = TraceFixture.create();
		int a = f.alloc(A, 4096);
		f.function(1, 0, "k", 0, 8);
		f.launch(1, words(A));
		f.free(A);
		f.launch(1, words(A));
		int again = f.alloc(A, 128);
		f.launch(1, words(A + 8));
		List<LaunchSpeculation> s = TraceFixture.speculate(f.build(), "arg-scan");
		assertEquals(a, s.get(0).accesses().get(0).allocationId());
		assertTrue(s.get(1).accesses().isEmpty());
		assertAccess(s.get(2).accesses().get(0), again, A, A + 128, "RW", true, 0, 0);
	}

	@Test
	void phosTypesPointersBySignatureAndIgnoresManagedMemory() {
		int[] ids = new int[3];
		TraceFixture f = withAllocations(ids).function(1, 0, TYPED, 0, 8, 8, 8, 16, 4);
		f.launch(1, words(A + 16, B, 7));
		f.launch(1, words(M, A, 7));
		List<LaunchSpeculation> s = TraceFixture.speculate(f.build(), "phos");
		assertEquals(2, s.get(0).accesses().size());
		assertAccess(s.get(0).accesses().get(0), ids[0], A, A + 4096, "R", true, 0, 0);
		assertAccess(s.get(0).accesses().get(1), ids[1], B, B + 65536, "RW", true, 1, 8);
		// managed memory is not tracked by PhOS: the const pointer to M is lost
		assertEquals(1, s.get(1).accesses().size());
		assertAccess(s.get(1).accesses().get(0), ids[0], A, A + 4096, "RW", true, 1, 8);
	}

	@Test
	void phosScansUntypedParametersOnTheFirstLaunchOnly() {
		int[] ids = new int[3];
		TraceFixture f = withAllocations(ids).function(2, 0, "triton_k", 0, 8, 8, 8, 16, 4);
		f.launch(2, words(A, 0, 3)); // second pointer null at the first launch
		f.launch(2, words(B, A, 3));
		List<LaunchSpeculation> s = TraceFixture.speculate(f.build(), "phos");
		assertEquals(1, s.get(0).accesses().size());
		assertAccess(s.get(0).accesses().get(0), ids[0], A, A + 4096, "RW", true, 0, 0);
		// the fixed pair (param 0, offset 0) now points at B; A in param 1 is missed
		assertEquals(1, s.get(1).accesses().size());
		assertAccess(s.get(1).accesses().get(0), ids[1], B, B + 65536, "RW", true, 0, 0);
	}

	@Test
	void phosFixesStructOffsetsAtTheFirstLaunch() {
		int[] ids = new int[3];
		TraceFixture f = withAllocations(ids).function(3, 0, "_Z1k6Params", 0, 24); // k(Params)
		f.launch(3, words(3, A + 8, 0));
		f.launch(3, words(B, 4, 0)); // the pointer moved to offset 0: missed
		f.launch(3, words(0, B + 32, 0));
		List<LaunchSpeculation> s = TraceFixture.speculate(f.build(), "phos");
		assertEquals(1, s.get(0).accesses().size());
		assertAccess(s.get(0).accesses().get(0), ids[0], A, A + 4096, "RW", true, 0, 8);
		assertTrue(s.get(1).accesses().isEmpty(), s.get(1).toString());
		assertAccess(s.get(2).accesses().get(0), ids[1], B, B + 65536, "RW", true, 0, 8);
	}

	private static byte[] saxpyParams(int n, long x, long y) {
		ByteBuffer b = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
		b.putInt(0, n).putFloat(4, 2f).putLong(8, x).putLong(16, y);
		return b.array();
	}

	private static TraceFixture saxpyTrace(ModuleInfo module, int[] ids) {
		TraceFixture f = withAllocations(ids).module(module).function(1, module.id(), "saxpy", 0, 4, 4, 4, 8, 8, 16, 8);
		f.launch(1, saxpyParams(10, A + 16, B));
		f.launch(1, saxpyParams(2000, A + 16, B)); // x range runs past A's end: clipped
		return f;
	}

	private static void assertSaxpy(List<LaunchSpeculation> s, int[] ids) {
		assertTrue(s.get(0).covered());
		assertEquals(3, s.get(0).accesses().size(), s.get(0).toString());
		assertAccess(s.get(0).accesses().get(0), ids[0], A + 16, A + 56, "R", false, 2, 8);
		assertAccess(s.get(0).accesses().get(1), ids[1], B, B + 40, "R", false, 3, 16);
		assertAccess(s.get(0).accesses().get(2), ids[1], B, B + 40, "W", false, 3, 16);
		assertAccess(s.get(1).accesses().get(0), ids[0], A + 16, A + 4096, "R", false, 2, 8);
		assertAccess(s.get(1).accesses().get(2), ids[1], B, B + 8000, "W", false, 3, 16);
	}

	@Test
	void ptxFlowBoundsRangesWithScalarArguments() {
		int[] ids = new int[3];
		ModuleInfo ptx = ModuleInfo.of(1, ModuleKind.PTX, TestData.read("flow_kernels.ptx").getBytes(
				StandardCharsets.UTF_8), "cuModuleLoadData");
		assertSaxpy(TraceFixture.speculate(saxpyTrace(ptx, ids).build(), "ptx-flow"), ids);
	}

	@Test
	void ptxFlowReadsPtxFromAFatbinAndSkipsCompressedEntries() {
		int[] ids = new int[3];
		byte[] text = TestData.read("flow_kernels.ptx").getBytes(StandardCharsets.UTF_8);
		byte[] fatbin = fatbin(new byte[][] { new byte[100], text }, new int[] { 2, 1 }, new long[] { 0x8000, 0 });
		ModuleInfo module = ModuleInfo.of(1, ModuleKind.FATBIN, fatbin, "cuModuleLoadFatBinary");
		assertSaxpy(TraceFixture.speculate(saxpyTrace(module, ids).build(), "ptx-flow"), ids);

		byte[] compressed = fatbin(new byte[][] { text }, new int[] { 1 }, new long[] { 0x8000 });
		Trace t = saxpyTrace(ModuleInfo.of(1, ModuleKind.FATBIN, compressed, "x"), ids).build();
		SpeculationEngine e = EngineRegistry.create("ptx-flow", t);
		List<LaunchSpeculation> out = new java.util.ArrayList<>();
		TraceSpeculator.forEngines(t, List.of(e)).run(null, l -> out.add(LaunchSpeculation.collect(e, l)));
		assertFalse(out.get(0).covered());
		assertTrue(out.get(0).accesses().isEmpty());
		assertTrue(e.notes().stream().anyMatch(n -> n.contains("compressed")), e.notes().toString());
	}

	/** A one-container fatbin with 64-byte entry headers. */
	static byte[] fatbin(byte[][] payloads, int[] kinds, long[] flags) {
		int size = 0;
		for (byte[] p : payloads) {
			size += 64 + ((p.length + 7) & ~7);
		}
		ByteBuffer b = ByteBuffer.allocate(16 + size).order(ByteOrder.LITTLE_ENDIAN);
		b.putInt(0xBA55ED50).putShort((short) 1).putShort((short) 16).putLong(size);
		for (int i = 0; i < payloads.length; i++) {
			int at = b.position();
			int padded = (payloads[i].length + 7) & ~7;
			b.putShort(at, (short) kinds[i]).putInt(at + 4, 64).putInt(at + 8, padded)
					.putInt(at + 0x10, payloads[i].length).putInt(at + 0x1c, 90).putLong(at + 0x28, flags[i])
					.putLong(at + 0x38, payloads[i].length);
			b.position(at + 64);
			b.put(payloads[i]);
			b.position(at + 64 + padded);
		}
		return b.array();
	}

	@Test
	void fallbackUsesArgScanWhereThereIsNoPtx() {
		int[] ids = new int[3];
		TraceFixture f = withAllocations(ids).module(ModuleInfo.of(1, ModuleKind.CUBIN, new byte[64], "x"))
				.function(1, 1, TYPED, 0, 8, 8, 8, 16, 4);
		f.launch(1, words(A, B, 1));
		Trace t = f.build();
		LaunchSpeculation alone = TraceFixture.speculate(t, "ptx-flow").get(0);
		assertFalse(alone.covered());
		LaunchSpeculation combined = TraceFixture.speculate(t, "ptx-flow/arg-scan").get(0);
		assertTrue(combined.covered());
		assertEquals("ptx-flow/arg-scan", combined.engine());
		assertEquals(2, combined.accesses().size());
		assertTrue(combined.accesses().stream().allMatch(a -> a.read() && a.written() && a.wholeAllocation()));
	}

	@Test
	void indirectFollowsPointerTablesCopiedFromTheHost() {
		long table = 0x7f00_0020_0000L;
		long table2 = 0x7f00_0030_0000L;
		long c = 0x7f00_0040_0000L;
		int[] ids = new int[3];
		TraceFixture f = withAllocations(ids);
		int t = f.alloc(table, 256);
		int t2 = f.alloc(table2, 256);
		int cid = f.alloc(c, 512, AllocKind.ASYNC);
		f.function(1, 0, "_Z6gatherPPf", 0, 8);
		f.h2d(table, words(A + 64, table2));
		f.h2d(table2 + 8, words(0, c)); // transitively reachable
		f.launch(1, words(table));
		f.h2d(table, words(B, 12345)); // replaces the whole first region
		f.launch(1, words(table));
		Trace trace = f.build();
		List<LaunchSpeculation> s = TraceFixture.speculate(trace, "arg-scan+indirect");
		List<SpeculatedAccess> first = s.get(0).accesses();
		assertEquals(4, first.size(), first.toString());
		assertAccess(first.get(0), t, table, table + 256, "RW", true, 0, 0);
		assertFalse(first.get(0).indirect());
		assertEquals(List.of((long) ids[0], (long) t2, (long) cid),
				first.subList(1, 4).stream().map(SpeculatedAccess::allocationId).toList());
		assertTrue(first.subList(1, 4).stream().allMatch(a -> a.indirect() && a.written() && a.paramIndex() == -1));
		List<SpeculatedAccess> second = s.get(1).accesses();
		assertEquals(List.of((long) t, (long) ids[1]), second.stream().map(SpeculatedAccess::allocationId).toList());
		// without the modifier nothing indirect appears
		assertEquals(1, TraceFixture.speculate(trace, "arg-scan").get(0).accesses().size());
	}

	@Test
	void registryRejectsUnknownNamesWithTheKnownOnes() {
		Trace t = TraceFixture.create().build();
		IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
				() -> EngineRegistry.create("ptx-flow/argscan", t));
		assertTrue(e.getMessage().contains("'argscan'") && e.getMessage().contains("arg-scan"), e.getMessage());
		assertEquals("ptx-flow/arg-scan+indirect+blocks+cublas", EngineRegistry.create("best", t).name());
		assertEquals(List.of("phos", "arg-scan", "ptx-flow"),
				EngineRegistry.engines().stream().limit(3).map(EngineRegistry.EngineInfo::name).toList());
	}
}
