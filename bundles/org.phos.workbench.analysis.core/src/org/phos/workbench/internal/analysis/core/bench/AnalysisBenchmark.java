package org.phos.workbench.internal.analysis.core.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

import org.phos.workbench.analysis.core.AccessQuery;
import org.phos.workbench.analysis.core.AnalysisSession;
import org.phos.workbench.analysis.core.LaunchQuery;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.speculation.core.PartedSpeculation;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.SpeculationKeyframes;
import org.phos.workbench.speculation.core.TraceSpeculator;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/**
 * Figures of the analysis layer (docs/benchmarks.md, "Analysis layer (issue #11)"), printed one per line.
 * <ul>
 * <li>On TRACE: the heap of the model after load, and after the first page of the Launches table (the view's first
 * query) and a sort by GPU time; the one-time cost of the keyframes ({@link SpeculationKeyframes}) and the heap they
 * take; access queries ({@code best}, {@code phos}) for random launches, each uncached with fresh engines ("cold"),
 * median, p95 and max, with a few walks from the start (the previous way) for comparison; speculation of the whole
 * trace in parallel parts per engine.</li>
 * <li>On TRUTH (a trace with observed accesses, e.g. {@code generate --observed-every 10}), when given: validation
 * of {@code phos} and {@code arg-scan} together over the whole trace, in parts and in one part, in launches of the
 * trace per second of wall time (ground truth indexing and reliability included, trace load excluded); the two
 * reports must be equal.</li>
 * </ul>
 * Usage: {@code java -Xmx8g -cp ... AnalysisBenchmark TRACE [queries] [seed] [TRUTH]}; {@code ./workbench bench
 * analysis} runs it on generated traces.
 */
public final class AnalysisBenchmark {

	/** One figure: name, median value, unit, what else to know. */
	public record Figure(String name, double value, String unit, String detail) {
		@Override
		public String toString() {
			return String.format(Locale.ROOT, "%-44s %12.2f %-14s %s", name, value, unit, detail);
		}
	}

	private AnalysisBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		Path file = Path.of(args[0]);
		int queries = args.length > 1 ? Integer.parseInt(args[1]) : 40;
		long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
		Path truth = args.length > 3 ? Path.of(args[3]) : null;
		for (Figure f : run(file, queries, seed, truth)) {
			System.out.println(f);
		}
	}

	private static long heap() {
		Runtime rt = Runtime.getRuntime();
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return rt.totalMemory() - rt.freeMemory();
	}

	private static double mib(long bytes) {
		return bytes / 1048576.0;
	}

	private static double median(double[] v) {
		double[] s = v.clone();
		Arrays.sort(s);
		return s[s.length / 2];
	}

	private static double p95(double[] v) {
		double[] s = v.clone();
		Arrays.sort(s);
		return s[Math.min(s.length - 1, (int) Math.ceil(s.length * 0.95) - 1)];
	}

	/**
	 * Measures.
	 *
	 * @param file the trace (no truth needed)
	 * @param queries how many random launches to query
	 * @param seed picks them
	 * @param truth a trace with observed accesses for the validation figure, or null
	 * @return the figures, in the order measured
	 */
	public static List<Figure> run(Path file, int queries, long seed, Path truth) throws Exception {
		List<Figure> out = new ArrayList<>();
		long t0 = System.nanoTime();
		Trace trace = TraceReader.read(file, null).trace();
		double loadS = (System.nanoTime() - t0) / 1e9;
		String size = String.format(Locale.ROOT, "%,d launches, %,d events", trace.launchCount(), trace.eventCount());
		out.add(new Figure("load (not in the figures below)", loadS, "s", file + ": " + size));
		long model = heap();
		out.add(new Figure("heap: model after load", mib(model), "MiB", ""));

		AnalysisSession session = AnalysisSession.standard();
		t0 = System.nanoTime();
		session.launches(LaunchQuery.page(trace, 0, 100), null);
		double pageMs = (System.nanoTime() - t0) / 1e6;
		long afterPage = heap();
		out.add(new Figure("first Launches page (100 rows)", pageMs, "ms", ""));
		out.add(new Figure("heap: after the first Launches page", mib(afterPage), "MiB",
				String.format(Locale.ROOT, "model + %.1f%%", 100.0 * (afterPage - model) / model)));
		t0 = System.nanoTime();
		session.launches(new LaunchQuery(trace, LaunchQuery.Filter.ALL, LaunchQuery.Sort.parse("-gpu_ns"), null, null,
				trace.launchCount() / 2, 100), null);
		double sortMs = (System.nanoTime() - t0) / 1e6;
		long afterSort = heap();
		out.add(new Figure("Launches sorted by -gpu_ns (order + page)", sortMs, "ms", ""));
		out.add(new Figure("heap: after that sort", mib(afterSort), "MiB",
				String.format(Locale.ROOT, "model + %.1f%%", 100.0 * (afterSort - model) / model)));

		t0 = System.nanoTime();
		SpeculationKeyframes keyframes = session.keyframes(trace, null);
		double keyS = (System.nanoTime() - t0) / 1e9;
		long afterKeyframes = heap();
		out.add(new Figure("keyframes: one-time build per trace", keyS, "s",
				String.format(Locale.ROOT, "%d keyframes every %d events", keyframes.count(), keyframes.interval())));
		out.add(new Figure("heap: after the keyframes", mib(afterKeyframes), "MiB",
				String.format(Locale.ROOT, "keyframes %.0f MiB", mib(afterKeyframes - afterSort))));

		SplittableRandom random = new SplittableRandom(seed);
		double[] ms = new double[queries];
		int[] launches = new int[queries];
		for (int q = 0; q < queries; q++) {
			launches[q] = random.nextInt(trace.launchCount());
			t0 = System.nanoTime();
			session.accesses(new AccessQuery(trace, launches[q], List.of("best", "phos"), List.of()), null);
			ms[q] = (System.nanoTime() - t0) / 1e6;
		}
		out.add(new Figure("accesses (best, phos), random launch, cold", median(ms), "ms median",
				String.format(Locale.ROOT, "p95 %.1f ms, max %.1f ms, first %.1f ms, %d queries", p95(ms),
						Arrays.stream(ms).max().orElse(0), ms[0], queries)));
		// the previous way, for comparison: the engines walked from the start to the launch
		int walks = Math.min(5, queries);
		double[] walkMs = new double[walks];
		for (int q = 0; q < walks; q++) {
			List<SpeculationEngine> engines = List.of(EngineCatalog.standard().create("best", trace),
					EngineCatalog.standard().create("phos", trace));
			t0 = System.nanoTime();
			TraceSpeculator.forEngines(trace, engines).run(null, launches[q], launches[q] + 1, l -> {
				for (SpeculationEngine e : engines) {
					e.speculate(l, (id, base, begin, end, mode, param, offset) -> {
					});
				}
			});
			walkMs[q] = (System.nanoTime() - t0) / 1e6;
		}
		out.add(new Figure("  for comparison: walk from the start", median(walkMs), "ms median",
				String.format(Locale.ROOT, "speculation only, first %d of the same launches", walks)));

		int threads = Runtime.getRuntime().availableProcessors();
		for (String name : List.of("phos", "arg-scan")) {
			List<SpeculationEngine> engines = new ArrayList<>(List.of(EngineCatalog.standard().create(name, trace)));
			int parts = PartedSpeculation.parts(trace, engines, threads);
			LongAdder accesses = new LongAdder();
			t0 = System.nanoTime();
			PartedSpeculation.run(trace, engines, parts, null, (part, partEngines) -> launch -> {
				for (SpeculationEngine e : partEngines) {
					e.speculate(launch, (id, base, begin, end, mode, param, offset) -> accesses.increment());
				}
			});
			double s = (System.nanoTime() - t0) / 1e9;
			out.add(new Figure("speculate " + name + ", whole trace", trace.launchCount() / s / 1e6, "M launches/s",
					String.format(Locale.ROOT, "%d parts, %.2f s wall", parts, s)));
		}
		session.forget(trace);
		trace = null;
		keyframes = null;

		if (truth != null) {
			heap();
			Trace t = TraceReader.read(truth, null).trace();
			long observed = SpeculationValidator.observedLaunchCount(t, null);
			String what = String.format(Locale.ROOT, "%s: %,d launches, %,d observed, %,d records", truth,
					t.launchCount(), observed, t.observedAccesses().size());
			ValidationReport[] reports = new ValidationReport[2];
			int[] partCounts = { PartedSpeculation.parts(t, engines(t), threads), 1 };
			int rounds = 5; // i11-validate: 5 rounds (was 3), the load average given with the figure
			double loadBefore = loadAverage();
			double[][] seconds = new double[2][rounds];
			double[][] cpu = new double[2][rounds];
			for (int r = 0; r < rounds; r++) { // alternating, so that warm-up and load fall on both
				for (int i = 0; i < 2; i++) {
					List<SpeculationEngine> engines = engines(t);
					long c0 = processCpuNanos();
					t0 = System.nanoTime();
					reports[i] = SpeculationValidator.validate(t, engines, null, partCounts[i], null, null);
					seconds[i][r] = (System.nanoTime() - t0) / 1e9;
					cpu[i][r] = (processCpuNanos() - c0) / 1e9;
				}
			}
			double loadAfter = loadAverage();
			for (int i = 0; i < 2; i++) {
				double s = median(seconds[i]);
				out.add(new Figure("validate phos,arg-scan, whole trace", t.launchCount() / s / 1e6,
						"M launches/s", String.format(Locale.ROOT,
								"%d part%s, median of %d: %.2f s wall %s, process CPU %.2f s %s; %s", partCounts[i],
								partCounts[i] == 1 ? "" : "s", rounds, s,
								Arrays.toString(Arrays.stream(seconds[i]).map(x -> Math.round(x * 100) / 100.0)
										.toArray()),
								median(cpu[i]), Arrays.toString(Arrays.stream(cpu[i])
										.map(x -> Math.round(x * 100) / 100.0).toArray()), what)
								+ String.format(Locale.ROOT, "; load average %.2f before, %.2f after", loadBefore,
										loadAfter)));
			}
			if (!reports[0].engines().equals(reports[1].engines()) || reports[0].observedLaunches() != observed) {
				throw new IllegalStateException("the report in parts differs from the one-part report");
			}
		}
		return out;
	}

	/** The system's load average of the last minute, or -1 where the JVM does not tell. */
	private static double loadAverage() {
		return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
	}

	/** CPU time of the whole process (every thread, GC and JIT included), or 0 when the JVM does not tell. */
	private static long processCpuNanos() {
		return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
				instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : 0;
	}

	private static List<SpeculationEngine> engines(Trace t) {
		return new ArrayList<>(List.of(EngineCatalog.standard().create("phos", t),
				EngineCatalog.standard().create("arg-scan", t)));
	}
}
