package org.phos.workbench.live;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.internal.live.JCudaExecutor;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * The live C/R checks and figures on a GPU, for the GPU machine's plain classpath (releng/gpu/live.sh):
 * <pre>
 * LiveMain checks WORKDIR RUNS SAMPLE.phos...   surrogate self-test; RUNS randomized runs (every 5th with a planted
 *                                               mis-speculation): concurrent image vs stop-the-world image, bitwise,
 *                                               taken in the same replay; then RUNS more against a second replay
 *                                               stopped at the instant
 * LiveMain figures WORKDIR ROUNDS ALLOCATIONS   pinned D2H bandwidth; then, on a generated trace keeping ALLOCATIONS
 *                                               allocations live (several GB), ROUNDS interleaved rounds of
 *                                               none / stop-the-world / soft-cow: stalls, copy bandwidth, medians
 * LiveMain latest WORKDIR RUNS SAMPLE.phos...   soft recopy and repeated checkpoints: RUNS randomized runs (seeds
 *                                               301.., every 4th planted), each image vs the stop-the-world image of
 *                                               its own instant in the same replay; then RUNS recopies (seeds 401..)
 *                                               against a second replay stopped where the recopy stopped
 * LiveMain calibrate WORKDIR ROUNDS                the machine knobs measured: WORKDIR/machine.txt holds the spec that
 *                                               simulate --machine takes
 * </pre>
 * With {@code -Dphos.driverCheckpoint=HELPER} (native-hooks/live/driver_checkpoint.c), checks add driver checkpoints
 * whose restored buffers must equal the reference, and figures add the driver-checkpoint policy to the rounds.
 * Exit status 1 when a check failed.
 */
public final class LiveMain {
	private LiveMain() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 3) {
			System.err.println("usage: LiveMain checks WORKDIR RUNS SAMPLE.phos... | latest WORKDIR RUNS SAMPLE.phos... | "
					+ "figures WORKDIR ROUNDS ALLOCATIONS | calibrate WORKDIR ROUNDS | sweep WORKDIR ALLOC:ROUNDS:DRIVER... "
					+ "| sizes WORKDIR ALLOC...");
			System.exit(2);
		}
		Path work = Path.of(args[1]);
		Files.createDirectories(work);
		if (args[0].equals("sizes")) { // i13-live2: the sweep's sizes, no device needed
			System.exit(LiveSweep.sizes(work, List.of(args).subList(2, args.length).toArray(String[]::new)));
		}
		int status;
		try (JCudaExecutor gpu = new JCudaExecutor()) {
			System.out.println("device: " + gpu.deviceName() + " (sm_" + gpu.computeCapability() + ")");
			status = switch (args[0]) {
				case "checks" -> checks(gpu, work, Integer.parseInt(args[2]), List.of(args).subList(3, args.length));
				case "figures" -> figures(gpu, work, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
				case "calibrate" -> calibrate(gpu, work, Integer.parseInt(args[2]));
				case "latest" -> latest(gpu, work, Integer.parseInt(args[2]), List.of(args).subList(3, args.length));
				case "sweep" -> LiveSweep.sweep(gpu, work, List.of(args).subList(2, args.length).toArray(String[]::new));
				default -> {
					System.err.println("unknown mode " + args[0]);
					yield 2;
				}
			};
		}
		System.exit(status);
	}

	static LiveChecks.Subject generate(Path work, long seed, long launches, int allocations, int observedEvery)
			throws IOException {
		Path f = work.resolve("gen-s" + seed + "-a" + allocations + "-o" + observedEvery + ".phos");
		SyntheticTraceGenerator.generate(f, SyntheticTraceOptions.defaults(launches).withLiveAllocations(allocations)
				.withObservedEvery(observedEvery).withSeed(seed), null);
		Trace t = TraceReader.read(f, null).trace();
		return new LiveChecks.Subject(f.getFileName().toString(), t, TraceWorkload.withBestAvailableSets(t, "gen"));
	}

	private static int checks(JCudaExecutor gpu, Path work, int runs, List<String> samples) throws Exception {
		int failed = 0;
		String self = LiveChecks.surrogateSelfTest(gpu, (1 << 20) + 13, 42, 7);
		System.out.println("surrogate self-test (1 MiB + 13 bytes at an odd address, pattern vs Java): "
				+ (self == null ? "PASS" : "FAIL " + self));
		failed += self == null ? 0 : 1;
		List<LiveChecks.Subject> subjects = new ArrayList<>();
		// generated traces: 1,000 launches, 24 to 200 live allocations (up to about 2 GB), with and without truth
		long[][] gens = { { 11, 24, 1 }, { 12, 60, 1 }, { 13, 200, 1 }, { 14, 40, 0 }, { 15, 100, 4 } };
		for (long[] g : gens) {
			subjects.add(generate(work, g[0], 1000, (int) g[1], (int) g[2]));
		}
		for (String s : samples) {
			Trace t = TraceReader.read(Path.of(s), null).trace();
			String name = Path.of(s).getFileName().toString();
			subjects.add(new LiveChecks.Subject(name, t, TraceWorkload.withBestAvailableSets(t, name)));
		}
		for (LiveChecks.Subject s : subjects) {
			System.out.println("subject " + s.name() + ": " + s.trace().eventCount() + " events, "
					+ LiveChecks.launches(s.workload()) + " launches");
		}
		List<LiveChecks.Outcome> outcomes = new ArrayList<>();
		int planted = 0;
		int caught = 0;
		for (long seed = 1; seed <= runs; seed++) {
			boolean plant = seed % 5 == 0;
			long t0 = System.nanoTime();
			LiveChecks.Outcome o;
			try {
				o = LiveChecks.randomized(seed, subjects, gpu, plant);
			} catch (ReplayException | RuntimeException e) {
				System.out.println("run seed " + seed + ": FAIL " + e);
				e.printStackTrace(System.out);
				failed++;
				break; // a CUDA error leaves the context unusable
			}
			outcomes.add(o);
			System.out.printf(Locale.ROOT, "run %s (%.1f s)%n", o.line(), (System.nanoTime() - t0) / 1e9);
			if (o.planted() >= 0) {
				planted++;
				caught += o.validationFallbacks() > 0 ? 1 : 0;
			}
		}
		// the same draws against a second replay stopped at the instant (seeds 101..100+RUNS)
		int second = 0;
		int notCompared = 0;
		for (long seed = 101; seed <= 100 + runs; seed++) {
			LiveChecks.Outcome o;
			try {
				o = LiveChecks.randomized(seed, subjects, gpu, seed % 5 == 0, true);
			} catch (ReplayException | RuntimeException e) {
				System.out.println("run seed " + seed + ": FAIL " + e);
				failed++;
				break;
			}
			System.out.println("run " + o.line());
			if (!o.comparable()) {
				notCompared++;
				continue;
			}
			outcomes.add(o);
			second++;
			if (o.planted() >= 0) {
				planted++;
				caught += o.validationFallbacks() > 0 ? 1 : 0;
			}
		}
		System.out.printf(Locale.ROOT, "SECOND REPLAY: %d runs compared, %d not compared (buffers at other addresses)%n",
				second, notCompared);
		// on-demand restores at random launches vs the uninterrupted run (seeds 201..200+RUNS)
		int restores = 0;
		int restoresEmpty = 0;
		for (long seed = 201; seed <= 200 + runs; seed++) {
			LiveChecks.Outcome o;
			try {
				o = LiveChecks.restoreCheck(seed, subjects, gpu);
			} catch (ReplayException | RuntimeException e) {
				System.out.println("run seed " + seed + ": FAIL " + e);
				failed++;
				break;
			}
			System.out.println("run " + o.line());
			if (!o.comparable()) {
				restoresEmpty++;
				continue;
			}
			outcomes.add(o);
			restores++;
		}
		System.out.printf(Locale.ROOT, "RESTORE: %d restored runs compared with the uninterrupted run, %d had no "
				+ "device-to-host copy after the instant%n", restores, restoresEmpty);
		if (driverHelper()) {
			for (long seed = 1001; seed <= 1002; seed++) {
				LiveChecks.Subject s = subjects.get((int) (seed % 3));
				long at = LiveChecks.launches(s.workload()) / 2;
				LiveChecks.Outcome o = LiveChecks.check(seed, s, s.workload(), gpu, LiveCrEngine.Options
						.of(LiveCrEngine.Mode.DRIVER_CHECKPOINT, CheckpointInstant.atLaunch(at)), -1);
				outcomes.add(o);
				System.out.println("run " + o.line() + " (restored buffers vs the image before the checkpoint)");
			}
		}
		List<LiveChecks.Outcome> bad = LiveChecks.failures(outcomes);
		System.out.printf(Locale.ROOT, "RANDOMIZED: %d of %d runs bitwise equal; planted mis-speculations %d, caught "
				+ "by validation %d (the others wrote a buffer the copier had already taken)%n", outcomes.size() - bad.size(),
				outcomes.size(), planted, caught);
		failed += bad.size();
		if (planted > 0 && caught == 0) {
			System.out.println("FAIL: no planted mis-speculation was caught by validation");
			failed++;
		}
		System.out.println(failed == 0 ? "LIVE CHECKS PASS" : "LIVE CHECKS FAIL (" + failed + ")");
		return failed == 0 ? 0 : 1;
	}

	private static int latest(JCudaExecutor gpu, Path work, int runs, List<String> samples) throws Exception {
		int failed = 0;
		List<LiveChecks.Subject> subjects = new ArrayList<>();
		long[][] gens = { { 11, 24, 1 }, { 12, 60, 1 }, { 13, 200, 1 }, { 14, 40, 0 }, { 15, 100, 4 } };
		for (long[] g : gens) {
			subjects.add(generate(work, g[0], 1000, (int) g[1], (int) g[2]));
		}
		for (String f : samples) {
			Trace t = TraceReader.read(Path.of(f), null).trace();
			String name = Path.of(f).getFileName().toString();
			subjects.add(new LiveChecks.Subject(name, t, TraceWorkload.withBestAvailableSets(t, name)));
		}
		List<LiveChecks.Outcome> outcomes = new ArrayList<>();
		int planted = 0;
		int caught = 0;
		int checkpoints = 0;
		for (long seed = 301; seed <= 300 + 2L * runs; seed++) {
			boolean second = seed > 300 + runs;
			long id = second ? seed - runs + 100 : seed; // 301.. same replay, 401.. second replay
			long t0 = System.nanoTime();
			LiveChecks.Outcome o;
			try {
				o = LiveChecks.randomizedLatest(id, subjects, gpu, id % 4 == 0, second);
			} catch (ReplayException | RuntimeException e) {
				System.out.println("run seed " + id + ": FAIL " + e);
				e.printStackTrace(System.out);
				failed++;
				break;
			}
			System.out.printf(Locale.ROOT, "run %s (%.1f s)%n", o.line(), (System.nanoTime() - t0) / 1e9);
			if (!o.comparable()) {
				continue;
			}
			outcomes.add(o);
			checkpoints += o.reference().split("checkpoint ", -1).length - 1;
			if (o.planted() >= 0) {
				planted++;
				caught += o.validationFallbacks() > 0 ? 1 : 0;
			}
		}
		List<LiveChecks.Outcome> bad = LiveChecks.failures(outcomes);
		System.out.printf(Locale.ROOT, "RECOPY/REPEATED: %d of %d runs bitwise equal (%d images of repeated and "
				+ "recopy runs compared in the same replay); planted mis-speculations %d, caught by validation %d (the "
				+ "others hit a buffer already dirty)%n", outcomes.size() - bad.size(), outcomes.size(), checkpoints,
				planted, caught);
		failed += bad.size();
		System.out.println(failed == 0 ? "LATEST CHECKS PASS" : "LATEST CHECKS FAIL (" + failed + ")");
		return failed == 0 ? 0 : 1;
	}

	private static int figures(JCudaExecutor gpu, Path work, int rounds, int allocations) throws Exception {
		LiveChecks.Subject s = generate(work, 21, 4000, allocations, 1);
		long launches = LiveChecks.launches(s.workload());
		CheckpointInstant at = CheckpointInstant.atLaunch(launches / 2);
		Map<Integer, Long> live = LiveCrEngine.liveAt(s.workload(), at);
		long bytes = live.values().stream().mapToLong(Long::longValue).sum();
		System.out.printf(Locale.ROOT, "workload %s: %d launches, checkpoint at %s: %d buffers, %.2f GB%n", s.name(),
				launches, at, live.size(), bytes / 1e9);
		double[] d2h = LiveChecks.pinnedD2H(gpu, 1L << 30, 5);
		System.out.printf(Locale.ROOT, "pinned D2H 1 GiB: %s GB/s, median %.1f%n", fmt(d2h), LiveChecks.median(d2h));
		LiveImage image = new LiveImage(gpu, live);
		PrintStream csv = new PrintStream(Files.newOutputStream(work.resolve("live-figures.csv")));
		csv.println("round,policy,app_end_ms,stall_ms,drain_ms,cow_ms,wait_ms,fallback_ms,cow_buffers,cow_bytes,"
				+ "copy_bytes,copy_gbps,pinned_d2h_gbps");
		// the driver's checkpoint runs after all other rounds: a failure of it may leave the context unusable
		LiveCrEngine.Mode[] modes = { LiveCrEngine.Mode.NONE, LiveCrEngine.Mode.STOP_THE_WORLD,
				LiveCrEngine.Mode.SOFT_COW };
		int kinds = LiveCrEngine.Mode.values().length;
		double[][] stall = new double[kinds][rounds];
		double[][] end = new double[kinds][rounds];
		double[] stwGbps = new double[rounds];
		double[] roundD2h = new double[rounds];
		int driverRounds = 0;
		try {
			for (int r = 0; r < rounds; r++) {
				roundD2h[r] = LiveChecks.median(LiveChecks.pinnedD2H(gpu, 1L << 30, 3));
				for (int m = 0; m < modes.length; m++) {
					LiveCrEngine.Mode mode = modes[(m + r) % modes.length]; // interleaved, rotating order
					LiveCrEngine.Options o = LiveCrEngine.Options.of(mode, at).withChunk(mode == LiveCrEngine.Mode.STOP_THE_WORLD
							? 64L << 20 : 4L << 20);
					LiveRunResult res = LiveChecks.timed(s, gpu, o, mode == LiveCrEngine.Mode.NONE ? null : image);
					var mt = res.metrics();
					int mi = mode.ordinal();
					stall[mi][r] = mt.stallTotalNs() / 1e6;
					end[mi][r] = mt.appEndNs() / 1e6;
					if (mode == LiveCrEngine.Mode.STOP_THE_WORLD) {
						stwGbps[r] = res.copyGBps();
					}
					csv.printf(Locale.ROOT, "%d,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d,%d,%.2f,%.2f%n", r,
							mode.policyName(), end[mi][r], stall[mi][r], cause(mt, StallCause.DRAIN),
							cause(mt, StallCause.COPY_ON_WRITE), cause(mt, StallCause.WAIT_FOR_COPIER),
							cause(mt, StallCause.BUDGET_FALLBACK) + cause(mt, StallCause.STOP_THE_WORLD),
							mt.cowCount(), mt.cowBytes(), res.copyBytes(), res.copyGBps(), roundD2h[r]);
					System.out.printf(Locale.ROOT,
							"round %d %-14s app end %9.2f ms, stall %8.2f ms (%s), cow %d buffers %.2f GB, copied "
									+ "%.2f GB at %.1f GB/s, surrogates %d%n",
							r, mode.policyName(), end[mi][r], stall[mi][r], mt.stallByCause(), mt.cowCount(),
							mt.cowBytes() / 1e9, res.copyBytes() / 1e9, res.copyGBps(), res.surrogateLaunches());
				}
			}
			for (int r = 0; r < rounds && driverHelper(); r++) {
				LiveCrEngine.Options o = LiveCrEngine.Options.of(LiveCrEngine.Mode.DRIVER_CHECKPOINT, at);
				LiveRunResult res;
				try {
					res = LiveChecks.timed(s, gpu, o, image);
				} catch (ReplayException e) {
					System.out.println("round " + r + " driver-checkpoint FAILED: " + e.getMessage());
					break;
				}
				var mt = res.metrics();
				int mi = LiveCrEngine.Mode.DRIVER_CHECKPOINT.ordinal();
				stall[mi][r] = mt.stallTotalNs() / 1e6;
				end[mi][r] = mt.appEndNs() / 1e6;
				driverRounds++;
				csv.printf(Locale.ROOT, "%d,%s,%.3f,%.3f,%.3f,0,0,%.3f,0,0,0,NaN,NaN%n", r, "driver-checkpoint",
						end[mi][r], stall[mi][r], cause(mt, StallCause.DRAIN), cause(mt, StallCause.STOP_THE_WORLD));
				System.out.printf(Locale.ROOT, "round %d %-17s app end %9.2f ms, stall %8.2f ms (%s)%n", r,
						"driver-checkpoint", end[mi][r], stall[mi][r], mt.stallByCause());
				res.notes().forEach(n -> System.out.println("    " + n));
			}
		} finally {
			csv.close();
			image.close();
		}
		double stw = LiveChecks.median(stall[LiveCrEngine.Mode.STOP_THE_WORLD.ordinal()]);
		double cow = LiveChecks.median(stall[LiveCrEngine.Mode.SOFT_COW.ordinal()]);
		double none = LiveChecks.median(end[LiveCrEngine.Mode.NONE.ordinal()]);
		System.out.printf(Locale.ROOT, "FIGURE copy bandwidth: stop-the-world checkpoint copy %.1f GB/s (median), "
				+ "pinned D2H same rounds %.1f GB/s (median): %.0f%%%n", LiveChecks.median(stwGbps),
				LiveChecks.median(roundD2h), 100 * LiveChecks.median(stwGbps) / LiveChecks.median(roundD2h));
		System.out.printf(Locale.ROOT, "FIGURE stall: stop-the-world %.2f ms, soft-cow %.2f ms (median of %d): "
				+ "%.1f%% of stop-the-world%n", stw, cow, rounds, 100 * cow / stw);
		System.out.printf(Locale.ROOT, "FIGURE app end: none %.2f ms, stop-the-world %.2f ms, soft-cow %.2f ms%n", none,
				LiveChecks.median(end[LiveCrEngine.Mode.STOP_THE_WORLD.ordinal()]),
				LiveChecks.median(end[LiveCrEngine.Mode.SOFT_COW.ordinal()]));
		if (driverRounds > 0) {
			double drv = LiveChecks.median(java.util.Arrays.copyOf(stall[LiveCrEngine.Mode.DRIVER_CHECKPOINT.ordinal()],
					driverRounds));
			System.out.printf(Locale.ROOT, "FIGURE driver anchor: driver checkpoint+restore stall %.2f ms (median); "
					+ "stop-the-world %.2f ms = %.1f%% of it, soft-cow %.2f ms = %.2f%% of it%n", drv, stw,
					100 * stw / drv, cow, 100 * cow / drv);
		}
		return 0;
	}

	static boolean driverHelper() {
		String h = System.getProperty(LiveCrEngine.DRIVER_HELPER);
		return h != null && !h.isBlank();
	}

	private static int calibrate(JCudaExecutor gpu, Path work, int rounds) throws Exception {
		MachineCalibration c = MachineCalibration.measure(gpu, rounds);
		System.out.printf(Locale.ROOT, "calibration (%s, median of %d): pinned D2H %.2f GB/s, H2D %.2f GB/s; pageable "
				+ "D2H %.2f GB/s, H2D %.2f GB/s; D2D %.1f GB/s; memset %.1f GB/s; copy %d ns; launch %d ns%n",
				c.device(), rounds, c.d2h() / 1e9, c.h2d() / 1e9, c.d2hPageable() / 1e9, c.h2dPageable() / 1e9,
				c.d2d() / 1e9, c.memset() / 1e9, c.copyLatencyNs(), c.launchLatencyNs());
		System.out.println("MACHINE " + c.spec());
		System.out.println("parsed: " + c.model());
		Files.writeString(work.resolve("machine.txt"), c.spec() + "\n");
		return 0;
	}

	private static double cause(org.phos.workbench.cr.core.SimulationMetrics m, StallCause c) {
		return m.stallByCause().getOrDefault(c, 0L) / 1e6;
	}

	private static String fmt(double[] v) {
		StringBuilder b = new StringBuilder();
		for (double x : v) {
			b.append(b.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.1f", x));
		}
		return b.toString();
	}
}
