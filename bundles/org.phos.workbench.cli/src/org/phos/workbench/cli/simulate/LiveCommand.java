package org.phos.workbench.cli.simulate;

import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.core.runtime.IProgressMonitor;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.analysis.core.experiment.ExperimentProblem;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.analysis.core.experiment.ExperimentStore;
import org.phos.workbench.analysis.core.experiment.ExperimentListener;
import org.phos.workbench.analysis.core.experiment.ExperimentPlan;
import org.phos.workbench.analysis.core.experiment.TraceIdentity;
import org.phos.workbench.analysis.core.format.JsonWriter;
import org.phos.workbench.internal.analysis.core.experiment.AccessSets;
import org.phos.workbench.internal.analysis.core.experiment.ExperimentCharts;
import org.phos.workbench.internal.analysis.core.experiment.PolicyRuns;
import org.phos.workbench.internal.analysis.core.experiment.ResultFolder;
import org.phos.workbench.internal.analysis.core.experiment.RunOutputs;
import org.phos.workbench.internal.cli.commands.TraceLoader;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.cli.Command;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.Main;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.ParsedArguments;
import org.phos.workbench.cli.Positional;
import org.phos.workbench.cli.UsageException;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CrPolicy;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.MetricsCsvWriter;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.CopierOrder;
import org.phos.workbench.cr.core.SoftCopyOnWritePolicy;
import org.phos.workbench.cr.core.SoftOnDemandRestorePolicy;
import org.phos.workbench.cr.core.SoftRecopyPolicy;
import org.phos.workbench.cr.core.RepeatedCheckpointPolicy;
import org.phos.workbench.cr.core.Staging;
import org.phos.workbench.cr.core.StopTheWorldCheckpointPolicy;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.internal.cli.util.Human;
import org.phos.workbench.live.LiveCrEngine;
import org.phos.workbench.live.LiveDevice;
import org.phos.workbench.live.LiveDevices;
import org.phos.workbench.live.LiveRunResult;
import org.phos.workbench.live.ReplayException;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code workbench live TRACE --policy stop-the-world|soft-cow[:...] --out DIR}: the checkpoint run for real on this
 * machine's GPU ({@link LiveCrEngine}), written as {@code simulate} writes its runs (the same {@link RunOutputs} and
 * {@link ResultFolder}), beside the simulated run of the same policy, trace and sets on a machine model: the pair is
 * the live-vs-simulated comparison (metrics.csv, comparison chart). The output code is {@code simulate}'s in this
 * package; when it moves into analysis.core (branch i12-exp-core), this command should call it there.
 */
public final class LiveCommand implements Command {

	static final Option<String> POLICY = Option.required("policy", "SPEC",
			"stop-the-world, soft-cow, soft-recopy, repeated or on-demand-restore, with simulate's parameters (soft-cow:chunk=4MiB,"
					+ "budget=14GiB,at=launch:N); the live engine copies in pointer order, from or into pinned host "
					+ "memory",
			ValueParser.text());
	static final Option<String> AT = Option.optional("at", "launch:N",
			"checkpoint instant when the policy names no at= (default: the middle launch)", ValueParser.text());
	static final Option<Long> WINDOW = Option.withDefault("window", "N",
			"soft-cow: copier chunks in flight at once", ValueParser.integer(1, 1024), 4L);
	static final Option<String> MACHINE = Option.withDefault("machine", "PRESET[,KNOB=VALUE...]",
			"machine model of the simulated twin (as simulate's; `LiveMain calibrate` measures one)",
			ValueParser.text(), "h100");
	static final Option<String> SETS = Option.withDefault("sets", "SOURCE", "launch read/write sets, as simulate's "
			+ "(one source); surrogate launches write their observed ranges, else these", ValueParser.text(), "auto");
	static final Option<Path> OUT = Option.required("out", "DIR", "folder for the results (created if missing)",
			ValueParser.path());
	static final Option<Long> WIDTH = Option.withDefault("width", "PX", "width of the charts in pixels",
			ValueParser.integer(400, 10_000), 1600L);
	static final Option<String> SAVE_AS = Option.optional("save-as", "NAME", "also save the runs as experiment NAME "
			+ "beside the trace (TRACE.experiments/NAME): it opens later on any machine, no GPU needed",
			ValueParser.text());

	/** Opens the device of a live run: the GPU; tests put a host-memory device here. */
	interface DeviceOpener {
		LiveDevice open() throws CommandFailedException;
	}

	static DeviceOpener devices = LiveCommand::openDevice;

	@Override
	public String name() {
		return "live";
	}

	@Override
	public String summary() {
		return "run a checkpoint policy for real on this machine's GPU, beside its simulation";
	}

	@Override
	public String description() {
		return """
				Replay the trace on the GPU (device 0, through JCuda): allocations, copies with their recorded
				payloads, launches of the recorded PTX, and surrogate kernels for launches whose code cannot run
				here (they take the recorded GPU time and write the observed, else the speculated, ranges). At the
				instant the policy checkpoints every live buffer into pinned host memory: stop-the-world, or soft
				copy-on-write with validation (a write outside the sets makes that buffer fall back to stop-and-copy,
				shown on the timeline); or on-demand-restore takes that image, destroys the buffers' contents and
				goes on while they come back on demand and in the background (no new process or context: the
				simulated twin counts a context taken from a pool). The same policy is simulated on --machine. Writes what simulate writes, for
				the two runs "live POLICY" and "simulated POLICY" (timeline-live.json, timeline-simulated.json, their
				intervals CSV and charts, metrics.csv, violations.csv, comparison and dirty charts, manifest.json).
				soft-recopy and repeated run live too (the recopy's image is the state at its stop; repeated
				checkpoints are due by the trace's recorded host time). A live baseline (the same replay without
				checkpoint) runs first: the slowdown is the live run's own. --save-as NAME also saves the runs as
				an experiment beside the trace, which `experiment show` opens on any machine.
				Needs a CUDA device: elsewhere it stops with a message saying so (docs/live-cr.md).""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(POLICY, AT, WINDOW, MACHINE, SETS, OUT, WIDTH, SAVE_AS);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.one("TRACE", ".phos trace file"));
	}

	@Override
	public List<String> examples() {
		return List.of("live run.phos --policy soft-cow --at launch:2000 --out live",
				"live run.phos --policy stop-the-world:at=launch:100 --machine h100,d2h=54GB/s --out live-stw",
				"live run.phos --policy soft-recopy --at launch:500 --out live-recopy --save-as recopy-h100",
				"live run.phos --policy repeated:interval=300ms --at launch:100 --out live-repeated");
	}

	/** The live engine's options for a parsed policy, or a usage error naming what it cannot run. */
	static LiveCrEngine.Options liveOptions(CrPolicy policy, CheckpointInstant at, int window) throws UsageException {
		if (policy instanceof SoftCopyOnWritePolicy soft) {
			var o = soft.options();
			if (!o.copyOnWrite()) {
				throw new UsageException("option --policy: the live engine runs soft-cow with copy-on-write only");
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
		throw new UsageException("option --policy: the live engine runs stop-the-world, soft-cow, soft-recopy, "
				+ "repeated and on-demand-restore, not " + policy.name());
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		String file = args.positionals().get(0);
		Path traceFile;
		try {
			traceFile = Path.of(file);
		} catch (InvalidPathException e) {
			throw new UsageException("TRACE '" + file + "' is not a valid file name: " + e.getReason());
		}
		MachineModel machine;
		try {
			machine = MachineModel.parse(args.get(MACHINE));
		} catch (IllegalArgumentException e) {
			throw new UsageException("option --machine: " + e.getMessage());
		}
		List<AccessSets> sets;
		try {
			sets = AccessSets.parse(args.get(SETS));
		} catch (ExperimentException e) {
			throw SimulateCommand.rethrow(e);
		}
		if (sets.size() != 1) {
			throw new UsageException("option --sets: live takes one source, got " + sets.size());
		}
		String saveAs = args.find(SAVE_AS);
		if (saveAs != null) {
			ExperimentProblem problem = ExperimentStore.of(traceFile).checkNewName(saveAs);
			if (problem != null) {
				throw new UsageException("option --save-as: " + problem.message());
			}
		}
		Path dir = SimulateCommand.createOutputFolder(args.get(OUT));
		ExperimentListener listener = SimulateCommand.listener(context);
		ResultFolder folder;
		try {
			folder = ResultFolder.open(dir, listener);
		} catch (ExperimentException e) {
			throw SimulateCommand.rethrow(e);
		}
		Trace trace = TraceLoader.load(traceFile, context).trace();
		if (trace.launchCount() == 0) {
			throw new CommandFailedException(file + ": the trace holds no launches, so there is nothing to run");
		}
		String refused = TraceWorkload.outOfRange(trace);
		if (refused != null) {
			throw new CommandFailedException(file + ": cannot run this trace: " + refused);
		}
		String at = args.find(AT) != null ? args.find(AT) : "launch:" + trace.launchCount() / 2;
		Map<String, CrPolicy> policies;
		try {
			policies = PolicyRuns.parse(args.get(POLICY), at);
		} catch (ExperimentException e) {
			throw SimulateCommand.rethrow(e);
		}
		if (policies.size() != 1) {
			throw new UsageException("option --policy: live runs one policy, got " + policies.size());
		}
		String policyName = policies.keySet().iterator().next();
		CrPolicy simulated = policies.get(policyName);
		CheckpointInstant instant = ExperimentPlan.instantOf(args.get(POLICY).contains("at=") ? args.get(POLICY)
				: "--at " + at);
		if (instant == null) {
			throw new UsageException("option --at: cannot read the instant of '" + at + "'");
		}
		LiveCrEngine.Options options = liveOptions(simulated, instant, args.get(WINDOW).intValue());
		String spec = args.get(POLICY);
		if (simulated instanceof SoftCopyOnWritePolicy soft && !spec.contains("staging=")) {
			// the live engine commits into pinned memory: the simulated twin does too unless told otherwise
			simulated = new SoftCopyOnWritePolicy(soft.options().withStaging(Staging.PINNED));
		}
		if (simulated instanceof SoftOnDemandRestorePolicy restore && !spec.contains("prefetch=")) {
			// the live restore brings the rest back in the background, in pointer order, from pinned memory
			simulated = new SoftOnDemandRestorePolicy(restore.restoreInstant(), true, CopierOrder.POINTER,
					!spec.contains("pool=false"), spec.contains("staging=pageable") ? Staging.PAGEABLE : Staging.PINNED);
		}
		String traceName = traceFile.getFileName() == null ? file : traceFile.getFileName().toString();
		System.setProperty("java.awt.headless", "true");
		PrintStream out = context.out();
		IProgressMonitor monitor = context.progress();
		RunOutputs outputs = new RunOutputs(folder);
		List<RunOutputs.Run> runs = new ArrayList<>();
		List<String> written;
		String liveLine;
		ExperimentResult saved = null;
		try (LiveDevice device = devices.open()) {
			TraceWorkload workload = sets.get(0).workload(trace, traceName, file, EngineCatalog.standard(), monitor);
			out.printf("live %s on %s: %,d events, %,d launches; sets: %s; checkpoint at %s%n", file,
					device.deviceName(), trace.eventCount(), trace.launchCount(), workload.policySourceName(),
					options.at());
			// the live baseline: the same replay without checkpoint, first, on the same device (its application end
			// is the metrics' baseline, so the slowdown is the live run's own, not the model's)
			long baselineEnd;
			try {
				LiveRunResult base = LiveCrEngine.run(trace, workload, device,
						LiveCrEngine.Options.of(LiveCrEngine.Mode.NONE, options.at()),
						org.phos.workbench.cr.core.TimelineSink.NONE);
				base.close();
				baselineEnd = base.metrics().appEndNs();
			} catch (ReplayException e) {
				throw ExperimentException.failure(file + ": the live baseline run failed: " + e.getMessage(), e);
			}
			String[] line = new String[1];
			long threshold = simulated instanceof SoftRecopyPolicy rp ? rp.thresholdBytes() : Long.MAX_VALUE;
			RunOutputs.Run live = outputs.record("live " + policyName, "-live", workload.sizeHint(), sink -> {
				try {
					LiveRunResult r = LiveCrEngine.run(trace, workload, device, options, sink);
					r.close();
					SimulationMetrics withBaseline = withBaseline(r.metrics(), baselineEnd);
					long dirty = r.metrics().checkpoints().stream().mapToLong(c -> c.dirtyBytes()).sum();
					String extra = String.format(Locale.ROOT, "%nlive baseline (same replay, no checkpoint): application "
							+ "end %.2f ms; with %s %.2f ms: slowdown %.1f%%", baselineEnd / 1e6, policyName,
							r.metrics().appEndNs() / 1e6, 100.0 * (r.metrics().appEndNs() - baselineEnd) / baselineEnd);
					if (options.mode() == LiveCrEngine.Mode.SOFT_RECOPY) {
						extra += "; recopied " + Human.bytes(dirty) + " dirty at the stop (launch "
								+ (r.rounds().isEmpty() ? "-" : r.rounds().get(0).launches()) + ")"
								+ (dirty > threshold ? ", above the threshold where the simulator ships the log and "
										+ "recomputes instead (not run live)" : "");
					}
					if (options.mode() == LiveCrEngine.Mode.REPEATED) {
						extra += "; " + r.rounds().size() + " checkpoints taken";
					}
					line[0] = String.format(Locale.ROOT, "live: %d launches as surrogates, %d real; checkpoint copied "
							+ "%s at %.1f GB/s; %d buffers fell back to stop-and-copy on a write outside the sets; "
							+ "%d real launches after the instant without observed writes (not validated)",
							r.surrogateLaunches(), r.realLaunches(), Human.bytes(r.copyBytes()), r.copyGBps(),
							r.validationFallbacks(), r.unvalidatedLaunches()) + extra;
					return withBaseline;
				} catch (ReplayException e) {
					throw ExperimentException.failure(file + ": the live run failed: " + e.getMessage(), e);
				}
			});
			liveLine = line[0];
			runs.add(live);
			runs.add(outputs.simulate("simulated " + policyName, "-simulated", workload, machine, simulated, monitor));
			Map<String, SimulationMetrics> metrics = new LinkedHashMap<>();
			runs.forEach(r -> metrics.put(r.name(), r.metrics()));
			writeCsv(folder, "metrics.csv", w -> MetricsCsvWriter.write(w, metrics));
			writeCsv(folder, "violations.csv", w -> MetricsCsvWriter.writeViolations(w, metrics));
			ExperimentCharts.write(folder, traceName, machine, runs, metrics, args.get(WIDTH).intValue(),
					new org.eclipse.core.runtime.NullProgressMonitor());
			TraceIdentity identity = TraceIdentity.of(traceFile, trace);
			written = folder.commit(json -> describe(json, args, identity, device.deviceName(), runs), listener);
			if (saveAs != null) {
				ExperimentConfig config = new ExperimentConfig(args.get(POLICY), args.find(AT), args.get(MACHINE),
						args.get(SETS), args.get(WIDTH).intValue());
				saved = ExperimentStore.of(traceFile).saveRuns(saveAs, config, dir,
						runs.stream().map(RunOutputs.Run::crRun).toList());
			}
		} catch (ExperimentException e) {
			throw SimulateCommand.rethrow(e);
		} finally {
			monitor.done();
			folder.abandon();
		}
		out.println();
		MetricsTable.print(out, runs.stream().map(RunOutputs.Run::crRun).toList());
		out.println();
		out.println(liveLine);
		out.printf("%nwrote %s: %s%n", dir, String.join(", ", written));
		if (saved != null) {
			out.printf("saved experiment %s: %s (live on this machine's device; `experiment show` opens it anywhere)%n",
					saved.name(), ExperimentStore.of(traceFile).folder(saved.name()));
		}
		out.flush();
		return ExitCode.OK;
	}

	/** The live run's metrics with the live baseline's application end (the slowdown is then the live one). */
	static SimulationMetrics withBaseline(SimulationMetrics m, long baselineEndNs) {
		return new SimulationMetrics(m.policy(), m.machine(), m.operations(), m.launches(), m.appEndNs(), baselineEndNs,
				m.endNs(), m.stallTotalNs(), m.stallLongestNs(), m.stallCount(), m.stallByCause(), m.checkpoints(),
				m.restoreStartNs(), m.restoreFirstKernelNs(), m.restoreFullStateNs(), m.bytesNeverRestored(),
				m.bytesPerLane(), m.cowCount(), m.cowBytes(), m.consistency());
	}

	private static LiveDevice openDevice() throws CommandFailedException {
		try {
			return LiveDevices.gpu();
		} catch (ReplayException | LinkageError e) {
			// JCuda's message carries its nested stack traces: the first line, and the missing driver if that is why
			String m = String.valueOf(e.getMessage());
			String first = m.lines().findFirst().orElse(m);
			String why = m.contains("libcuda.so.1") ? " (libcuda.so.1, the NVIDIA driver, is not installed here)" : "";
			throw new CommandFailedException("live needs a CUDA GPU and driver on this machine: " + first + why
					+ "; simulate runs the same policy on a machine model anywhere", e);
		}
	}

	private static void describe(JsonWriter json, ParsedArguments args, TraceIdentity trace, String device,
			List<RunOutputs.Run> runs) {
		json.field("tool", Main.PROGRAM + " live");
		json.field("finished", Instant.now().toString());
		json.field("device", device);
		json.name("options").beginObject();
		json.field("policy", args.get(POLICY));
		json.field("at", args.find(AT));
		json.field("window", args.get(WINDOW));
		json.field("machine", args.get(MACHINE));
		json.field("sets", args.get(SETS));
		json.field("width", args.get(WIDTH));
		json.endObject();
		trace.write(json);
		json.name("runs").beginArray();
		runs.forEach(r -> json.value(r.name()));
		json.endArray();
	}

	private interface CsvBody {
		void write(java.io.Writer w);
	}

	private static void writeCsv(ResultFolder folder, String name, CsvBody body) throws ExperimentException {
		java.nio.file.Path file = folder.dir().resolve(name);
		try (java.io.Writer w = RunOutputs.writer(folder.create(name))) {
			body.write(w);
		} catch (java.io.IOException e) {
			throw ExperimentException.failure("cannot write " + file + ": " + Main.describe(e), e);
		} catch (java.io.UncheckedIOException e) {
			throw ExperimentException.failure("cannot write " + file + ": " + Main.describe(e.getCause()), e);
		}
	}
}
