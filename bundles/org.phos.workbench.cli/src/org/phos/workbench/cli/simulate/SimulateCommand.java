package org.phos.workbench.cli.simulate;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.analysis.core.experiment.ExperimentListener;
import org.phos.workbench.analysis.core.experiment.ExperimentOutputs;
import org.phos.workbench.analysis.core.experiment.ExperimentPlan;
import org.phos.workbench.analysis.core.experiment.ExperimentRunner;
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
import org.phos.workbench.internal.cli.commands.TraceLoader;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.GpuTimeEstimate;

/**
 * {@code workbench simulate TRACE --policy SPEC[;SPEC...] --out DIR}: replays a trace under checkpoint/restore
 * policies on a machine model and writes the timeline (Chrome Trace JSON, CSV), the metrics, the consistency
 * violations and the charts (PNG and SVG) into DIR. Several policies make a comparison: one metrics table and one
 * comparison chart for all runs.
 */
public final class SimulateCommand implements Command {

	static final Option<String> POLICY = Option.required("policy", "SPEC[;SPEC...]",
			"policies to run, NAME[:key=value,...] separated by ';' (names: " + ExperimentPlan.knownPolicies()
					+ "); several make a comparison",
			ValueParser.text());
	static final Option<String> AT = Option.optional("at", "launch:N|TIME",
			"checkpoint (or restore point) of every policy that names no at=: launch index, or a time such as 200ms",
			ValueParser.text());
	static final Option<String> MACHINE = Option.withDefault("machine", "PRESET[,KNOB=VALUE...]",
			"machine model: h100 or a800-pcie4, knobs d2h h2d d2d host-copy memset pageable-factor copy-latency "
					+ "launch-latency default-kernel ctx ctx-pool cpu-state device-memory copier-rate cow-latency",
			ValueParser.text(), "h100");
	static final Option<String> SETS = Option.withDefault("sets", "SOURCE[,SOURCE...]",
			"launch read/write sets: observed (instrumented trace), placeholder (whole allocations of pointer "
					+ "parameters), engine:NAME (a speculation engine: phos, arg-scan, best, ...), auto (default: "
					+ "observed if present, else placeholder); checked against observed accesses when the trace has "
					+ "them; several sources make a comparison",
			ValueParser.text(), "auto");
	static final Option<Path> OUT = Option.required("out", "DIR", "folder for the results (created if missing)",
			ValueParser.path());
	static final Option<Long> WIDTH = Option.withDefault("width", "PX", "width of the charts in pixels",
			ValueParser.integer(400, 10_000), 1600L);

	@Override
	public String name() {
		return "simulate";
	}

	@Override
	public String summary() {
		return "simulate concurrent checkpoint/restore policies over a trace, with timeline, metrics and charts";
	}

	@Override
	public String description() {
		return """
				Replay the trace's launches and copies in time on a machine model and run checkpoint or restore
				policies beside them (docs/simulation.md describes the policies and their parameters). Each run is
				also replayed without C/R for the slowdown. Writes into DIR: timeline.json (Chrome Trace Event JSON
				for ui.perfetto.dev), intervals.csv, metrics.csv (run,metric,value), violations.csv, and the charts
				timeline, dirty and comparison as .png and .svg (and timeline-zoom, around the C/R activity,
				when it is a small part of the run); with several policies the per-run files carry the
				run's name (timeline-soft-cow.json, ...), and manifest.json last (what was run on which trace, and
				which files belong to the result). Files appear only when the whole run succeeded; the results of a
				previous simulate run in DIR (listed in its manifest) are replaced, and files with these names that
				no manifest lists are never overwritten: the command refuses to run. Prints the metrics table and the
				consistency verdict: with observed accesses in the trace, every buffer whose image would miss a write
				the sets did not predict.""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(POLICY, AT, CowBudgetOption.COW_BUDGET, MACHINE, SETS, OUT, WIDTH); // i13-cow: --cow-budget
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.one("TRACE", ".phos trace file"));
	}

	@Override
	public List<String> examples() {
		return List.of("simulate run.phos --policy soft-cow --at launch:100 --out sim",
				"simulate run.phos --policy 'stop-the-world;soft-cow;soft-recopy;on-demand-restore' --at launch:300 "
						+ "--machine a800-pcie4 --out cmp",
				"simulate run.phos --policy soft-cow:order=first-use,budget=1GiB --machine h100,d2h=40GB/s --out sim",
				"simulate run.observed.phos --policy soft-cow --sets observed,placeholder,engine:phos --out check");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		ExperimentConfig config = new ExperimentConfig(
				CowBudgetOption.apply(args.get(POLICY), args.find(CowBudgetOption.COW_BUDGET)), args.find(AT),
				args.get(MACHINE),
				args.get(SETS), args.get(WIDTH).intValue());
		ExperimentPlan plan = plan(config);
		String file = args.positionals().get(0);
		Path traceFile;
		try {
			traceFile = Path.of(file);
		} catch (InvalidPathException e) {
			throw new UsageException("TRACE '" + file + "' is not a valid file name: " + e.getReason());
		}
		Path dir = createOutputFolder(args.get(OUT));
		Trace trace = TraceLoader.load(traceFile, context).trace();
		PrintStream out = context.out();
		if (trace.header().timingSampling().sampled()) {   // i15-cost: where the launches' durations come from
			context.err().println("note: kernel durations: " + GpuTimeEstimate.of(trace).describe()
					+ "; the simulation uses each untimed launch's estimate");
		}
		IProgressMonitor monitor = context.progress();
		ExperimentOutputs outputs;
		try {
			ExperimentRunner runner = new ExperimentRunner(plan, traceFile, trace).listener(listener(context));
			outputs = runner.runInto(dirName(dir), dir, monitor);
		} catch (ExperimentException e) {
			throw rethrow(e);
		} catch (OperationCanceledException e) {
			throw new CommandFailedException("cancelled", e);
		} finally {
			monitor.done();
		}
		out.println();
		MetricsTable.print(out, outputs.result().runs());
		out.println();
		MetricsTable.printConsistency(out, outputs.result().runs());
		out.printf("%nwrote %s: %s%n", dir, String.join(", ", outputs.files()));
		out.flush();
		return ExitCode.OK;
	}

	/** The options read and checked (usage errors with simulate's messages). */
	public static ExperimentPlan plan(ExperimentConfig config) throws UsageException, CommandFailedException {
		try {
			return ExperimentPlan.of(config);
		} catch (ExperimentException e) {
			throw rethrow(e);
		}
	}

	/**
	 * An experiment's refusal as the command line's, with the same message: a usage error is thrown, a failure is
	 * returned (write {@code throw rethrow(e)}).
	 */
	public static CommandFailedException rethrow(ExperimentException e) throws UsageException {
		if (e.usage()) {
			throw new UsageException(e.getMessage());
		}
		return new CommandFailedException(e.getMessage(), e);
	}

	/** The lines of a run: story on stdout, notes and warnings on stderr. */
	public static ExperimentListener listener(CommandContext context) {
		return new ExperimentListener() {
			@Override
			public void info(String line) {
				context.out().println(line);
			}

			@Override
			public void note(String line) {
				context.err().println(line);
			}

			@Override
			public void warning(String message) {
				context.warn(message);
			}
		};
	}

	private static String dirName(Path dir) {
		Path name = dir.toAbsolutePath().normalize().getFileName();
		return name == null ? dir.toString() : name.toString();
	}

	/** Creates the output folder (and its parents); fails when it cannot be a folder. */
	public static Path createOutputFolder(Path dir) throws CommandFailedException {
		if (Files.exists(dir) && !Files.isDirectory(dir)) {
			throw new CommandFailedException("--out " + dir + ": exists and is not a folder");
		}
		try {
			Files.createDirectories(dir);
		} catch (IOException e) {
			throw new CommandFailedException("--out " + dir + ": cannot create the folder: " + Main.describe(e), e);
		}
		if (!Files.isWritable(dir)) {
			throw new CommandFailedException("--out " + dir + ": the folder is not writable");
		}
		return dir;
	}
}
