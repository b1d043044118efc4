package org.phos.workbench.analysis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.analysis.core.summary.TraceSummary;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.GpuTimingSampling;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;

/**
 * i15-cost: a trace recorded with sampled GPU timing: the overview, the summary ({@code info}) and the Kernels rows
 * give each kernel the GPU time estimated over all its launches, and the overview's header says so.
 */
class SampledGpuTimeTest {

	/** Kernel 1: 4 launches of one shape, 2 timed (100, 300 ns) -> 800 ns; kernel 2: 2 launches, 1 timed (50) -> 100. */
	private static Trace trace(boolean sampled) {
		TraceHeader.Builder h = TraceHeader.builder("phos-recorder", "t").gpuTiming(true);
		if (sampled) {
			h.timingSampling(new GpuTimingSampling(true, 1, 2, 2, 10, "function+grid+block"));
		}
		Trace.Builder b = Trace.builder(h.build());
		b.function(new FunctionInfo(1, 0, "k1", "", List.of()));
		b.function(new FunctionInfo(2, 0, "k2", "", List.of()));
		long[][] l = { { 1, 100 }, { 1, -1 }, { 1, 300 }, { 1, -1 }, { 2, 50 }, { 2, -1 } };
		for (int i = 0; i < l.length; i++) {
			long start = l[i][1] < 0 ? 0 : 1000 + i * 1000L;
			long end = l[i][1] < 0 ? 0 : start + l[i][1];
			b.event(new TraceEvent.Launch(i, 1, (int) l[i][0], new Dim3(4, 1, 1), new Dim3(32, 1, 1), 0, 0, new byte[0],
					start, end, LaunchKind.PLAIN, -1));
		}
		return b.build();
	}

	@Test
	void kernelsOfASampledTraceGetTheirEstimatedTime() {
		Trace t = trace(true);
		Overview o = AnalysisSession.standard().overview(new OverviewQuery(t, 5, 10), null);
		assertEquals(List.of(800L, 100L), o.kernels().stream().map(Overview.KernelTime::gpuNs).toList());
		assertTrue(o.header().get("GPU times").startsWith("sampled: each launch shape's first 1 launches"),
				o.header().toString());
		TraceSummary s = TraceSummary.of(t, 5);
		assertEquals(List.of(800L, 100L), s.kernelsByGpuTime().stream().map(TraceSummary.KernelStats::gpuNs).toList());
		assertEquals(List.of(800L, 100L), AnalysisSession.standard().kernels(new KernelQuery(t, List.of(), null), null)
				.rows().stream().map(KernelRow::gpuNs).toList());
	}

	@Test
	void withoutSamplingOnlyMeasuredLaunchesCount() {
		Trace t = trace(false);
		Overview o = AnalysisSession.standard().overview(new OverviewQuery(t, 5, 10), null);
		assertEquals(List.of(400L, 50L), o.kernels().stream().map(Overview.KernelTime::gpuNs).toList());
		assertTrue(!o.header().containsKey("GPU times"));
		assertEquals(List.of(400L, 50L),
				TraceSummary.of(t, 5).kernelsByGpuTime().stream().map(TraceSummary.KernelStats::gpuNs).toList());
	}
}
