package org.phos.workbench.internal.cli.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentListener;
import org.phos.workbench.analysis.core.experiment.ExperimentStore;
import org.phos.workbench.cli.BuiltinCommands;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.Main;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/**
 * Issue #12's experiment figures on one trace: {@code simulate} through the command line (in process: load, run,
 * write) against the workbench's path (the trace loaded, then {@link ExperimentStore#create}: run, write the same
 * outputs, save the runs file), in interleaved rounds; the longest interval between two progress reports of the
 * workbench's path; and how long the run takes to return after {@code setCanceled(true)} at several points of it.
 */
public final class ExperimentBenchmark {

	/**
	 * @param cliSeconds wall time of each {@code simulate} run
	 * @param loadSeconds wall time of each trace load of the workbench path
	 * @param createSeconds wall time of each {@code ExperimentStore.create} on the loaded trace
	 * @param maxGapMs the longest interval between two progress reports (start and return included), all rounds
	 * @param gapPhase the phase (sub-task) that interval fell in
	 * @param reports progress reports of one run (the last round)
	 * @param cancelMs time from {@code setCanceled(true)} to the run returning, per trial (NaN when the run finished
	 *        before the cancel)
	 * @param cancelAtMs when each trial cancelled, after the run's start
	 */
	public record Result(double[] cliSeconds, double[] loadSeconds, double[] createSeconds, double maxGapMs,
			String gapPhase, long reports, double[] cancelMs, double[] cancelAtMs) {

		public double ratio() {
			return median(createSeconds) / median(cliSeconds);
		}

		public double ratioWithLoad() {
			double[] total = new double[loadSeconds.length];
			for (int i = 0; i < total.length; i++) {
				total[i] = loadSeconds[i] + createSeconds[i];
			}
			return median(total) / median(cliSeconds);
		}

		/** The longest cancel of the trials that were cancelled (NaN: none was). */
		public double maxCancelMs() {
			return Arrays.stream(cancelMs).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
		}

		/** The median cancel of the trials that were cancelled. */
		public double medianCancelMs() {
			return median(Arrays.stream(cancelMs).filter(v -> !Double.isNaN(v)).toArray());
		}

		/** How many trials were cancelled (the others finished first). */
		public long cancelled() {
			return Arrays.stream(cancelMs).filter(v -> !Double.isNaN(v)).count();
		}
	}

	private ExperimentBenchmark() {
	}

	static double median(double[] values) {
		double[] s = values.clone();
		Arrays.sort(s);
		return s.length == 0 ? Double.NaN
				: s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
	}

	/** A monitor that notes when it was told anything, and can be cancelled from another thread. */
	static final class RecordingMonitor implements IProgressMonitor {
		private volatile boolean canceled;
		private long last = System.nanoTime();
		private long maxGap;
		private String phase = "start";
		private String maxGapPhase = "";
		private long reports;

		private synchronized void report(String newPhase) {
			long now = System.nanoTime();
			if (now - last > maxGap) {
				maxGap = now - last;
				maxGapPhase = phase;
			}
			last = now;
			reports++;
			if (newPhase != null) {
				phase = newPhase;
			}
		}

		synchronized String phase() {
			return phase;
		}

		/** The end of the run counts as a report: a silent tail is a gap too. */
		synchronized void finish() {
			report("end");
		}

		@Override
		public void beginTask(String name, int totalWork) {
			report(name);
		}

		@Override
		public void done() {
			report(null);
		}

		@Override
		public void internalWorked(double work) {
			report(null);
		}

		@Override
		public boolean isCanceled() {
			return canceled;
		}

		@Override
		public void setCanceled(boolean value) {
			canceled = value;
		}

		@Override
		public void setTaskName(String name) {
			report(name);
		}

		@Override
		public void subTask(String name) {
			report(name);
		}

		@Override
		public void worked(int work) {
			report(null);
		}
	}

	/**
	 * Measures on {@code traceFile}: {@code rounds} interleaved pairs (command line, workbench), then
	 * {@code cancels} cancel trials spread over the run.
	 *
	 * @param dir scratch folder (outputs and experiments are written and deleted there)
	 */
	public static Result run(Path traceFile, ExperimentConfig config, int rounds, int cancels, Path dir,
			PrintStream log) throws IOException {
		Path work = Files.createTempDirectory(dir, "phos-bench-experiment-");
		try {
			Path trace = work.resolve("trace.phos");
			Files.copy(traceFile, trace);
			double[] cli = new double[rounds];
			double[] load = new double[rounds];
			double[] create = new double[rounds];
			double maxGap = 0;
			String gapPhase = "";
			long reports = 0;
			PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
			for (int r = 0; r < rounds; r++) {
				Path out = work.resolve("sim");
				List<String> args = new ArrayList<>(List.of("simulate", trace.toString(), "--policy",
						config.policies(), "--machine", config.machine(), "--sets", config.sets(), "--width",
						Integer.toString(config.widthPx()), "--out", out.toString()));
				if (config.at() != null) {
					args.addAll(List.of("--at", config.at()));
				}
				System.gc();
				long t0 = System.nanoTime();
				int exit = new Main(BuiltinCommands.all()).run(args.toArray(String[]::new), quiet, quiet, false);
				cli[r] = (System.nanoTime() - t0) / 1e9;
				if (exit != ExitCode.OK) {
					throw new IOException("simulate failed with exit code " + exit + ": " + args);
				}
				deleteTree(out);

				System.gc();
				long t1 = System.nanoTime();
				Trace loaded = TraceReader.read(trace, null).trace();
				long t2 = System.nanoTime();
				RecordingMonitor monitor = new RecordingMonitor();
				ExperimentStore store = ExperimentStore.of(trace);
				try {
					store.create("round-" + r, config, loaded, ExperimentListener.NONE, monitor);
				} catch (org.phos.workbench.analysis.core.experiment.ExperimentException e) {
					throw new IOException(e.getMessage(), e);
				}
				monitor.finish();
				long t3 = System.nanoTime();
				load[r] = (t2 - t1) / 1e9;
				create[r] = (t3 - t2) / 1e9;
				if (monitor.maxGap / 1e6 > maxGap) {
					maxGap = monitor.maxGap / 1e6;
					gapPhase = monitor.maxGapPhase;
				}
				reports = monitor.reports;
				deleteTree(store.root());
				log.printf(Locale.ROOT, "  round %d: simulate %.2f s; workbench load %.2f s + run %.2f s; longest "
						+ "progress gap %.0f ms (%s)%n", r + 1, cli[r], load[r], create[r], monitor.maxGap / 1e6,
						monitor.maxGapPhase);
			}

			Trace loaded = TraceReader.read(trace, null).trace();
			// the machine's speed now (it is shared): one run just before the trials spreads them over it
			long c0 = System.nanoTime();
			try {
				ExperimentStore.of(trace).create("calibration", config, loaded, ExperimentListener.NONE, null);
			} catch (org.phos.workbench.analysis.core.experiment.ExperimentException e) {
				throw new IOException(e.getMessage(), e);
			}
			double typical = (System.nanoTime() - c0) / 1e9;
			deleteTree(ExperimentStore.of(trace).root());
			double[] latency = new double[cancels];
			double[] at = new double[cancels];
			for (int k = 0; k < cancels; k++) {
				long delayNanos = (long) (typical * 1e9 * 0.9 * (k + 0.5) / cancels);
				ExperimentStore store = ExperimentStore.of(trace);
				RecordingMonitor monitor = new RecordingMonitor();
				AtomicReference<Throwable> outcome = new AtomicReference<>();
				long[] returned = new long[1];
				Thread job = new Thread(() -> {
					try {
						store.create("cancelled", config, loaded, ExperimentListener.NONE, monitor);
					} catch (Throwable t) {
						outcome.set(t);
					} finally {
						returned[0] = System.nanoTime();
					}
				}, "experiment-cancel-trial");
				long start = System.nanoTime();
				job.start();
				sleepUntil(start + delayNanos);
				long cancelled = System.nanoTime();
				String phase = monitor.phase();
				monitor.setCanceled(true);
				try {
					job.join();
				} catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					throw new IOException("interrupted", e);
				}
				Throwable t = outcome.get();
				latency[k] = t == null ? Double.NaN : (returned[0] - cancelled) / 1e6;
				at[k] = (cancelled - start) / 1e6;
				boolean saved = Files.exists(store.folder("cancelled"));
				log.printf(Locale.ROOT, "  cancel at %.0f ms, in '%s': returned after %.1f ms (%s)%s%n", at[k], phase,
						latency[k], t == null ? "finished before the cancel" : t.getClass().getSimpleName(),
						saved && t != null ? "; BUT the experiment was saved" : "");
				if (t != null && !(t instanceof OperationCanceledException)) {
					throw new IOException("a cancelled run failed otherwise: " + t, t);
				}
				if (t != null && saved) {
					throw new IOException("a cancelled run left " + store.folder("cancelled"));
				}
				deleteTree(store.root());
			}
			return new Result(cli, load, create, maxGap, gapPhase, reports, latency, at);
		} finally {
			deleteTree(work);
		}
	}

	private static void sleepUntil(long deadline) throws IOException {
		try {
			for (long left; (left = deadline - System.nanoTime()) > 0;) {
				Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
			}
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IOException("interrupted", e);
		}
	}

	private static void deleteTree(Path p) throws IOException {
		if (!Files.exists(p)) {
			return;
		}
		try (Stream<Path> walk = Files.walk(p)) {
			for (Path q : walk.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(q);
			}
		}
	}
}
