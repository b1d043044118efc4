package org.phos.workbench.internal.cli.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.phos.workbench.internal.cli.bench.ExportBenchmark.ExportFigures;
import org.phos.workbench.trace.core.export.TraceChromeExporter;
import org.phos.workbench.trace.core.export.CsvExporter;
import org.phos.workbench.internal.analysis.core.bench.AnalysisBenchmark;
import org.phos.workbench.internal.cli.util.Human;
import org.phos.workbench.internal.trace.core.bench.AddressLookupBenchmark;
import org.phos.workbench.internal.trace.core.bench.TraceLoadBenchmark;
import org.phos.workbench.internal.trace.core.bench.TraceLoadBenchmark.LoadFigures;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * The benchmarks behind the figures of the foundation issue, on generated traces: loading v1 into the model
 * (launch events per second, heap per launch), address-to-allocation lookups, and the Chrome JSON export (events per
 * second, memory that stays flat as the trace grows). Full sizes follow the issue (1M and 10M launches; 100k live
 * allocations; export at two sizes); {@code quick} shrinks them to seconds for tests (the targets are then not
 * meaningful, and the figures are marked so).
 */
public final class BenchSuite {

	/** Target of the load figure, launch events per second. */
	public static final double LOAD_TARGET = 2e6;
	/** Target of the model size, heap bytes per launch beyond its parameter bytes. */
	public static final double HEAP_TARGET = 64;
	/** Target of the lookup figure, lookups per second. */
	public static final double LOOKUP_TARGET = 20e6;
	/** Target of the export figure, trace events per second. */
	public static final double EXPORT_TARGET = 1e6;
	/** Bytes an export may allocate, whatever the trace size, to count as streaming. */
	public static final long EXPORT_ALLOCATION_LIMIT = 4L << 20;

	private final boolean quick;
	private final Path directory;
	private final PrintStream log;

	/**
	 * @param quick     small sizes (seconds), for tests
	 * @param directory where generated traces and export files go (deleted afterwards)
	 * @param log       one line per step, so that a person sees what runs
	 */
	public BenchSuite(boolean quick, Path directory, PrintStream log) {
		this.quick = quick;
		this.directory = directory;
		this.log = log;
	}

	private static String millions(double perSecond) {
		return String.format(Locale.ROOT, "%.2f M", perSecond / 1e6);
	}

	private static String runs(double[] values, double scale) {
		StringBuilder text = new StringBuilder("[");
		for (int k = 0; k < values.length; k++) {
			text.append(k == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3f", values[k] * scale));
		}
		return text.append(']').toString();
	}

	private static String size(long launches) {
		return launches >= 1_000_000 && launches % 1_000_000 == 0 ? launches / 1_000_000 + "M"
				: launches >= 1_000 && launches % 1_000 == 0 ? launches / 1_000 + "k" : Long.toString(launches);
	}

	private Path generate(long launches, SyntheticTraceOptions options, IProgressMonitor monitor) throws IOException {
		Path file = Files.createTempFile(directory, "phos-bench-" + size(launches) + "-", ".phos");
		long t = System.nanoTime();
		SyntheticTraceGenerator.generate(file, options, monitor);
		log.printf(Locale.ROOT, "  generated %s launches (%s) in %.1f s%n", size(launches),
				Human.bytes(Files.size(file)), (System.nanoTime() - t) / 1e9);
		return file;
	}

	private static void checkCanceled(IProgressMonitor monitor) {
		if (monitor.isCanceled()) {
			throw new OperationCanceledException();
		}
	}

	/** Load speed and model size at 1M and 10M launches (quick: 100k). */
	public List<BenchFigure> traceLoad(IProgressMonitor monitor) throws IOException {
		long[] sizes = quick ? new long[] { 100_000 } : new long[] { 1_000_000, 10_000_000 };
		int[] runCounts = quick ? new int[] { 3 } : new int[] { 5, 5 };
		List<BenchFigure> figures = new ArrayList<>();
		for (int s = 0; s < sizes.length; s++) {
			checkCanceled(monitor);
			long launches = sizes[s];
			log.println("trace-load: " + size(launches) + " launches");
			long t = System.nanoTime();
			Path file = generate(launches, SyntheticTraceOptions.defaults(launches).withSeed(1), monitor);
			double generateSeconds = (System.nanoTime() - t) / 1e9;
			LoadFigures f;
			try {
				f = TraceLoadBenchmark.measure(file, runCounts[s], generateSeconds);
			} finally {
				Files.deleteIfExists(file);
			}
			figures.add(new BenchFigure("load " + size(launches) + " launches", millions(f.medianLaunchesPerSecond())
					+ " launch events/s", f.runs(), ">= 2 M/s", f.medianLaunchesPerSecond() >= LOAD_TARGET,
					"wall s per run " + runs(f.loadSeconds(), 1) + "; per CPU second of the loading thread "
							+ millions(f.medianLaunchesPerCpuSecond()) + "/s; " + Human.count(f.events())
							+ " events, file " + Human.bytes(f.fileBytes())));
			figures.add(new BenchFigure("model heap " + size(launches) + " launches",
					String.format(Locale.ROOT, "%.1f B/launch", f.heapBytesPerLaunch()), 1, "<= 64 B/launch",
					f.heapBytesPerLaunch() <= HEAP_TARGET,
					String.format(Locale.ROOT, "JVM heap after GC with the model held, beyond %s of parameter bytes; "
							+ "column capacities say %.1f B/launch", Human.bytes(f.parameterBytes()),
							f.footprintBytesPerLaunch())));
		}
		return figures;
	}

	/** Address-to-allocation lookups with 100k live allocations. */
	public List<BenchFigure> lookup(IProgressMonitor monitor) {
		checkCanceled(monitor);
		log.println("lookup: 100k live allocations");
		AddressLookupBenchmark.Result r = quick ? AddressLookupBenchmark.run(100_000, 2_000_000, 3, 1, 42)
				: AddressLookupBenchmark.run(100_000);
		return List.of(new BenchFigure("lookups, 100k live allocations",
				millions(r.medianLookupsPerSecond()) + " lookups/s", r.runs(), ">= 20 M/s",
				r.medianLookupsPerSecond() >= LOOKUP_TARGET,
				String.format(Locale.ROOT, "%s lookups per run, %.0f%% hits, runs (M/s) %s",
						Human.count(r.lookupsPerRun()), r.hitFraction() * 100,
						runs(r.runLookupsPerSecond(), 1e-6))));
	}

	/** Chrome JSON (and, for information, CSV) export at two sizes: speed and flat memory. */
	public List<BenchFigure> export(IProgressMonitor monitor) throws IOException {
		long[] sizes = quick ? new long[] { 20_000, 80_000 } : new long[] { 500_000, 2_000_000 };
		int runCount = 3;
		List<BenchFigure> figures = new ArrayList<>();
		List<ExportFigures> chrome = new ArrayList<>();
		for (long launches : sizes) {
			checkCanceled(monitor);
			log.println("export: " + size(launches) + " launches");
			Path file = generate(launches, SyntheticTraceOptions.defaults(launches).withSeed(2), monitor);
			Trace trace;
			try {
				trace = TraceReader.read(file, null).trace();
			} finally {
				Files.deleteIfExists(file);
			}
			ExportFigures json = ExportBenchmark.measure(trace, new TraceChromeExporter(), directory, runCount, 1);
			chrome.add(json);
			figures.add(new BenchFigure("export chrome-json " + size(launches) + " launches",
					millions(json.medianEventsPerSecond()) + " events/s", runCount, ">= 1 M/s",
					json.medianEventsPerSecond() >= EXPORT_TARGET,
					Human.count(json.events()) + " events, " + Human.bytes(json.outputBytes()) + " written; wall s per "
							+ "run " + runs(json.wallSeconds(), 1) + "; per CPU second of the process (both threads) "
							+ millions(json.medianEventsPerCpuSecond()) + "/s"));
			ExportFigures csv = ExportBenchmark.measure(trace, new CsvExporter(), directory, runCount, 1);
			figures.add(new BenchFigure("export csv " + size(launches) + " launches",
					millions(csv.medianEventsPerSecond()) + " events/s", runCount, "", true,
					Human.bytes(csv.outputBytes()) + " written; per CPU second " + millions(
							csv.medianEventsPerCpuSecond()) + "/s"));
		}
		StringBuilder memory = new StringBuilder();
		boolean flat = true;
		for (int s = 0; s < sizes.length; s++) {
			ExportFigures f = chrome.get(s);
			memory.append(s == 0 ? "" : "; ").append(size(sizes[s])).append(" launches: allocated ")
					.append(f.allocatedBytes() < 0 ? "unknown" : Human.bytes(f.allocatedBytes()))
					.append(", peak heap growth ").append(Human.bytes(f.peakHeapGrowthBytes()));
			flat &= f.allocatedBytes() >= 0 && f.allocatedBytes() < EXPORT_ALLOCATION_LIMIT;
		}
		ExportFigures largest = chrome.get(chrome.size() - 1);
		figures.add(new BenchFigure("export memory (" + size(sizes[0]) + " vs " + size(sizes[sizes.length - 1]) + ")",
				(largest.allocatedBytes() < 0 ? "?" : Human.bytes(largest.allocatedBytes())) + " allocated", 1,
				"< 4 MiB at every size", flat, memory.toString()));
		return figures;
	}

	/** Target of the access query of a random launch, cold, milliseconds (median). */
	public static final double ACCESSES_TARGET_MS = 50;
	/** Target of the validation of a whole trace (phos and arg-scan), launches per second of wall time. */
	public static final double VALIDATE_TARGET = 5e6;
	/** Heap after the first Launches page may exceed the model's by this fraction. */
	public static final double LAUNCHES_HEAP_TARGET = 0.15;

	/**
	 * The analysis layer's figures (issue #11) on one generated trace of 10M launches (quick: 100k) with synthetic
	 * ground truth for every 10th launch ({@code generate --observed-every 10}): {@link AnalysisBenchmark}.
	 */
	public List<BenchFigure> analysis(IProgressMonitor monitor) throws Exception {
		checkCanceled(monitor);
		long launches = quick ? 100_000 : 10_000_000;
		log.println("analysis: " + size(launches) + " launches, observed every 10th");
		Path file = generate(launches, SyntheticTraceOptions.defaults(launches).withSeed(1).withObservedEvery(10),
				monitor);
		int queries = quick ? 10 : 40;
		List<AnalysisBenchmark.Figure> measured;
		try {
			measured = AnalysisBenchmark.run(file, queries, 1, file);
		} finally {
			Files.deleteIfExists(file);
		}
		List<BenchFigure> figures = new ArrayList<>();
		double model = 0;
		for (AnalysisBenchmark.Figure f : measured) {
			String value = String.format(Locale.ROOT, "%.2f %s", f.value(), f.unit());
			String name = f.name() + " " + size(launches);
			if (f.name().startsWith("heap: model")) {
				model = f.value();
			}
			if (f.name().startsWith("accesses")) {
				figures.add(new BenchFigure(name, value, queries, "<= 50 ms", f.value() <= ACCESSES_TARGET_MS,
						f.detail()));
			} else if (f.name().startsWith("validate") && !f.detail().startsWith("1 part,")) {
				figures.add(new BenchFigure(name, value, 3, ">= 5 M/s", f.value() * 1e6 >= VALIDATE_TARGET,
						f.detail()));
			} else if (f.name().equals("heap: after the first Launches page")) {
				figures.add(new BenchFigure(name, value, 1, "<= model + 15%",
						f.value() <= model * (1 + LAUNCHES_HEAP_TARGET), f.detail()));
			} else {
				figures.add(new BenchFigure(name, value, 1, "", true, f.detail()));
			}
		}
		return figures;
	}

	// i12-exp-core: begin
	/** Target of the workbench's experiment path against {@code simulate}'s time (issue #12). */
	public static final double EXPERIMENT_RATIO_TARGET = 1.2;
	/** Longest interval between two progress reports of an experiment, milliseconds. */
	public static final double EXPERIMENT_GAP_TARGET_MS = 250;
	/** Longest time from cancel to the experiment's return, milliseconds. */
	public static final double EXPERIMENT_CANCEL_TARGET_MS = 200;

	/**
	 * Issue #12's experiment figures on a generated trace of 1M launches (quick: 20k): {@link ExperimentBenchmark}
	 * with soft-cow at the middle launch, sets placeholder and engine:phos (two runs, one speculation pass).
	 */
	public List<BenchFigure> experiment(IProgressMonitor monitor) throws IOException {
		checkCanceled(monitor);
		long launches = quick ? 20_000 : 1_000_000;
		int rounds = quick ? 2 : 5;
		int cancels = quick ? 3 : 8;
		log.println("experiment: " + size(launches) + " launches, " + rounds + " interleaved rounds, " + cancels
				+ " cancels");
		Path file = generate(launches, SyntheticTraceOptions.defaults(launches).withSeed(1), monitor);
		org.phos.workbench.analysis.core.experiment.ExperimentConfig config = experimentConfig(launches);
		ExperimentBenchmark.Result r;
		try {
			r = ExperimentBenchmark.run(file, config, rounds, cancels, directory, log);
		} finally {
			Files.deleteIfExists(file);
		}
		String what = "simulate " + size(launches) + " --policy " + config.policies() + " --at " + config.at()
				+ " --sets " + config.sets();
		List<BenchFigure> figures = new ArrayList<>();
		figures.add(new BenchFigure("experiment: workbench / simulate " + size(launches),
				String.format(Locale.ROOT, "%.2fx", r.ratioWithLoad()), rounds, "<= 1.2x",
				r.ratioWithLoad() <= EXPERIMENT_RATIO_TARGET,
				String.format(Locale.ROOT, "%s; medians: simulate %.2f s, workbench load %.2f s + run and save "
						+ "%.2f s (run and save alone %.2fx); simulate s %s; load s %s; run and save s %s", what,
						ExperimentBenchmark.median(r.cliSeconds()), ExperimentBenchmark.median(r.loadSeconds()),
						ExperimentBenchmark.median(r.createSeconds()), r.ratio(), runs(r.cliSeconds(), 1),
						runs(r.loadSeconds(), 1), runs(r.createSeconds(), 1))));
		figures.add(new BenchFigure("experiment: longest progress gap " + size(launches),
				String.format(Locale.ROOT, "%.0f ms", r.maxGapMs()), rounds, "<= 250 ms",
				r.maxGapMs() <= EXPERIMENT_GAP_TARGET_MS, "the longest, all rounds, in phase '" + r.gapPhase()
						+ "'; " + r.reports() + " reports in one run"));
		figures.add(new BenchFigure("experiment: cancel " + size(launches),
				String.format(Locale.ROOT, "%.1f ms", r.maxCancelMs()), (int) r.cancelled(), "<= 200 ms (max)",
				r.cancelled() > 0 && r.maxCancelMs() <= EXPERIMENT_CANCEL_TARGET_MS,
				"setCanceled(true) to return, max of the " + r.cancelled() + " trials cancelled of " + cancels
						+ " (median " + String.format(Locale.ROOT, "%.1f ms", r.medianCancelMs()) + "); ms per trial "
						+ runs(r.cancelMs(), 1) + " (NaN: finished first) at ms " + runs(r.cancelAtMs(), 1)
						+ " into the run; nothing saved after a cancel"));
		return figures;
	}

	/** soft-cow at the middle launch, observed-less sets: the placeholder and the phos engine (two runs). */
	static org.phos.workbench.analysis.core.experiment.ExperimentConfig experimentConfig(long launches) {
		return new org.phos.workbench.analysis.core.experiment.ExperimentConfig("soft-cow",
				"launch:" + launches / 2, "h100", "placeholder,engine:phos", 1600);
	}
	// i12-exp-core: end

	/** The figure names {@code bench} accepts, in the order {@code all} runs them. */
	public static final List<String> FIGURES = List.of("trace-load", "lookup", "export", "analysis", "experiment");

	public List<BenchFigure> run(String which, IProgressMonitor monitor) throws IOException {
		try {
			return runChecked(which, monitor);
		} catch (IOException | RuntimeException e) {
			throw e;
		} catch (Exception e) {
			throw new IOException(e.getMessage(), e);
		}
	}

	private List<BenchFigure> runChecked(String which, IProgressMonitor monitor) throws Exception {
		List<BenchFigure> figures = new ArrayList<>();
		for (String figure : which.equals("all") ? FIGURES : List.of(which)) {
			switch (figure) {
			case "trace-load" -> figures.addAll(traceLoad(monitor));
			case "lookup" -> figures.addAll(lookup(monitor));
			case "export" -> figures.addAll(export(monitor));
			case "analysis" -> figures.addAll(analysis(monitor));
			case "experiment" -> figures.addAll(experiment(monitor)); // i12-exp-core
			default -> throw new IllegalArgumentException("unknown figure " + figure + "; known: " + FIGURES);
			}
		}
		return figures;
	}

}
