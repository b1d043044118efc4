package org.phos.workbench.live;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.analysis.core.experiment.ExperimentListener;
import org.phos.workbench.analysis.core.experiment.ExperimentOption;
import org.phos.workbench.analysis.core.experiment.ExperimentPlan;
import org.phos.workbench.analysis.core.experiment.ExperimentProblem;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.analysis.core.experiment.ExperimentStore;
import org.phos.workbench.analysis.core.experiment.SavedExperiment;
import org.phos.workbench.analysis.core.experiment.TraceIdentity;
import org.phos.workbench.analysis.core.format.JsonWriter;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CopierOrder;
import org.phos.workbench.cr.core.CrPolicy;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.MetricsCsvWriter;
import org.phos.workbench.cr.core.RepeatedCheckpointPolicy;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.SoftCopyOnWritePolicy;
import org.phos.workbench.cr.core.SoftOnDemandRestorePolicy;
import org.phos.workbench.cr.core.SoftRecopyPolicy;
import org.phos.workbench.cr.core.Staging;
import org.phos.workbench.cr.core.StopTheWorldCheckpointPolicy;
import org.phos.workbench.cr.core.TimelineSink;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.internal.analysis.core.experiment.AccessSets;
import org.phos.workbench.internal.analysis.core.experiment.ExperimentCharts;
import org.phos.workbench.internal.analysis.core.experiment.IoText;
import org.phos.workbench.internal.analysis.core.experiment.PolicyRuns;
import org.phos.workbench.internal.analysis.core.experiment.ResultFolder;
import org.phos.workbench.internal.analysis.core.experiment.RunOutputs;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.trace.core.Trace;

/**
 * An experiment run live: every policy of an {@link ExperimentConfig} run for real on a GPU ({@link LiveCrEngine})
 * beside its simulated twin on the configuration's machine model, after one live baseline (the same replay without
 * checkpoint, whose application end makes the live slowdown the live run's own). The outputs are what
 * {@code simulate} writes, for the runs {@code live POLICY} and {@code simulated POLICY} of each policy, with a
 * manifest naming the tool and the device; {@link #create} and {@link #rerun} save them through
 * {@link ExperimentStore} (marked live in {@code experiment.json}), so the experiment opens later from its files on
 * any machine, without a GPU. {@code workbench live}, {@code experiment new|run --live} and the New Experiment
 * dialog's "Run live on the GPU" all run through {@link #runInto}.
 * <p>
 * The live engine reads one set source (the surrogates write the observed ranges, else these sets); when the
 * configuration names no instant, the checkpoint is at the middle launch (as {@code workbench live}'s).
 */
public final class LiveExperiments {
	/** Copier chunks in flight at once, {@code workbench live --window}'s default. */
	public static final int DEFAULT_WINDOW = 4;

	private LiveExperiments() {
	}

	/** What a live experiment run wrote: its runs in order (live, simulated per policy) and a line per live run. */
	public record Outcome(List<RunOutputs.Run> runs, List<String> lines, List<String> written, String device) {
	}

	/** The live engine's options for a parsed policy, or a usage problem naming what it cannot run. */
	public static LiveCrEngine.Options options(CrPolicy policy, CheckpointInstant at, int window)
			throws ExperimentException {
		if (policy instanceof SoftCopyOnWritePolicy soft) {
			var o = soft.options();
			if (!o.copyOnWrite()) {
				throw usage("option --policy: the live engine runs soft-cow with copy-on-write only");
			}
			long chunk = o.chunkBytes() == 0 ? 1L << 30 : o.chunkBytes(); // whole buffers: the image's block size
			return new LiveCrEngine.Options(LiveCrEngine.Mode.SOFT_COW, o.at(), chunk, o.budgetBytes(), window, false,
					false, true);
		}
		if (policy instanceof SoftRecopyPolicy recopy) {
			var o = recopy.options();
			long chunk = o.chunkBytes() == 0 ? 1L << 30 : o.chunkBytes();
			return new LiveCrEngine.Options(LiveCrEngine.Mode.SOFT_RECOPY, o.at(), chunk, o.budgetBytes(), window,
					false, false, true);
		}
		if (policy instanceof RepeatedCheckpointPolicy repeated) {
			var o = repeated.options();
			long chunk = o.chunkBytes() == 0 ? 1L << 30 : o.chunkBytes();
			return new LiveCrEngine.Options(LiveCrEngine.Mode.REPEATED, o.at(), chunk, o.budgetBytes(), window,
					false, false, true, repeated.intervalNs());
		}
		if (policy instanceof SoftOnDemandRestorePolicy restore) {
			return new LiveCrEngine.Options(LiveCrEngine.Mode.ON_DEMAND_RESTORE, restore.restoreInstant(), 4L << 20, 0,
					window, false, false, true);
		}
		if (policy instanceof StopTheWorldCheckpointPolicy) {
			return new LiveCrEngine.Options(LiveCrEngine.Mode.STOP_THE_WORLD, at, 64L << 20, 0, 1, false, false,
					true);
		}
		throw usage("option --policy: the live engine runs stop-the-world, soft-cow, soft-recopy, "
				+ "repeated and on-demand-restore, not " + policy.name());
	}

	private static ExperimentException usage(String message) {
		return new ExperimentException(ExperimentProblem.of(ExperimentOption.POLICIES, message));
	}

	/**
	 * The simulated twin of a live run: the live engine commits into (and restores from) pinned memory, in pointer
	 * order with the rest in the background, so the twin does too unless its spec says otherwise.
	 */
	static CrPolicy twin(CrPolicy simulated, String spec) {
		if (simulated instanceof SoftCopyOnWritePolicy soft && !spec.contains("staging=")) {
			return new SoftCopyOnWritePolicy(soft.options().withStaging(Staging.PINNED));
		}
		if (simulated instanceof SoftOnDemandRestorePolicy restore && !spec.contains("prefetch=")) {
			return new SoftOnDemandRestorePolicy(restore.restoreInstant(), true, CopierOrder.POINTER,
					!spec.contains("pool=false"), spec.contains("staging=pageable") ? Staging.PAGEABLE : Staging.PINNED);
		}
		return simulated;
	}

	/**
	 * Runs {@code config} live on {@code device} (and simulated beside it) and writes the outputs into
	 * {@code folder}, committed with a manifest naming {@code tool} and the device. The caller abandons the folder
	 * on failure.
	 *
	 * @param window copier chunks in flight for the soft policies
	 * @param options more manifest fields under {@code "options"} (the command's own), or null
	 */
	public static Outcome runInto(ResultFolder folder, Path traceFile, Trace trace, ExperimentConfig config, int window,
			LiveDevice device, String tool, ExperimentListener listener, @Nullable Consumer<JsonWriter> options,
			IProgressMonitor monitor) throws ExperimentException {
		String file = traceFile.toString();
		if (trace.launchCount() == 0) {
			throw ExperimentException.failure(file + ": the trace holds no launches, so there is nothing to run");
		}
		String refused = TraceWorkload.outOfRange(trace);
		if (refused != null) {
			throw ExperimentException.failure(file + ": cannot run this trace: " + refused);
		}
		MachineModel machine;
		try {
			machine = MachineModel.parse(config.machine());
		} catch (IllegalArgumentException e) {
			throw new ExperimentException(ExperimentProblem.of(ExperimentOption.MACHINE, "option --machine: "
					+ e.getMessage()));
		}
		List<AccessSets> sets = AccessSets.parse(config.sets());
		if (sets.size() != 1) {
			throw new ExperimentException(ExperimentProblem.of(ExperimentOption.SETS, "option --sets: a live run "
					+ "takes one source, got " + sets.size() + " (" + config.sets() + ")"));
		}
		String at = config.at() != null ? config.at() : "launch:" + trace.launchCount() / 2;
		Map<String, String> instants = new LinkedHashMap<>();
		Map<String, CrPolicy> policies = PolicyRuns.parse(config.policies(), at, instants);
		Map<String, LiveCrEngine.Options> live = new LinkedHashMap<>();
		for (Map.Entry<String, CrPolicy> p : policies.entrySet()) {
			CheckpointInstant instant = ExperimentPlan.instantOf(instants.getOrDefault(p.getKey(), "--at " + at));
			if (instant == null) {
				throw usage("option --at: cannot read the instant of " + p.getKey());
			}
			live.put(p.getKey(), options(p.getValue(), instant, window));
		}
		String traceName = traceFile.getFileName() == null ? file : traceFile.getFileName().toString();
		System.setProperty("java.awt.headless", "true");
		RunOutputs outputs = new RunOutputs(folder);
		List<RunOutputs.Run> runs = new ArrayList<>();
		List<String> lines = new ArrayList<>();
		TraceWorkload workload = sets.get(0).workload(trace, traceName, file, EngineCatalog.standard(), monitor);
		listener.info(String.format(Locale.ROOT, "live %s on %s: %,d events, %,d launches; sets: %s", file,
				device.deviceName(), trace.eventCount(), trace.launchCount(), workload.policySourceName()));
		long baselineEnd;
		try {
			LiveRunResult base = LiveCrEngine.run(trace, workload, device,
					LiveCrEngine.Options.of(LiveCrEngine.Mode.NONE, live.values().iterator().next().at()),
					TimelineSink.NONE);
			base.close();
			baselineEnd = base.metrics().appEndNs();
		} catch (ReplayException e) {
			throw ExperimentException.failure(file + ": the live baseline run failed: " + e.getMessage(), e);
		}
		for (Map.Entry<String, CrPolicy> p : policies.entrySet()) {
			if (monitor.isCanceled()) {
				throw new OperationCanceledException();
			}
			String name = p.getKey();
			LiveCrEngine.Options o = live.get(name);
			CrPolicy simulated = twin(p.getValue(), name);
			long threshold = simulated instanceof SoftRecopyPolicy rp ? rp.thresholdBytes() : Long.MAX_VALUE;
			String suffix = policies.size() == 1 ? "" : "-" + (runs.size() / 2 + 1);
			runs.add(outputs.record("live " + name, "-live" + suffix, workload.sizeHint(), sink -> {
				try {
					LiveRunResult r = LiveCrEngine.run(trace, workload, device, o, sink);
					r.close();
					lines.add(line(name, o, r, baselineEnd, threshold));
					return withBaseline(r.metrics(), baselineEnd);
				} catch (ReplayException e) {
					throw ExperimentException.failure(file + ": the live run of " + name + " failed: " + e.getMessage(),
							e);
				}
			}));
			runs.add(outputs.simulate("simulated " + name, "-simulated" + suffix, workload, machine, simulated,
					monitor));
		}
		Map<String, SimulationMetrics> metrics = new LinkedHashMap<>();
		runs.forEach(r -> metrics.put(r.name(), r.metrics()));
		writeCsv(folder, "metrics.csv", w -> MetricsCsvWriter.write(w, metrics));
		writeCsv(folder, "violations.csv", w -> MetricsCsvWriter.writeViolations(w, metrics));
		ExperimentCharts.write(folder, traceName, machine, runs, metrics, config.widthPx(), new NullProgressMonitor());
		TraceIdentity identity = TraceIdentity.of(traceFile, trace);
		String deviceName = device.deviceName();
		List<String> written = folder.commit(json -> {
			json.field("tool", tool);
			json.field("finished", Instant.now().toString());
			json.field("device", deviceName);
			json.name("options").beginObject();
			json.field("policy", config.policies());
			json.field("at", config.at());
			json.field("window", (long) window);
			json.field("machine", config.machine());
			json.field("sets", config.sets());
			json.field("width", (long) config.widthPx());
			if (options != null) {
				options.accept(json);
			}
			json.endObject();
			identity.write(json);
			json.name("runs").beginArray();
			runs.forEach(r -> json.value(r.name()));
			json.endArray();
		}, listener);
		return new Outcome(runs, lines, written, deviceName);
	}

	/**
	 * Runs {@code config} live and saves it as the new experiment {@code name} of {@code store} (its trace is
	 * {@code trace}); it appears only when everything was written.
	 */
	public static ExperimentResult create(ExperimentStore store, String name, ExperimentConfig config, Trace trace,
			int window, LiveDevice device, ExperimentListener listener, IProgressMonitor monitor)
			throws ExperimentException {
		ExperimentProblem taken = store.checkNewName(name);
		if (taken != null) {
			throw new ExperimentException(taken);
		}
		ExperimentPlan.of(config);
		return inScratch(store, config, trace, window, device, listener, monitor,
				(dir, runs) -> store.saveRuns(name, config, dir, runs));
	}

	/** Runs the saved configuration of experiment {@code name} live again and replaces its outputs. */
	public static ExperimentResult rerun(ExperimentStore store, String name, Trace trace, int window,
			LiveDevice device, ExperimentListener listener, IProgressMonitor monitor) throws ExperimentException {
		SavedExperiment saved = store.get(name);
		ExperimentConfig config = saved.config();
		if (config == null) {
			throw ExperimentException.failure(String.valueOf(saved.problem()));
		}
		return inScratch(store, config, trace, window, device, listener, monitor,
				(dir, runs) -> store.replaceRuns(name, config, dir, runs));
	}

	private interface Save {
		ExperimentResult save(Path outputs, List<org.phos.workbench.analysis.core.experiment.CrRun> runs)
				throws ExperimentException;
	}

	private static ExperimentResult inScratch(ExperimentStore store, ExperimentConfig config, Trace trace, int window,
			LiveDevice device, ExperimentListener listener, IProgressMonitor monitor, Save save)
			throws ExperimentException {
		Path scratch;
		try {
			scratch = Files.createTempDirectory("phos-live-experiment");
		} catch (IOException e) {
			throw ExperimentException.failure("cannot make a scratch folder for the live run: " + IoText.describe(e), e);
		}
		ResultFolder folder = null;
		try {
			folder = ResultFolder.open(scratch, listener);
			Outcome outcome = runInto(folder, store.traceFile(), trace, config, window, device, "workbench live",
					listener, null, monitor);
			outcome.lines().forEach(listener::info);
			return save.save(folder.dir(), outcome.runs().stream().map(RunOutputs.Run::crRun).toList());
		} finally {
			if (folder != null) {
				folder.abandon();
			}
			deleteTree(scratch);
		}
	}

	private static void deleteTree(Path p) {
		try {
			Files.walkFileTree(p, new SimpleFileVisitor<>() {
				@Override
				public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
					Files.deleteIfExists(f);
					return FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult postVisitDirectory(Path d, @Nullable IOException e) throws IOException {
					Files.deleteIfExists(d);
					return FileVisitResult.CONTINUE;
				}
			});
		} catch (IOException | UncheckedIOException e) {
			// a scratch folder under the temporary directory: left for the system
		}
	}

	private static String line(String name, LiveCrEngine.Options options, LiveRunResult r, long baselineEnd,
			long threshold) {
		long dirty = r.metrics().checkpoints().stream().mapToLong(c -> c.dirtyBytes()).sum();
		String extra = String.format(Locale.ROOT, "%nlive baseline (same replay, no checkpoint): application end "
				+ "%.2f ms; with %s %.2f ms: slowdown %.1f%%", baselineEnd / 1e6, name, r.metrics().appEndNs() / 1e6,
				100.0 * (r.metrics().appEndNs() - baselineEnd) / baselineEnd);
		if (options.mode() == LiveCrEngine.Mode.SOFT_RECOPY) {
			extra += "; recopied " + bytes(dirty) + " dirty at the stop (launch "
					+ (r.rounds().isEmpty() ? "-" : r.rounds().get(0).launches()) + ")"
					+ (dirty > threshold ? ", above the threshold where the simulator ships the log and recomputes "
							+ "instead (not run live)" : "");
		}
		if (options.mode() == LiveCrEngine.Mode.REPEATED) {
			extra += "; " + r.rounds().size() + " checkpoints taken";
		}
		return String.format(Locale.ROOT, "live %s: %d launches as surrogates, %d real; checkpoint copied %s at %.1f "
				+ "GB/s; %d buffers fell back to stop-and-copy on a write outside the sets; %d real launches after the "
				+ "instant without observed writes (not validated)", name, r.surrogateLaunches(), r.realLaunches(),
				bytes(r.copyBytes()), r.copyGBps(), r.validationFallbacks(), r.unvalidatedLaunches()) + extra;
	}

	private static String bytes(long b) {
		if (b < 1024) {
			return b + " B";
		}
		String[] units = { "KiB", "MiB", "GiB", "TiB" };
		double v = b;
		int u = -1;
		while (v >= 1024 && u < units.length - 1) {
			v /= 1024;
			u++;
		}
		return String.format(Locale.ROOT, "%.2f %s", v, units[u]);
	}

	/** The live run's metrics with the live baseline's application end (the slowdown is then the live one). */
	public static SimulationMetrics withBaseline(SimulationMetrics m, long baselineEndNs) {
		return new SimulationMetrics(m.policy(), m.machine(), m.operations(), m.launches(), m.appEndNs(), baselineEndNs,
				m.endNs(), m.stallTotalNs(), m.stallLongestNs(), m.stallCount(), m.stallByCause(), m.checkpoints(),
				m.restoreStartNs(), m.restoreFirstKernelNs(), m.restoreFullStateNs(), m.bytesNeverRestored(),
				m.bytesPerLane(), m.cowCount(), m.cowBytes(), m.consistency());
	}

	private interface CsvBody {
		void write(Writer w);
	}

	private static void writeCsv(ResultFolder folder, String name, CsvBody body) throws ExperimentException {
		Path file = folder.dir().resolve(name);
		try (Writer w = RunOutputs.writer(folder.create(name))) {
			body.write(w);
		} catch (IOException e) {
			throw ExperimentException.failure("cannot write " + file + ": " + IoText.describe(e), e);
		} catch (UncheckedIOException e) {
			throw ExperimentException.failure("cannot write " + file + ": " + IoText.describe(e.getCause()), e);
		}
	}
}
