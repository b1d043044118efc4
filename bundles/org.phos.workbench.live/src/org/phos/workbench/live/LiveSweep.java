package org.phos.workbench.live;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

import org.eclipse.core.runtime.NullProgressMonitor;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CrPolicies;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.TimelineSink;
import org.phos.workbench.internal.live.JCudaExecutor;

/**
 * The size sweep of issue #13 (docs/live-cr.md, block i13-live2): generated traces keeping more and more device
 * memory live at the checkpoint instant (the figures' generator, seed 21, 4,000 launches, observed accesses on every
 * launch; the number of live allocations sets the size), each run live in interleaved rounds of none /
 * stop-the-world / soft-cow / on-demand-restore (rotating order, one pinned image reused), then the driver's
 * checkpoint (cuCheckpointProcess*) for its own rounds, and the same three policies simulated on the machine
 * calibrated in the same process. Per workload one {@code SWEEP} line with the medians; every round in
 * {@code WORKDIR/live-sweep.csv}.
 * <pre>
 * LiveMain sweep WORKDIR ALLOCATIONS:ROUNDS:DRIVER_ROUNDS...
 * LiveMain sizes WORKDIR ALLOCATIONS...        (no GPU) the live bytes at the instant of each generated trace
 * </pre>
 */
final class LiveSweep {
	private LiveSweep() {
	}

	/** The live bytes at the middle launch of the generated trace of each allocation count (no device). */
	static int sizes(Path work, String[] counts) throws Exception {
		for (String c : counts) {
			LiveChecks.Subject s = LiveMain.generate(work, 21, 4000, Integer.parseInt(c), 1);
			long launches = LiveChecks.launches(s.workload());
			Map<Integer, Long> live = LiveCrEngine.liveAt(s.workload(), CheckpointInstant.atLaunch(launches / 2));
			long bytes = live.values().stream().mapToLong(Long::longValue).sum();
			System.out.printf(Locale.ROOT, "allocations %s: %d buffers live at launch %d, %.2f GB (%s, %d bytes)%n", c,
					live.size(), launches / 2, bytes / 1e9, s.name(), Files.size(work.resolve(s.name())));
			Files.delete(work.resolve(s.name()));
		}
		return 0;
	}

	private static final LiveCrEngine.Mode[] MODES = { LiveCrEngine.Mode.NONE, LiveCrEngine.Mode.STOP_THE_WORLD,
			LiveCrEngine.Mode.SOFT_COW, LiveCrEngine.Mode.ON_DEMAND_RESTORE };

	// i13-cow: begin
	/** The soft-cow rounds' copy-on-write budget, live and simulated: {@code -Dphos.cowBudget} (auto, or bytes). */
	static String cowBudget() {
		return System.getProperty("phos.cowBudget", "auto");
	}

	/** copy-on-write copies, budget fallbacks and peak budget used of a run's first checkpoint. */
	static String cowLine(SimulationMetrics m) {
		var cp = m.checkpoints();
		if (cp.isEmpty()) {
			return "no checkpoint";
		}
		var c = cp.get(0);
		return String.format(Locale.ROOT, "%d CoW copies (%.2f GiB), %d budget fallbacks (%.2f GiB), peak budget %.2f "
				+ "GiB, image done %.1f ms after the request", c.cowCount(), c.cowBytes() / (double) (1L << 30),
				c.fallbackCount(), c.fallbackBytes() / (double) (1L << 30), c.peakBudgetBytes() / (double) (1L << 30),
				(c.completedNs() - c.requestedNs()) / 1e6);
	}
	// i13-cow: end

	static int sweep(JCudaExecutor gpu, Path work, String[] specs) throws Exception {
		MachineCalibration cal = MachineCalibration.measure(gpu, 3);
		System.out.println("MACHINE " + cal.spec());
		return sweep(gpu, work, cal.model(), specs);
	}

	/** The sweep on {@code device} (the GPU; the host-memory device in a dry run), simulated on {@code machine}. */
	static int sweep(LiveDevice gpu, Path work, MachineModel machine, String[] specs) throws Exception {
		int status = 0;
		try (PrintStream csv = new PrintStream(Files.newOutputStream(work.resolve("live-sweep.csv")), true)) {
			csv.println("workload_gb,round,policy,app_end_ms,stall_ms,first_kernel_ms,all_back_ms,copy_gbps");
			for (String spec : specs) {
				String[] p = spec.split(":");
				int allocations = Integer.parseInt(p[0]);
				int rounds = Integer.parseInt(p[1]);
				int driverRounds = p.length > 2 ? Integer.parseInt(p[2]) : 0;
				try {
					one(gpu, work, allocations, rounds, driverRounds, machine, csv);
				} catch (ReplayException | RuntimeException e) {
					System.out.println("SWEEP allocations " + allocations + " FAILED: " + e);
					status = 1;
				}
			}
		}
		return status;
	}

	private static void one(LiveDevice gpu, Path work, int allocations, int rounds, int driverRounds,
			MachineModel machine, PrintStream csv) throws Exception {
		long t0 = System.nanoTime();
		LiveChecks.Subject s = LiveMain.generate(work, 21, 4000, allocations, 1);
		long launches = LiveChecks.launches(s.workload());
		CheckpointInstant at = CheckpointInstant.atLaunch(launches / 2);
		Map<Integer, Long> live = LiveCrEngine.liveAt(s.workload(), at);
		long bytes = live.values().stream().mapToLong(Long::longValue).sum();
		double gb = bytes / 1e9;
		System.out.printf(Locale.ROOT, "workload %s: %d launches, checkpoint at %s: %d buffers, %.2f GB "
				+ "(generated in %.1f s)%n", s.name(), launches, at, live.size(), gb, (System.nanoTime() - t0) / 1e9);
		t0 = System.nanoTime();
		LiveImage image = new LiveImage(gpu, live);
		System.out.printf(Locale.ROOT, "  pinned image of %.2f GB reserved in %.1f s%n", gb, (System.nanoTime() - t0) / 1e9);
		int kinds = LiveCrEngine.Mode.values().length;
		double[][] stall = new double[kinds][rounds];
		double[][] end = new double[kinds][rounds];
		double[] firstKernel = new double[rounds];
		double[] allBack = new double[rounds];
		double[] stwGbps = new double[rounds];
		double[] driver = new double[driverRounds];
		int driverDone = 0;
		try {
			for (int r = 0; r < rounds; r++) {
				for (int m = 0; m < MODES.length; m++) {
					LiveCrEngine.Mode mode = MODES[(m + r) % MODES.length];
					LiveCrEngine.Options o = LiveCrEngine.Options.of(mode, at)
							.withChunk(mode == LiveCrEngine.Mode.STOP_THE_WORLD ? 64L << 20 : 4L << 20)
							.withBudget(CrPolicies.budget(cowBudget()));
					LiveRunResult res = LiveChecks.timed(s, gpu, o, mode == LiveCrEngine.Mode.NONE ? null : image);
					SimulationMetrics mt = res.metrics();
					int mi = mode.ordinal();
					stall[mi][r] = mt.stallTotalNs() / 1e6;
					end[mi][r] = mt.appEndNs() / 1e6;
					double fk = -1, ab = -1;
					if (mode == LiveCrEngine.Mode.ON_DEMAND_RESTORE) {
						fk = firstKernel[r] = mt.restoreFirstKernelNs() / 1e6;
						ab = allBack[r] = mt.restoreFullStateNs() / 1e6;
					}
					if (mode == LiveCrEngine.Mode.STOP_THE_WORLD) {
						stwGbps[r] = res.copyGBps();
					}
					csv.printf(Locale.ROOT, "%.2f,%d,%s,%.3f,%.3f,%.3f,%.3f,%.2f%n", gb, r, mode.policyName(), end[mi][r],
							stall[mi][r], fk, ab, res.copyGBps());
					System.out.printf(Locale.ROOT, "  round %d %-17s app end %9.2f ms, stall %8.2f ms (%s)%s%n", r,
							mode.policyName(), end[mi][r], stall[mi][r], mt.stallByCause(),
							fk >= 0 ? String.format(Locale.ROOT, ", first kernel %.2f ms, all back %.2f ms", fk, ab)
									: "");
					if (mode == LiveCrEngine.Mode.SOFT_COW) {
						res.notes().stream().filter(x -> x.contains("budget"))
								.forEach(x -> System.out.println("      " + x));
						System.out.println("      live soft-cow: " + cowLine(mt) + String.format(Locale.ROOT,
								", commit %.1f GB/s", res.copyGBps()));
					}
				}
			}
			for (int r = 0; r < driverRounds && LiveMain.driverHelper(); r++) {
				t0 = System.nanoTime();
				LiveRunResult res;
				try {
					res = LiveChecks.timed(s, gpu, LiveCrEngine.Options.of(LiveCrEngine.Mode.DRIVER_CHECKPOINT, at),
							image);
				} catch (ReplayException e) {
					System.out.println("  round " + r + " driver-checkpoint FAILED: " + e.getMessage());
					break;
				}
				driver[driverDone++] = res.metrics().stallTotalNs() / 1e6;
				csv.printf(Locale.ROOT, "%.2f,%d,%s,%.3f,%.3f,-1,-1,0%n", gb, r, "driver-checkpoint",
						res.metrics().appEndNs() / 1e6, driver[driverDone - 1]);
				System.out.printf(Locale.ROOT, "  round %d driver-checkpoint stall %.2f ms (%s), round took %.1f s%n", r,
						driver[driverDone - 1], res.metrics().stallByCause(), (System.nanoTime() - t0) / 1e9);
				res.notes().forEach(n -> System.out.println("      " + n));
			}
		} finally {
			image.close();
		}
		double none = LiveChecks.median(end[LiveCrEngine.Mode.NONE.ordinal()]);
		double stw = LiveChecks.median(stall[LiveCrEngine.Mode.STOP_THE_WORLD.ordinal()]);
		double cow = LiveChecks.median(stall[LiveCrEngine.Mode.SOFT_COW.ordinal()]);
		double restore = LiveChecks.median(stall[LiveCrEngine.Mode.ON_DEMAND_RESTORE.ordinal()]);
		double stwEnd = LiveChecks.median(end[LiveCrEngine.Mode.STOP_THE_WORLD.ordinal()]);
		double cowEnd = LiveChecks.median(end[LiveCrEngine.Mode.SOFT_COW.ordinal()]);
		double fk = LiveChecks.median(firstKernel);
		// the simulated twins, on the machine calibrated in this process (workbench live's defaults for staging)
		long n = launches / 2;
		SimulationMetrics simStw = simulate(s, machine, "stop-the-world:at=launch:" + n + ",staging=pinned");
		SimulationMetrics simCow = simulate(s, machine,
				"soft-cow:at=launch:" + n + ",chunk=4MiB,staging=pinned,budget=" + cowBudget());
		System.out.println("  simulated soft-cow (budget " + cowBudget() + "): " + cowLine(simCow));
		SimulationMetrics simRestore = simulate(s, machine,
				"on-demand-restore:at=launch:" + n + ",prefetch=true,staging=pinned");
		System.out.printf(Locale.ROOT, "SWEEP %.2f GB (%d buffers, %d rounds, medians): stop-the-world stall %.2f ms "
				+ "(copy %.1f GB/s), soft-cow stall %.2f ms = %.1f%% of stop-the-world; slowdown while checkpointing "
				+ "stop-the-world %.1f%%, soft-cow %.1f%% (app end none %.2f ms); on-demand restore stall %.2f ms, "
				+ "first kernel %.2f ms after the restore start, all back %.2f ms%n", gb, live.size(), rounds, stw,
				LiveChecks.median(stwGbps), cow, 100 * cow / stw, 100 * (stwEnd - none) / none,
				100 * (cowEnd - none) / none, none, restore, fk, LiveChecks.median(allBack));
		if (driverDone > 0) {
			double drv = LiveChecks.median(Arrays.copyOf(driver, driverDone));
			System.out.printf(Locale.ROOT, "SWEEP %.2f GB driver anchor (%d rounds): driver checkpoint+restore stall "
					+ "%.2f ms; stop-the-world = %.2f%% of it, soft-cow = %.3f%% of it%n", gb, driverDone, drv,
					100 * stw / drv, 100 * cow / drv);
		}
		System.out.printf(Locale.ROOT, "SWEEP %.2f GB simulated vs live (stall): stop-the-world %.2f / %.2f ms (%+.1f%%), "
				+ "soft-cow %.2f / %.2f ms (%+.1f%%), on-demand-restore %.2f / %.2f ms (%+.1f%%), first kernel "
				+ "%.2f / %.2f ms; app end with stop-the-world %.2f / %.2f ms%n", gb, simStw.stallTotalNs() / 1e6,
				stw, pct(simStw.stallTotalNs() / 1e6, stw), simCow.stallTotalNs() / 1e6, cow,
				pct(simCow.stallTotalNs() / 1e6, cow), simRestore.stallTotalNs() / 1e6, restore,
				pct(simRestore.stallTotalNs() / 1e6, restore), simRestore.restoreFirstKernelNs() / 1e6, fk,
				simStw.appEndNs() / 1e6, stwEnd);
		Files.deleteIfExists(work.resolve(s.name()));
	}

	private static double pct(double simulated, double live) {
		return 100 * (simulated - live) / live;
	}

	private static SimulationMetrics simulate(LiveChecks.Subject s, MachineModel machine, String spec) {
		return Simulator.run(s.workload(), machine, CrPolicies.parse(spec), TimelineSink.NONE, false,
				new NullProgressMonitor());
	}
}
