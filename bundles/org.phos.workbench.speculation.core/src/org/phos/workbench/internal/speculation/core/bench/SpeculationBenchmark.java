package org.phos.workbench.internal.speculation.core.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.speculation.core.PartedSpeculation;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.TraceSpeculator;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * Speculation throughput: generates a synthetic trace (1M launches, 10k live allocations by default), loads it, and
 * walks it once per engine and round with a sink that only counts, measuring launches per second of wall and of CPU
 * time (the latter is the stable figure on a shared machine); the figures are the medians over the rounds (the first
 * round includes JIT compilation: run 5 or more). The walk itself (replaying allocations, and tracking copy payloads
 * for engines that use them) is included in each engine's time, and measured alone in the same rounds as
 * {@code walk-only} (without payload tracking) and {@code walk-only+payloads}: the walk is shared when engines run
 * side by side, so each engine's own cost is its time minus the walk it needs, given as its own rate. Usage:
 * {@code SpeculationBenchmark [--launches N] [--live N] [--rounds N] [--trace FILE] [ENGINE...]}.
 */
public final class SpeculationBenchmark {

	/** The launch rate every engine but ptx-flow must reach. */
	public static final double TARGET_LAUNCHES_PER_SECOND = 5e6;

	/**
	 * One engine's figures.
	 *
	 * @param engine the engine (or {@code walk-only})
	 * @param launchesPerSecond median round, wall clock
	 * @param launchesPerCpuSecond median round, thread CPU time
	 * @param accesses accesses emitted in one walk
	 * @param ownLaunchesPerCpuSecond the engine alone (its walk's time subtracted; NaN when not above the walk's)
	 * @param parts the parts of the parted walk (1: not measured)
	 * @param partedLaunchesPerSecond median round of the walk in {@code parts} parts on as many threads, wall clock
	 *        (NaN when not measured)
	 */
	public record EngineFigures(String engine, double launchesPerSecond, double launchesPerCpuSecond, long accesses,
			double ownLaunchesPerCpuSecond, int parts, double partedLaunchesPerSecond) {
	}

	/**
	 * What a run measured.
	 *
	 * @param launches launches in the trace
	 * @param events events in the trace
	 * @param liveAllocations the generator's live allocation target
	 * @param engines per engine
	 */
	public record Figures(long launches, long events, int liveAllocations, List<EngineFigures> engines) {
	}

	private static final class CountingSink implements AccessSink {
		long count;
		long bytes;

		@Override
		public void access(long id, long base, long begin, long end, int mode, int param, int offset) {
			count++;
			bytes += end - begin;
		}
	}

	private SpeculationBenchmark() {
	}

	/**
	 * Measures engines on a trace.
	 *
	 * @param trace the trace
	 * @param liveAllocations what the trace was generated with (for the record)
	 * @param engines engine names
	 * @param rounds rounds per engine (the median is kept)
	 * @param threads threads for the parted walk ({@link PartedSpeculation}), measured after the single walk's
	 *        rounds; 1: not measured
	 * @return the figures
	 */
	public static Figures measure(Trace trace, int liveAllocations, List<String> engines, int rounds, int threads) {
		ThreadMXBean cpuClock = ManagementFactory.getThreadMXBean();
		List<EngineFigures> result = new ArrayList<>();
		List<String> all = new ArrayList<>();
		all.add("walk-only");
		all.add("walk-only+payloads");
		all.addAll(engines);
		double[] walkCpu = new double[2];
		for (String name : all) {
			double[] walls = new double[rounds];
			double[] cpus = new double[rounds];
			long accesses = 0;
			boolean payloads = false;
			for (int r = 0; r < rounds; r++) {
				CountingSink sink = new CountingSink();
				long start = System.nanoTime();
				long cpuStart = cpuClock.getCurrentThreadCpuTime();
				if (name.startsWith("walk-only")) {
					payloads = name.endsWith("+payloads");
					new TraceSpeculator(trace, payloads).run(null, launch -> sink.count++);
					sink.count = 0;
				} else {
					SpeculationEngine engine = EngineRegistry.create(name, trace);
					payloads = engine.usesStoredPointers();
					TraceSpeculator.forEngines(trace, List.of(engine)).run(null,
							launch -> engine.speculate(launch, sink));
				}
				double wall = (System.nanoTime() - start) / 1e9;
				double cpu = (cpuClock.getCurrentThreadCpuTime() - cpuStart) / 1e9;
				walls[r] = trace.launchCount() / wall;
				cpus[r] = trace.launchCount() / cpu;
				accesses = sink.count;
			}
			double cpu = median(cpus);
			double own;
			if (name.startsWith("walk-only")) {
				walkCpu[payloads ? 1 : 0] = cpu;
				own = cpu;
			} else {
				// seconds per launch of the engine alone: its walk's subtracted
				double perLaunch = 1 / cpu - 1 / walkCpu[payloads ? 1 : 0];
				own = perLaunch > 0 ? 1 / perLaunch : Double.NaN; // NaN: no cost above the walk's noise
			}
			int parts = 1;
			double parted = Double.NaN;
			if (!name.startsWith("walk-only")) {
				parts = PartedSpeculation.parts(trace, List.of(EngineRegistry.create(name, trace)), threads);
				if (parts > 1) {
					double[] partedWalls = new double[rounds];
					for (int r = 0; r < rounds; r++) {
						List<SpeculationEngine> one = List.of(EngineRegistry.create(name, trace));
						CountingSink[] sinks = new CountingSink[parts];
						long start = System.nanoTime();
						PartedSpeculation.run(trace, one, parts, null, (part, mine) -> {
							CountingSink sink = new CountingSink();
							sinks[part] = sink;
							SpeculationEngine engine = mine.get(0);
							return launch -> engine.speculate(launch, sink);
						});
						partedWalls[r] = trace.launchCount() / ((System.nanoTime() - start) / 1e9);
						long total = 0;
						for (CountingSink sink : sinks) {
							total += sink.count;
						}
						if (total != accesses) {
							throw new IllegalStateException(name + ": " + parts + " parts emitted " + total
									+ " accesses, one walk " + accesses);
						}
					}
					parted = median(partedWalls);
				}
			}
			result.add(new EngineFigures(name, median(walls), cpu, accesses, own, parts, parted));
			System.out.printf("  measured %-26s %.2f M launches/CPU-s (median), own %.2f, rounds %s%s%n", name,
					cpu / 1e6, own / 1e6, java.util.Arrays.toString(java.util.Arrays.stream(cpus)
							.map(v -> Math.round(v / 1e4) / 100.0).toArray()),
					parts > 1 ? String.format("; %d parts: %.2f M launches/s wall", parts, parted / 1e6) : "");
		}
		return new Figures(trace.launchCount(), trace.eventCount(), liveAllocations, result);
	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		java.util.Arrays.sort(sorted);
		int n = sorted.length;
		return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	}

	/**
	 * @param args options and engine names (default: phos, arg-scan, ptx-flow, arg-scan+indirect,
	 *        ptx-flow/arg-scan, best)
	 * @throws IOException when the trace cannot be written or read
	 */
	public static void main(String[] args) throws IOException {
		long launches = 1_000_000;
		int live = 10_000;
		int rounds = 5;
		int threads = Runtime.getRuntime().availableProcessors();
		Path traceFile = null;
		List<String> engines = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--launches" -> launches = Long.parseLong(args[++i]);
				case "--live" -> live = Integer.parseInt(args[++i]);
				case "--rounds" -> rounds = Integer.parseInt(args[++i]);
				case "--trace" -> traceFile = Path.of(args[++i]);
				case "--threads" -> threads = Integer.parseInt(args[++i]);
				default -> engines.add(args[i]);
			}
		}
		if (engines.isEmpty()) {
			engines = List.of("phos", "arg-scan", "ptx-flow", "arg-scan+indirect", "ptx-flow/arg-scan", "best");
		}
		boolean temporary = traceFile == null;
		Path file = temporary ? Files.createTempFile("speculation-bench", ".phos") : traceFile;
		try {
			if (temporary || !Files.exists(file)) {
				SyntheticTraceOptions options = SyntheticTraceOptions.defaults(launches).withLiveAllocations(live);
				SyntheticTraceGenerator.generate(file, options, null);
			}
			Trace trace = TraceReader.read(file, null).trace();
			Figures f = measure(trace, live, engines, rounds, threads);
			System.out.printf("%d launches, %d events, %d live allocations%n", f.launches(), f.events(),
					f.liveAllocations());
			for (EngineFigures e : f.engines()) {
				boolean exempt = e.engine().startsWith("walk-only") || e.engine().startsWith("ptx-flow")
						|| e.engine().equals("best");
				boolean parted = e.parts() > 1;
				System.out.printf("%-26s %8.2f M launches/s wall  %8.2f M launches/CPU-s  %8s M/CPU-s own  %s  %10d "
						+ "accesses  %s%n", e.engine(), e.launchesPerSecond() / 1e6, e.launchesPerCpuSecond() / 1e6,
						Double.isNaN(e.ownLaunchesPerCpuSecond()) ? "-"
								: String.format("%.2f", e.ownLaunchesPerCpuSecond() / 1e6),
						parted ? String.format("%d parts: %6.2f M launches/s wall", e.parts(),
								e.partedLaunchesPerSecond() / 1e6) : "one part only                  ",
						e.accesses(), exempt ? ""
								: (e.launchesPerCpuSecond() >= TARGET_LAUNCHES_PER_SECOND ? "one walk: meets 5M"
										: "one walk: BELOW 5M")
										+ (e.ownLaunchesPerCpuSecond() >= TARGET_LAUNCHES_PER_SECOND
												? ", own: meets 5M" : ", own: BELOW 5M")
										+ (parted ? (e.partedLaunchesPerSecond() >= TARGET_LAUNCHES_PER_SECOND
												? ", parts: meets 5M" : ", parts: BELOW 5M") : ""));
			}
		} finally {
			if (temporary) {
				Files.deleteIfExists(file);
			}
		}
	}
}
