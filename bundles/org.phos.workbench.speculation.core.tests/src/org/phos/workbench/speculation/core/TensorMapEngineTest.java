package org.phos.workbench.speculation.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.trace.core.ArrayOp;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.TensorMapKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceReader;

/**
 * The {@code tma} engine and the {@code +tma} modifier (issue 16): a tensor map passed by value is matched by its 128
 * bytes against the trace's {@code cuTensorMapEncode*} calls and read as a pointer with the map's exact byte extent.
 */
class TensorMapEngineTest {

	private static List<LaunchSpeculation> speculate(Trace trace, String spec) {
		SpeculationEngine e = EngineCatalog.standard().create(spec, trace);
		List<LaunchSpeculation> out = new ArrayList<>();
		TraceSpeculator.forEngines(trace, List.of(e)).run(null, l -> out.add(LaunchSpeculation.collect(e, l)));
		return out;
	}

	private static Trace sample(String name) throws IOException {
		Path p = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
		assumeTrue(Files.isRegularFile(p), p + " missing (set -Dphos.repo to the repository root)");
		return TraceReader.read(p, null).trace();
	}

	@Test
	void theH100TmaKernelGetsBothTensorsWithTheirExactExtent() throws IOException {
		Trace t = sample("hopper-extras.phos");
		List<Integer> maps = new ArrayList<>();
		for (int i = 0; i < t.eventCount(); i++) {
			if (t.kind(i) == EventKind.TENSOR_MAP) {
				maps.add(i);
			}
		}
		long a = t.tensorMap(maps.get(0)).address(), b = t.tensorMap(maps.get(1)).address();
		long extent = 127L * 1280 + 256 * 4; // 256 x 128 floats, rows 1280 bytes apart: 256 bytes short of the allocation
		for (String spec : List.of("tma", "arg-scan+tma", "best+tma")) {
			List<LaunchSpeculation> all = speculate(t, spec);
			LaunchSpeculation tma = all.stream().filter(l -> t.functionById(t.functionId(l.launchEvent())).mangledName()
					.contains("tma_scale")).findFirst().orElseThrow();
			assertTrue(tma.covered(), spec);
			List<SpeculatedAccess> exact = tma.accesses().stream().filter(x -> !x.wholeAllocation()).toList();
			assertEquals(2, exact.size(), spec + ": " + tma.accesses());
			assertEquals(a, exact.get(0).begin(), spec);
			assertEquals(a + extent, exact.get(0).end(), spec);
			assertEquals(b, exact.get(1).begin(), spec);
			assertEquals(b + extent, exact.get(1).end(), spec);
			assertEquals(0, exact.get(0).paramIndex(), spec + ": the first parameter");
			assertEquals(1, exact.get(1).paramIndex(), spec + ": the second parameter");
			assertTrue(exact.get(0).read() && exact.get(0).written(), spec + ": a map serves loads and stores alike");
			if (spec.equals("tma")) {
				// the graph's add_one takes a plain pointer, no map: tma alone does not speak for it
				assertTrue(all.stream().filter(l -> l != tma).noneMatch(LaunchSpeculation::covered), all.toString());
			} else {
				assertTrue(all.stream().allMatch(LaunchSpeculation::covered), spec + ": the base engine covers the rest");
			}
		}
		assertEquals(0, speculate(t, "arg-scan").stream().flatMap(l -> l.accesses().stream())
				.filter(x -> !x.wholeAllocation() && x.begin() == a && x.end() == a + extent).count(),
				"no other engine gets the byte-exact range");
	}

	@Test
	void aMapMatchesOnlyAfterItIsEncodedAndOnlyIntoLiveMemory() {
		byte[] map = new byte[128];
		for (int i = 0; i < map.length; i++) {
			map[i] = (byte) (31 * i + 5);
		}
		long base = 0x7f00_0000_0000L;
		FunctionInfo f = new FunctionInfo(1, 0, "k", "", List.of(new ParamInfo(0, 128), new ParamInfo(128, 8)));
		byte[] params = new byte[136];
		System.arraycopy(map, 0, params, 0, 128);
		TraceEvent.Launch launch = new TraceEvent.Launch(0, 1, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0, params,
				0, 0, LaunchKind.PLAIN, 0);
		Trace t = Trace.builder(TraceHeader.builder("phos-test", "1").build()).function(f)
				.event(new TraceEvent.Alloc(0, 1, base, 8192, org.phos.workbench.trace.core.AllocKind.PLAIN, 0))
				.event(launch) // before the map exists: no match
				.event(new TraceEvent.TensorMap(0, 1, TensorMapKind.TILED, base + 1024, 7, 2, new long[] { 64, 8 },
						new long[] { 512 }, new int[] { 32, 8 }, new int[] { 1, 1 }, 0, 0, 0, 0, map, 7 * 512 + 256))
				.event(launch) // now the map's extent
				.event(new TraceEvent.Free(0, 1, base, org.phos.workbench.trace.core.AllocKind.PLAIN, 0))
				.event(launch) // its memory is gone: nothing
				.event(new TraceEvent.CudaArray(0, 1, ArrayOp.CREATE, 0x5000, 64, 0x20, 1, 16, 0, 0, 0))
				.event(new TraceEvent.Memcpy(0, 1, CopyKind.H2A, 0x1000, 0x5000, 64, 0, false, new byte[0], 0, 0))
				.build();
		List<LaunchSpeculation> out = speculate(t, "tma");
		assertEquals(3, out.size());
		assertFalse(out.get(0).covered());
		assertTrue(out.get(1).covered());
		assertEquals(List.of(new SpeculatedAccess(0, base, base + 1024, base + 1024 + 7 * 512 + 256, true, true, false,
				false, 0, 0)), out.get(1).accesses());
		assertFalse(out.get(2).covered());
	}
}
