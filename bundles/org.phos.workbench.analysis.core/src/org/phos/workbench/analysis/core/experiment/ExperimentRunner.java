package org.phos.workbench.analysis.core.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.format.JsonWriter;
import org.phos.workbench.cr.core.CrPolicy;
import org.phos.workbench.cr.core.MetricsCsvWriter;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Units;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.internal.analysis.core.experiment.AccessSets;
import org.phos.workbench.internal.analysis.core.experiment.Background;
import org.phos.workbench.internal.analysis.core.experiment.ExperimentCharts;
import org.phos.workbench.internal.analysis.core.experiment.IoText;
import org.phos.workbench.internal.analysis.core.experiment.ProgressSlice;
import org.phos.workbench.internal.analysis.core.experiment.ResultFolder;
import org.phos.workbench.internal.analysis.core.experiment.RunOutputs;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.trace.core.Trace;

/**
 * Runs an experiment over a loaded trace: the one code path of {@code simulate}, the workbench's experiment Job, the
 * saved experiments and the report. Each set source gives a workload, each policy a run (with its baseline replay
 * for the slowdown); {@link #runInto} also writes {@code simulate}'s files into a folder (every file under a
 * temporary name until the whole run succeeded, the manifest last), {@link #run} keeps the runs in memory only.
 * <p>
 * Progress and cancel: the monitor gets {@code beginTask} once, {@code subTask} per phase and {@code worked} as the
 * simulator replays (every few milliseconds); {@code isCanceled()} is honoured within a fraction of a second, with
 * {@link org.eclipse.core.runtime.OperationCanceledException} (nothing is written then).
 */
public final class ExperimentRunner {
	/** The tool a manifest names. */
	public static final String TOOL = "workbench simulate";
	/** Above this many trace events the in-memory timelines leave out the application's intervals. */
	public static final long APPLICATION_INTERVALS_LIMIT = RunOutputs.APPLICATION_INTERVALS_LIMIT;

	private final ExperimentPlan plan;
	private final Path traceFile;
	private final String traceName;
	private final Trace trace;
	private final EngineCatalog catalog;
	private ExperimentListener listener = ExperimentListener.NONE;

	/**
	 * Checks the configuration against the trace (every refusal of {@link ExperimentPlan#check(Trace, String)}).
	 *
	 * @param config what to run
	 * @param traceFile the trace's file, for its identity and for messages (as the person gave it)
	 * @param trace the trace loaded from it
	 */
	public ExperimentRunner(ExperimentConfig config, Path traceFile, Trace trace) throws ExperimentException {
		this(ExperimentPlan.of(config), traceFile, trace);
	}

	public ExperimentRunner(ExperimentPlan plan, Path traceFile, Trace trace) throws ExperimentException {
		this(plan, traceFile, trace, EngineCatalog.standard());
	}

	/** @param catalog where the engines of {@code --sets engine:NAME} come from (a session's catalog) */
	public ExperimentRunner(ExperimentPlan plan, Path traceFile, Trace trace, EngineCatalog catalog)
			throws ExperimentException {
		this.plan = plan;
		this.traceFile = traceFile;
		this.trace = trace;
		this.catalog = catalog;
		this.traceName = traceFile.toString();
		plan.check(trace, traceName, catalog);
	}

	/** Where the run's lines go ({@code simulating ...}, notes on the folder, warnings). */
	public ExperimentRunner listener(ExperimentListener l) {
		this.listener = l;
		return this;
	}

	public ExperimentPlan plan() {
		return plan;
	}

	/** Runs every policy with every set source, in memory only. */
	public ExperimentResult run(String name, @Nullable IProgressMonitor monitor) throws ExperimentException {
		IProgressMonitor pm = monitor == null ? new NullProgressMonitor() : monitor;
		try {
			pm.beginTask("Experiment " + name, simulationUnits());
			List<RunOutputs.Run> runs = simulate(new RunOutputs(null), pm);
			return result(name, runs);
		} finally {
			pm.done();
		}
	}

	/**
	 * Runs and writes {@code simulate}'s outputs into {@code dir} (which must exist): the previous simulate run's
	 * files there are replaced, files with simulate's names that no manifest lists make it refuse before anything
	 * runs; nothing appears under a final name unless the whole run succeeded.
	 */
	public ExperimentOutputs runInto(String name, Path dir, @Nullable IProgressMonitor monitor)
			throws ExperimentException {
		return runInto(name, dir, monitor, false, null);
	}

	/** More to write beside the outputs, given the runs and the trace's identity (the store's runs file). */
	interface Sidecar {
		void write(List<CrRun> runs, TraceIdentity identity, IProgressMonitor monitor) throws Exception;
	}

	/**
	 * As {@link #runInto(String, Path, IProgressMonitor)}.
	 *
	 * @param scratch whether {@code dir} is a fresh folder the caller discards when the run fails or is cancelled:
	 *        then even moving the files into place may be cancelled
	 * @param sidecar written on a worker thread beside the charts, after the trace's identity; may be null
	 */
	ExperimentOutputs runInto(String name, Path dir, @Nullable IProgressMonitor monitor, boolean scratch,
			@Nullable Sidecar sidecar) throws ExperimentException {
		IProgressMonitor pm = monitor == null ? new NullProgressMonitor() : monitor;
		ResultFolder folder = ResultFolder.open(dir, listener);
		try {
			pm.beginTask("Experiment " + name, simulationUnits() + 2 * UNITS);
			if (trace.eventCount() > APPLICATION_INTERVALS_LIMIT) {
				listener.warning("the trace has more than " + APPLICATION_INTERVALS_LIMIT + " events: the timeline "
						+ "chart shows the C/R lanes and stalls only (the JSON and CSV files have every interval)");
			}
			List<RunOutputs.Run> runs = simulate(new RunOutputs(folder), pm);
			List<CrRun> crRuns = runs.stream().map(RunOutputs.Run::crRun).toList();
			Map<String, SimulationMetrics> metrics = new LinkedHashMap<>();
			runs.forEach(r -> metrics.put(r.name(), r.metrics()));
			pm.subTask("metrics and charts");
			writeCsv(folder, "metrics.csv", w -> MetricsCsvWriter.write(w, metrics));
			writeCsv(folder, "violations.csv", w -> MetricsCsvWriter.writeViolations(w, metrics));
			// JFreeChart draws a chart in one call: on a worker thread, so that progress goes on and a cancel returns
			// at once; the trace's SHA-256 (and the sidecar) on a second one. Both report into halves of the phase,
			// so that the phase says how far it is until its last part (the hash or the runs file, often) is done
			TraceIdentity identity = Background.call("charts", pm, 1.5 * UNITS, true, m -> {
				m.beginTask("charts", 2);
				CompletableFuture<TraceIdentity> side = new CompletableFuture<>();
				ProgressSlice sideShare = new ProgressSlice(m, 1);
				sideShare.beginTask(null, 100);
				Thread hashing = new Thread(() -> {
					try {
						TraceIdentity id = TraceIdentity.of(traceFile, trace,
								new WorkOnly(new ProgressSlice(sideShare, sidecar == null ? 100 : 30)));
						if (sidecar != null) {
							sidecar.write(crRuns, id, new WorkOnly(new ProgressSlice(sideShare, 70)));
						}
						side.complete(id);
					} catch (Throwable t) {
						side.completeExceptionally(t);
					}
				}, "phos-experiment: trace identity");
				hashing.setDaemon(true);
				hashing.start();
				ExperimentCharts.write(folder, traceChartName(), plan.machine(), runs, metrics,
						plan.config().widthPx(), new ProgressSlice(m, 1));
				try {
					return side.get();
				} catch (ExecutionException e) {
					if (e.getCause() instanceof Exception x) {
						throw x;
					}
					throw e;
				}
			});
			checkCanceled(pm);
			// from here on the files move into place: no cancel (the folder would mix two runs) unless the folder
			// is the caller's scratch
			List<String> written = Background.call("moving the outputs into place", pm, UNITS / 2, scratch,
					m -> folder.commit(json -> describe(json, identity, runs), listener));
			return new ExperimentOutputs(result(name, runs), dir, written);
		} finally {
			if (scratch) {
				// a worker cancelled while moving files holds the folder: let it finish, do not wait for it
				Thread later = new Thread(folder::abandon, "phos-experiment: abandon");
				later.setDaemon(true);
				later.start();
			} else {
				folder.abandon();
			}
			pm.done();
		}
	}

	/**
	 * A monitor for work beside another on the same phase: passes work and cancellation on, not task names (the
	 * phase keeps the name of its main work).
	 */
	private static final class WorkOnly extends NullProgressMonitor {
		private final IProgressMonitor of;

		WorkOnly(IProgressMonitor of) {
			this.of = of;
		}

		@Override
		public void beginTask(String name, int totalWork) {
			of.beginTask(null, totalWork);
		}

		@Override
		public void internalWorked(double work) {
			of.internalWorked(work);
		}

		@Override
		public void worked(int work) {
			of.worked(work);
		}

		@Override
		public boolean isCanceled() {
			return of.isCanceled();
		}
	}

	/** Work units of one phase (a set source's sets, a run's replay, the charts, ...). */
	private static final int UNITS = 1000;

	/** The units of the set sources and the runs (two replays each: baseline and with C/R). */
	private int simulationUnits() {
		return UNITS * plan.sets().size() + 2 * UNITS * plan.sets().size() * plan.policies().size();
	}

	private static void checkCanceled(IProgressMonitor pm) {
		if (pm.isCanceled()) {
			throw new OperationCanceledException();
		}
	}

	private ExperimentResult result(String name, List<RunOutputs.Run> runs) {
		return new ExperimentResult(name, traceFile, plan.config(), runs.stream().map(RunOutputs.Run::crRun).toList());
	}

	/** The trace's file name, for chart titles. */
	private String traceChartName() {
		Path name = traceFile.getFileName();
		return name == null ? traceName : name.toString();
	}

	private List<RunOutputs.Run> simulate(RunOutputs outputs, IProgressMonitor pm) throws ExperimentException {
		// charts draw with AWT off screen; there may be no display
		System.setProperty("java.awt.headless", "true");
		List<AccessSets> sets = plan.sets();
		Map<String, CrPolicy> policies = plan.policies();
		boolean comparison = plan.comparison();
		List<RunOutputs.Run> runs = new ArrayList<>();
		for (AccessSets source : sets) {
			checkCanceled(pm);
			pm.subTask("read/write sets: " + source.label());
			// building the sets is one pass over the trace (a speculation engine's, or the calibration's) that
			// reports seldom or never: on a worker thread
			TraceWorkload workload = Background.call("read/write sets: " + source.label(), pm, UNITS, true,
					m -> source.workload(trace, traceChartName(), traceName, catalog, m));
			listener.info(String.format("simulating %s: %,d events, %,d launches; sets: %s; machine: %s", traceName,
					trace.eventCount(), trace.launchCount(), workload.policySourceName(), plan.machine().name()));
			for (Map.Entry<String, CrPolicy> p : policies.entrySet()) {
				String run = sets.size() > 1 ? p.getKey() + " [" + source.label() + "]" : p.getKey();
				pm.subTask("simulating " + run);
				RunOutputs.Run done = outputs.simulate(run, outputs.suffix(run, comparison), workload, plan.machine(),
						p.getValue(), new ProgressSlice(pm, 2 * UNITS));
				checkInstantReached(p.getValue(), plan.instants().get(p.getKey()), done);
				runs.add(done);
			}
		}
		return runs;
	}

	/** Refuses a run whose instant (a time past the end, typically) was never reached: it took no checkpoint. */
	private static void checkInstantReached(CrPolicy policy, @Nullable String given, RunOutputs.Run run)
			throws ExperimentException {
		if (given == null || policy.name().equals("none") || policy.restoreInstant() != null
				|| !run.metrics().checkpoints().isEmpty()) {
			return;
		}
		throw new ExperimentException(ExperimentProblem.of(ExperimentPlan.optionOf(given), "option " + given + ": "
				+ run.name() + " reached the end of the trace (" + run.metrics().launches() + " launches, "
				+ Units.formatNs(run.metrics().appEndNs())
				+ " of simulated time) before that instant, so it took no checkpoint; choose an earlier one"));
	}

	/** The manifest's description of the run: the options and the trace. */
	private void describe(JsonWriter json, TraceIdentity identity, List<RunOutputs.Run> runs) {
		ExperimentConfig c = plan.config();
		json.field("tool", TOOL);
		json.field("finished", Instant.now().toString());
		json.name("options").beginObject();
		json.field("policy", c.policies());
		json.field("at", c.at());
		json.field("machine", c.machine());
		json.field("sets", c.sets());
		json.field("width", (long) c.widthPx());
		json.endObject();
		identity.write(json);
		json.name("runs").beginArray();
		runs.forEach(r -> json.value(r.name()));
		json.endArray();
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
