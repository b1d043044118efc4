package org.phos.workbench.internal.analysis.core.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

import org.phos.workbench.analysis.core.AccessQuery;
import org.phos.workbench.analysis.core.AnalysisSession;
import org.phos.workbench.analysis.core.LaunchQuery;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.speculation.core.PartedSpeculation;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/**
 * Figures of the analysis layer on one trace (docs/benchmarks.md, "Analysis layer (issue #11)"): access queries for
 * random launches, each in a fresh session (cold), median and p95; a launch query sorted by GPU time (the order
 * build) and a page read from it; speculation of the whole trace with parallel parts per engine, in launches/s of
 * wall time. Usage: {@code java -Xmx12g -cp ... AnalysisBenchmark TRACE [queries] [seed]}.
 */
public final class AnalysisBenchmark {

	private AnalysisBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		Path file = Path.of(args[0]);
		int queries = args.length > 1 ? Integer.parseInt(args[1]) : 20;
		long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
		long t0 = System.nanoTime();
		Trace trace = TraceReader.read(file, null).trace();
		System.out.printf("loaded %s: %,d events, %,d launches in %.1f s%n", file, trace.eventCount(),
				trace.launchCount(), (System.nanoTime() - t0) / 1e9);
		Runtime rt = Runtime.getRuntime();
		System.gc();
		long heapTrace = rt.totalMemory() - rt.freeMemory();

		AnalysisSession session = AnalysisSession.standard();
		t0 = System.nanoTime();
		var page = session.launches(new LaunchQuery(trace, LaunchQuery.Filter.ALL, LaunchQuery.Sort.parse("-gpu_ns"),
				null, null, trace.launchCount() / 2, 100), null);
		long sortNs = System.nanoTime() - t0;
		t0 = System.nanoTime();
		session.launches(new LaunchQuery(trace, LaunchQuery.Filter.ALL, LaunchQuery.Sort.parse("-gpu_ns"), null, null,
				trace.launchCount() / 3, 100), null);
		long pageNs = System.nanoTime() - t0;
		System.out.printf("launch query sorted by -gpu_ns: order built + page in %.0f ms; another page %.1f ms (%d rows, "
				+ "total %,d)%n", sortNs / 1e6, pageNs / 1e6, page.rows().size(), page.total());

		SplittableRandom random = new SplittableRandom(seed);
		double[] ms = new double[queries];
		for (int q = 0; q < queries; q++) {
			int launch = random.nextInt(trace.launchCount());
			AnalysisSession cold = AnalysisSession.standard();
			t0 = System.nanoTime();
			cold.accesses(new AccessQuery(trace, launch, List.of("best", "phos"), List.of()), null);
			ms[q] = (System.nanoTime() - t0) / 1e6;
		}
		double[] sorted = ms.clone();
		Arrays.sort(sorted);
		System.out.printf("access query (best, phos), cold, %d random launches: median %.0f ms, p95 %.0f ms, max %.0f ms%n",
				queries, sorted[queries / 2], sorted[Math.min(queries - 1, (int) Math.ceil(queries * 0.95) - 1)],
				sorted[queries - 1]);
		System.gc();
		System.out.printf("heap: %.0f MiB after load, %.0f MiB now%n", heapTrace / 1048576.0,
				(rt.totalMemory() - rt.freeMemory()) / 1048576.0);

		for (String name : List.of("phos", "arg-scan")) {
			List<SpeculationEngine> engines = new ArrayList<>(List.of(EngineCatalog.standard().create(name, trace)));
			int parts = PartedSpeculation.parts(trace, engines, rt.availableProcessors());
			LongAdder accesses = new LongAdder();
			t0 = System.nanoTime();
			PartedSpeculation.run(trace, engines, parts, null, (part, partEngines) -> launch -> {
				for (SpeculationEngine e : partEngines) {
					e.speculate(launch, (id, base, begin, end, mode, param, offset) -> accesses.increment());
				}
			});
			double s = (System.nanoTime() - t0) / 1e9;
			System.out.printf("speculate %s over the whole trace in %d parts: %.1f s, %.2fM launches/s wall (%,d accesses)%n",
					name, parts, s, trace.launchCount() / s / 1e6, accesses.sum());
		}
	}
}
