package org.phos.workbench.cli.simulate;

import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.analysis.core.experiment.ExperimentPlan;
import org.phos.workbench.analysis.core.experiment.ExperimentProblem;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.analysis.core.experiment.ExperimentStore;
import org.phos.workbench.analysis.core.experiment.SavedExperiment;
import org.phos.workbench.analysis.core.experiment.LiveRun;
import org.phos.workbench.live.LiveDevice;
import org.phos.workbench.live.LiveExperiments;
import org.phos.workbench.cli.Command;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.ParsedArguments;
import org.phos.workbench.cli.Positional;
import org.phos.workbench.cli.UsageException;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.internal.cli.commands.TraceLoader;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code workbench experiment ACTION ...}: the saved C/R experiments beside a trace, as the workbench keeps them
 * ({@code TRACE.experiments/NAME/}: the configuration, {@code simulate}'s outputs, the runs in full and the trace's
 * identity). {@code new} runs a configuration and saves it, {@code run} re-runs a saved one and writes the same
 * outputs, {@code list} lists a trace's experiments with their state, {@code show} prints one's metrics from its
 * saved files (no simulation), {@code rename} and {@code delete} manage them.
 */
public final class ExperimentCommand implements Command {

	static final Option<String> POLICY = Option.optional("policy", "SPEC[;SPEC...]",
			"new: policies to run, as simulate's --policy (required for new)", ValueParser.text());
	static final Option<String> AT = Option.optional("at", "launch:N|TIME",
			"new: checkpoint (or restore point) of every policy that names no at=, as simulate's --at",
			ValueParser.text());
	static final Option<String> MACHINE = Option.withDefault("machine", "PRESET[,KNOB=VALUE...]",
			"new: machine model, as simulate's --machine", ValueParser.text(), ExperimentConfig.DEFAULT_MACHINE);
	static final Option<String> SETS = Option.withDefault("sets", "SOURCE[,SOURCE...]",
			"new: launch read/write sets, as simulate's --sets", ValueParser.text(), ExperimentConfig.DEFAULT_SETS);
	static final Option<Long> WIDTH = Option.withDefault("width", "PX", "new: width of the charts in pixels",
			ValueParser.integer(ExperimentPlan.MIN_WIDTH_PX, ExperimentPlan.MAX_WIDTH_PX),
			(long) ExperimentConfig.DEFAULT_WIDTH_PX);

	// i13-live2: begin
	static final Option<Boolean> LIVE = Option.flag("live", "new, run: run the policies for real on this machine's "
			+ "GPU (as workbench live: each beside its simulated twin, after a live baseline) and save them marked live; "
			+ "the experiment opens later on any machine, no GPU needed");
	// i13-live2: end

	private static final List<String> ACTIONS = List.of("new", "run", "list", "show", "rename", "delete");

	@Override
	public String name() {
		return "experiment";
	}

	@Override
	public String summary() {
		return "create, re-run, list, show, rename and delete the C/R experiments saved beside a trace";
	}

	@Override
	public String description() {
		return """
				A saved experiment is a simulate configuration kept beside its trace, in TRACE.experiments/NAME/:
				experiment.json (the options), outputs/ (exactly what simulate --out writes, manifest.json with the
				trace's path, size, SHA-256 and header, and runs.phosruns, every run's metrics and timeline in full).
				The workbench's New Experiment dialog saves them there too (docs/simulation.md).
				  new TRACE NAME --policy SPEC [--at --machine --sets --width]   run and save as NAME
				  run FOLDER              re-run a saved experiment: writes the same outputs (the old ones stay
				                          until the new ones are complete)
				  new ... --live, run FOLDER --live   run it live on this machine's CUDA GPU (docs/live-cr.md):
				                          each policy for real beside its simulated twin; saved marked live
				                          (device and date in experiment.json, shown by list and show), it opens
				                          on any machine; a live experiment is re-run only with --live
				  list TRACE              the trace's experiments: name, state, policies, machine, sets
				  show FOLDER             the metrics table and consistency verdicts, read from the saved runs
				  rename FOLDER NEWNAME   rename an experiment
				  delete FOLDER           delete an experiment and its outputs
				An experiment whose trace changed since it ran (another SHA-256) is listed as trace-changed and not
				shown: re-run it.""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(POLICY, AT, MACHINE, SETS, WIDTH, LIVE);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.one("ACTION", String.join(", ", ACTIONS)),
				Positional.one("PATH", "the trace (new, list) or the experiment's folder (run, show, rename, delete)"),
				Positional.optional("NAME", "the experiment's name (new) or its new name (rename)"));
	}

	@Override
	public List<String> examples() {
		return List.of("experiment new run.phos budget-1g --policy 'soft-cow:budget=1GiB;stop-the-world' --at launch:300",
				"experiment list run.phos", "experiment show run.phos.experiments/budget-1g",
				"experiment run run.phos.experiments/budget-1g",
				"experiment rename run.phos.experiments/budget-1g budget-one-gig",
				"experiment new run.phos cow-h100 --policy 'soft-cow;stop-the-world' --at launch:300 --live");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		List<String> p = args.positionals();
		String action = p.get(0);
		Path path = path(p.get(1));
		String name = p.size() > 2 ? p.get(2) : null;
		boolean wantsName = action.equals("new") || action.equals("rename");
		if (!ACTIONS.contains(action)) {
			throw new UsageException("unknown action '" + action + "' (known: " + String.join(", ", ACTIONS) + ")");
		}
		if (wantsName && name == null) {
			throw new UsageException("experiment " + action + " needs a NAME");
		}
		if (!wantsName && name != null) {
			throw new UsageException("unexpected argument '" + name + "' (experiment " + action + " takes one path)");
		}
		boolean live = args.isGiven(LIVE) && Boolean.TRUE.equals(args.get(LIVE));
		if (live && !action.equals("new") && !action.equals("run")) {
			throw new UsageException("option --live belongs to experiment new and run, not " + action);
		}
		if (!action.equals("new")) {
			for (Option<?> o : List.of(POLICY, AT, MACHINE, SETS, WIDTH)) {
				if (args.isGiven(o)) {
					throw new UsageException("option --" + o.name() + " belongs to experiment new; " + action
							+ " uses the saved configuration");
				}
			}
		}
		try {
			return switch (action) {
				case "new" -> create(path, String.valueOf(name), args, live, context);
				case "run" -> rerun(path, live, context);
				case "list" -> list(path, context.out());
				case "show" -> show(path, context.out());
				case "rename" -> rename(path, String.valueOf(name), context.out());
				default -> delete(path, context.out());
			};
		} catch (ExperimentException e) {
			throw SimulateCommand.rethrow(e);
		} catch (OperationCanceledException e) {
			throw new CommandFailedException("cancelled", e);
		}
	}

	private static Path path(String text) throws UsageException {
		try {
			return Path.of(text);
		} catch (InvalidPathException e) {
			throw new UsageException("PATH '" + text + "' is not a valid file name: " + e.getReason());
		}
	}

	private int create(Path traceFile, String name, ParsedArguments args, boolean live, CommandContext context)
			throws ExperimentException, CommandFailedException, UsageException {
		String policies = args.find(POLICY);
		if (policies == null) {
			throw new UsageException("experiment new needs --policy SPEC[;SPEC...] (" + POLICY.help() + ")");
		}
		ExperimentConfig config = new ExperimentConfig(policies, args.find(AT), args.get(MACHINE), args.get(SETS),
				args.get(WIDTH).intValue());
		ExperimentPlan.of(config);
		ExperimentStore store = ExperimentStore.of(traceFile);
		ExperimentProblem taken = store.checkNewName(name);
		if (taken != null) {
			throw new ExperimentException(taken);
		}
		if (live) { // i13-live2
			try (LiveDevice device = openLive("new")) {
				Trace trace = TraceLoader.load(traceFile, context).trace();
				IProgressMonitor monitor = context.progress();
				try {
					printResult(context.out(), LiveExperiments.create(store, name, config, trace,
							LiveExperiments.DEFAULT_WINDOW, device, SimulateCommand.listener(context), monitor),
							store.folder(name));
				} finally {
					monitor.done();
				}
			}
			return ExitCode.OK;
		}
		Trace trace = TraceLoader.load(traceFile, context).trace();
		IProgressMonitor monitor = context.progress();
		ExperimentResult result;
		try {
			result = store.create(name, config, trace, SimulateCommand.listener(context), monitor);
		} finally {
			monitor.done();
		}
		printResult(context.out(), result, store.folder(name));
		return ExitCode.OK;
	}

	private int rerun(Path folder, boolean live, CommandContext context)
			throws ExperimentException, CommandFailedException {
		ExperimentStore.Location at = ExperimentStore.locate(folder);
		at.store().get(at.name());
		if (live) { // i13-live2
			try (LiveDevice device = openLive("run")) {
				Trace trace = TraceLoader.load(at.store().traceFile(), context).trace();
				IProgressMonitor monitor = context.progress();
				try {
					printResult(context.out(), LiveExperiments.rerun(at.store(), at.name(), trace,
							LiveExperiments.DEFAULT_WINDOW, device, SimulateCommand.listener(context), monitor),
							at.store().folder(at.name()));
				} finally {
					monitor.done();
				}
			}
			return ExitCode.OK;
		}
		Trace trace = TraceLoader.load(at.store().traceFile(), context).trace();
		IProgressMonitor monitor = context.progress();
		ExperimentResult result;
		try {
			result = at.store().rerun(at.name(), trace, SimulateCommand.listener(context), monitor);
		} finally {
			monitor.done();
		}
		printResult(context.out(), result, at.store().folder(at.name()));
		return ExitCode.OK;
	}

	/** The GPU for {@code --live}, opened before the trace is read; without one, one line saying so. */
	private static LiveDevice openLive(String action) throws CommandFailedException {
		try {
			return LiveCommand.devices.open();
		} catch (CommandFailedException e) {
			String why = String.valueOf(e.getMessage()).replaceFirst("^live needs a CUDA GPU and driver on this "
					+ "machine: ", "").replaceFirst("; simulate runs the same policy on a machine model anywhere$", "");
			throw new CommandFailedException("experiment " + action + " --live needs a CUDA GPU and driver on this "
					+ "machine: " + why + "; without --live the experiment is simulated (no GPU needed)", e);
		}
	}

	private static void printResult(PrintStream out, ExperimentResult result, Path folder) {
		out.println();
		MetricsTable.print(out, result.runs());
		out.println();
		MetricsTable.printConsistency(out, result.runs());
		out.printf("%nsaved %s: %s%n", result.name(), folder);
		out.flush();
	}

	private static int list(Path traceFile, PrintStream out) throws ExperimentException {
		ExperimentStore store = ExperimentStore.of(traceFile);
		List<SavedExperiment> all = store.list();
		if (all.isEmpty()) {
			out.println("no saved experiments for " + traceFile + " (they would be in " + store.root() + ")");
			return ExitCode.OK;
		}
		String row = "%-24s %-14s %-34s %-12s %-10s %s%n";
		out.printf(Locale.ROOT, row, "NAME", "STATE", "POLICIES", "MACHINE", "SETS", "RUN");
		for (SavedExperiment e : all) {
			ExperimentConfig c = e.config();
			out.printf(Locale.ROOT, row, e.name(), state(e.state()),
					c == null ? "-" : c.policies() + (c.at() == null ? "" : " at " + c.at()),
					c == null ? "-" : c.machine(), c == null ? "-" : c.sets(),
					e.live() == null ? "simulated" : e.live().label()); // i13-live2
		}
		for (SavedExperiment e : all) {
			if (e.problem() != null) {
				out.println(e.name() + ": " + e.problem());
			}
		}
		return ExitCode.OK;
	}

	static String state(SavedExperiment.State s) {
		return s.name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	private static int show(Path folder, PrintStream out) throws ExperimentException {
		ExperimentStore.Location at = ExperimentStore.locate(folder);
		SavedExperiment saved = at.store().get(at.name());
		ExperimentResult result = at.store().open(at.name());
		ExperimentConfig c = result.config();
		out.printf("experiment %s of %s (%s)%n", result.name(), at.store().traceFile(), state(saved.state()));
		out.printf("options: --policy '%s'%s --machine %s --sets %s --width %d%n", c.policies(),
				c.at() == null ? "" : " --at " + c.at(), c.machine(), c.sets(), c.widthPx());
		LiveRun live = saved.live(); // i13-live2
		if (live != null) {
			out.printf("run live on %s%s (its runs are read from the saved files; experiment run --live re-runs it on a "
					+ "machine with a CUDA GPU)%n", live.device(), live.finished() == null ? "" : ", " + live.finished());
		}
		out.println();
		MetricsTable.print(out, result.runs());
		out.println();
		MetricsTable.printConsistency(out, result.runs());
		out.printf("%noutputs in %s%n", saved.folder().resolve(ExperimentStore.OUTPUTS));
		return ExitCode.OK;
	}

	private static int rename(Path folder, String to, PrintStream out) throws ExperimentException {
		ExperimentStore.Location at = ExperimentStore.locate(folder);
		SavedExperiment renamed = at.store().rename(at.name(), to);
		out.println("renamed " + at.name() + " to " + renamed.name() + ": " + renamed.folder());
		return ExitCode.OK;
	}

	private static int delete(Path folder, PrintStream out) throws ExperimentException {
		ExperimentStore.Location at = ExperimentStore.locate(folder);
		at.store().delete(at.name());
		out.println("deleted " + at.name() + " (" + at.store().folder(at.name()) + ")");
		return ExitCode.OK;
	}
}
