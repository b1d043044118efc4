package org.phos.workbench.internal.cli.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.runtime.IProgressMonitor;
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
import org.phos.workbench.internal.cli.bench.BenchFigure;
import org.phos.workbench.internal.cli.bench.BenchReport;
import org.phos.workbench.internal.cli.bench.BenchSuite;
import org.phos.workbench.internal.cli.bench.MachineInfo;
import org.phos.workbench.internal.cli.util.Outputs;

/**
 * {@code workbench bench [--quick] [trace-load|lookup|export|analysis|all]}: measures the figures of the foundation issue on
 * generated traces and prints them against their targets.
 */
public final class BenchCommand implements Command {

	static final Option<Boolean> QUICK = Option.flag("quick",
			"small sizes (seconds instead of minutes), to check that the benchmarks run");
	static final Option<Path> MARKDOWN = Option.optional("markdown", "FILE",
			"also write the results as a markdown section into FILE (replacing the previous one, else appended)",
			ValueParser.path());
	static final Option<Boolean> CHECK = Option.flag("check", "exit with 1 when a figure misses its target");
	static final Option<Path> DIR = Option.withDefault("dir", "DIR",
			"where generated traces and exports are written (and deleted); needs a few GB for full sizes",
			ValueParser.path(), Path.of(System.getProperty("java.io.tmpdir")));

	@Override
	public String name() {
		return "bench";
	}

	@Override
	public String summary() {
		return "measure load speed, model size, lookups, export and the analysis layer against the targets";
	}

	@Override
	public String description() {
		return """
				Measure the figures of the foundation issue on generated traces and print a table (figure, median,
				runs, target, result) with the machine (processors, memory, JVM, load average):
				  trace-load  load 1M and 10M-launch traces into the model: launch events/s (>= 2 M/s) and heap per
				              launch beyond its parameter bytes (<= 64 B)
				  lookup      address-to-allocation lookups with 100k live allocations (>= 20 M/s)
				  export      Chrome JSON export at 500k and 2M launches: events/s (>= 1 M/s) and the bytes the
				              export allocates (flat: < 4 MiB at both sizes); CSV for information
				  analysis    the analysis layer (issue #11) on a 10M-launch trace with synthetic truth for every 10th
				              launch: accesses of a random launch, cold (<= 50 ms median), validate phos,arg-scan
				              (>= 5 M launches/s wall), heap after the first Launches page (<= model + 15%),
				              keyframe build, Launches sort, speculation in parts
				  experiment  a C/R experiment on a 1M-launch trace (issue #12): the workbench's path (load, run,
				              save) against simulate (<= 1.2x, medians of interleaved rounds), the longest interval
				              between progress reports (<= 250 ms) and cancel to return (<= 200 ms)
				  all         all of them (the default)
				Full sizes take several minutes and a few GB under --dir; --quick takes seconds. Wall-clock figures
				suffer when the machine is busy: the details also give figures per CPU second.""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(QUICK, MARKDOWN, CHECK, DIR);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.optional("FIGURE", "trace-load, lookup, export, analysis, experiment or all (default all)"));
	}

	@Override
	public List<String> examples() {
		return List.of("bench --quick", "bench export", "bench analysis", "bench all --markdown docs/benchmarks.md");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		String which = args.positionals().isEmpty() ? "all" : args.positionals().get(0);
		if (!which.equals("all") && !BenchSuite.FIGURES.contains(which)) {
			String close = org.phos.workbench.cli.Suggestions.closest(which, allNames());
			throw new UsageException("unknown figure '" + which + "'"
					+ (close != null ? "; did you mean '" + close + "'?" : "") + " (known: "
					+ String.join(", ", allNames()) + ")");
		}
		Path directory = args.get(DIR);
		if (!Files.isDirectory(directory) || !Files.isWritable(directory)) {
			throw new CommandFailedException("--dir " + directory + ": not a writable directory");
		}
		Path markdown = args.find(MARKDOWN);
		if (markdown != null) {
			Outputs.check(markdown, "--markdown", List.of(), context);
		}
		boolean quick = args.get(QUICK);
		MachineInfo machine = MachineInfo.current();
		context.err().println("benchmarks (" + (quick ? "quick" : "full sizes") + ") on " + machine.describe());
		IProgressMonitor monitor = context.progress();
		List<BenchFigure> figures;
		try {
			figures = new BenchSuite(quick, directory, context.err()).run(which, monitor);
		} catch (IOException e) {
			throw new CommandFailedException("benchmark failed: " + Main.describe(e), e);
		} finally {
			monitor.done();
		}
		String command = "./workbench bench" + (quick ? " --quick" : "") + " " + which
				+ (markdown != null ? " --markdown " + markdown : "");
		BenchReport report = new BenchReport(figures, MachineInfo.current(), command, ZonedDateTime.now(), quick);
		report.printTable(context.out());
		if (markdown != null) {
			try {
				report.writeMarkdown(markdown);
			} catch (IOException e) {
				throw new CommandFailedException("cannot write " + markdown + ": " + Main.describe(e), e);
			}
			context.out().println("wrote the results to " + markdown);
		}
		return args.get(CHECK) && !report.allPass() ? ExitCode.FAILURE : ExitCode.OK;
	}

	private static List<String> allNames() {
		List<String> names = new ArrayList<>(BenchSuite.FIGURES);
		names.add("all");
		return names;
	}
}
