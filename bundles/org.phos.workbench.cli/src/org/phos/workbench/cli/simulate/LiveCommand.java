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
import org.phos.workbench.live.LiveExperiments;
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
					+ "budget=14GiB or budget=auto,at=launch:N); the live engine copies in pointer order, from or into pinned host "
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
		return List.of(POLICY, AT, CowBudgetOption.COW_BUDGET, WINDOW, MACHINE, SETS, OUT, WIDTH, SAVE_AS); // i13-cow
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
		try {
			return LiveExperiments.options(policy, at, window);
		} catch (ExperimentException e) {
			throw new UsageException(e.getMessage());
		}
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
		ExperimentConfig config = new ExperimentConfig(
				CowBudgetOption.apply(args.get(POLICY), args.find(CowBudgetOption.COW_BUDGET)), args.find(AT),
				args.get(MACHINE),
				args.get(SETS), args.get(WIDTH).intValue());
		String saveAs = args.find(SAVE_AS);
		try {
			// the configuration is checked before anything is run or written (live runs one policy here)
			if (PolicyRuns.parse(config.policies(), config.at()).size() != 1) {
				throw new UsageException("option --policy: live runs one policy, got "
						+ PolicyRuns.parse(config.policies(), config.at()).size());
			}
			for (CrPolicy p : PolicyRuns.parse(config.policies(), config.at() == null ? "launch:0" : config.at())
					.values()) {
				LiveExperiments.options(p, CheckpointInstant.atLaunch(0), 1);
			}
			MachineModel.parse(config.machine());
			if (AccessSets.parse(config.sets()).size() != 1) {
				throw new UsageException("option --sets: live takes one source, got "
						+ AccessSets.parse(config.sets()).size());
			}
			if (saveAs != null) {
				ExperimentProblem problem = ExperimentStore.of(traceFile).checkNewName(saveAs);
				if (problem != null) {
					throw new UsageException("option --save-as: " + problem.message());
				}
			}
		} catch (IllegalArgumentException e) {
			throw new UsageException("option --machine: " + e.getMessage());
		} catch (ExperimentException e) {
			throw SimulateCommand.rethrow(e);
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
		PrintStream out = context.out();
		IProgressMonitor monitor = context.progress();
		LiveExperiments.Outcome outcome;
		ExperimentResult saved = null;
		try (LiveDevice device = devices.open()) {
			outcome = LiveExperiments.runInto(folder, traceFile, trace, config, args.get(WINDOW).intValue(), device,
					Main.PROGRAM + " live", listener, null, monitor);
			if (saveAs != null) {
				saved = ExperimentStore.of(traceFile).saveRuns(saveAs, config, dir,
						outcome.runs().stream().map(RunOutputs.Run::crRun).toList());
			}
		} catch (ExperimentException e) {
			throw SimulateCommand.rethrow(e);
		} finally {
			monitor.done();
			folder.abandon();
		}
		out.println();
		MetricsTable.print(out, outcome.runs().stream().map(RunOutputs.Run::crRun).toList());
		out.println();
		outcome.lines().forEach(out::println);
		out.printf("%nwrote %s: %s%n", dir, String.join(", ", outcome.written()));
		if (saved != null) {
			out.printf("saved experiment %s: %s (live on this machine's device; `experiment show` opens it anywhere)%n",
					saved.name(), ExperimentStore.of(traceFile).folder(saved.name()));
		}
		out.flush();
		return ExitCode.OK;
	}

	/** Opens the GPU of a live run, or fails with one line saying why there is none here. */
	static LiveDevice openDevice() throws CommandFailedException {
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
}
