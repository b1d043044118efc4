package org.phos.workbench.analysis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.ObservedIndex;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceReader;

/** The overview adds up to what the trace holds, and its memory curve keeps the peak. */
class OverviewTest {

	private static Trace load(String name) throws IOException {
		Path file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
		assumeTrue(Files.isRegularFile(file), file + " missing (set -Dphos.repo to the repository root)");
		return TraceReader.read(file, null).trace();
	}

	@ParameterizedTest
	@ValueSource(strings = { "cupy-ops.phos", "ptx-driver.phos", "cuda-suite.phos" })
	void overviewAddsUpToTheTrace(String sample) throws IOException {
		Trace trace = load(sample);
		Overview o = AnalysisSession.standard().overview(new OverviewQuery(trace, 3, 50), null);
		long launches = o.kernels().stream().mapToLong(Overview.KernelTime::launches).sum()
				+ (o.otherKernels() == null ? 0 : o.otherKernels().launches());
		assertEquals(trace.launchCount(), launches);
		assertTrue(o.kernels().size() <= 3);
		for (int i = 1; i < o.kernels().size(); i++) {
			assertTrue(o.kernels().get(i - 1).gpuNs() >= o.kernels().get(i).gpuNs(), "by GPU time, most first");
		}
		assertEquals(trace.launchCount(), o.streams().stream().mapToLong(Overview.StreamLaunches::launches).sum());
		assertEquals(trace.count(EventKind.ALLOC), o.memory().allocations());
		assertEquals(trace.count(EventKind.ALLOC),
				o.memory().byKind().values().stream().mapToLong(Overview.KindMemory::allocations).sum());
		assertTrue(o.memory().curve().size() <= 50 && !o.memory().curve().isEmpty());
		long curveMax = o.memory().curve().stream()
				.mapToLong(s -> java.util.Arrays.stream(s.liveBytesByKind()).sum()).max().orElse(0);
		assertEquals(o.memory().peakLiveBytes(), curveMax, "the curve keeps the peak");
		ObservedIndex index = ObservedIndex.of(trace, null);
		assertEquals(index.recordCount(), o.truth().records());
		assertEquals(index.recordCount(), o.truth().recordsByTool().values().stream().mapToLong(Long::longValue).sum());
		assertEquals(index.launchCount(), o.truth().launches());
		assertTrue(o.header().get("recorder").startsWith(trace.header().recorder() + " "));
		assertEquals(trace.eventCount(), o.counts().values().stream().mapToInt(Integer::intValue).sum());
	}

	@Test
	void peakAndKindsOfAHandBuiltTrace() {
		Trace trace = Trace.builder(TraceHeader.builder("test", "1").deviceName("GPU").driverVersion(12040).build())
				.event(new TraceEvent.Alloc(0, 0, 0x1000L, 100, AllocKind.PLAIN, 0))
				.event(new TraceEvent.Alloc(1, 0, 0x2000L, 50, AllocKind.MANAGED, 0))
				.event(new TraceEvent.Free(2, 0, 0x1000L, AllocKind.PLAIN, 0))
				.event(new TraceEvent.Alloc(3, 0, 0x3000L, 20, AllocKind.PLAIN, 0)).build();
		Overview o = Overview.of(OverviewQuery.of(trace), null);
		assertEquals(150, o.memory().peakLiveBytes());
		assertEquals(1, o.memory().peakEvent());
		assertEquals(70, o.memory().liveAtEndBytes());
		assertEquals(new Overview.KindMemory(2, 120, 100), o.memory().byKind().get(AllocKind.PLAIN));
		assertEquals(new Overview.KindMemory(1, 50, 50), o.memory().byKind().get(AllocKind.MANAGED));
		assertEquals("driver 12.4, runtime unknown, GPU timing off, payloads up to 0 B", o.header().get("CUDA"));
		assertEquals("no observed accesses: this trace holds no ground truth", o.truth().summary());
	}
}
