package org.phos.workbench.internal.cli.commands;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.phos.workbench.analysis.core.AnalysisSession;
import org.phos.workbench.analysis.core.report.ReportBuilder;
import org.phos.workbench.analysis.core.report.ReportFigures;
import org.phos.workbench.analysis.core.report.ReportFolder;
import org.phos.workbench.analysis.core.report.ReportOptions;
import org.phos.workbench.analysis.core.report.TraceReport;
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
import org.phos.workbench.cr.core.CrPolicies;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code workbench report TRACE... --out DIR}: a self-contained HTML report over traces (the headless main job of
 * {@code ./workbench}). The report is computed by analysis.core's {@link ReportBuilder} from the queries
 * {@code info}, {@code validate} and {@code simulate} use, and written by {@link ReportFolder}; this command parses
 * options, loads the traces, prints progress on stderr and the summary on stdout.
 */
public final class ReportCommand implements Command {

	static final Option<Path> OUT = Option.required("out", "DIR", "folder for the report (created if missing)",
			ValueParser.path());
	static final Option<String> ENGINE = Option.withDefault("engine", "NAME[,NAME]",
			"engines judged against the observed accesses (as validate --engine)", ValueParser.text(),
			String.join(",", ReportOptions.DEFAULT_ENGINES));
	static final Option<String> POLICY = Option.withDefault("policy", "SPEC[;SPEC...]",
			"C/R policies compared (as simulate --policy)", ValueParser.text(),
			String.join(";", ReportOptions.DEFAULT_POLICIES));
	static final Option<String> AT = Option.optional("at", "launch:N|TIME",
			"checkpoint (or restore point) of every policy that names no at=; default: the trace's middle launch",
			ValueParser.text());
	static final Option<String> SETS_ENGINE = Option.withDefault("sets-engine", "NAME",
			"engine whose speculated sets the C/R runs use beside the observed ones (simulate --sets engine:NAME)",
			ValueParser.text(), "phos");
	static final Option<String> MACHINE = Option.withDefault("machine", "PRESET[,KNOB=VALUE...]",
			"machine model (as simulate --machine)", ValueParser.text(), "h100");
	static final Option<Long> WIDTH = Option.withDefault("width", "PX", "width of the charts in pixels",
			ValueParser.integer(400, 10_000), 1100L);

	@Override
	public String name() {
		return "report";
	}

	@Override
	public String summary() {
		return "write a self-contained HTML report over traces: overview, accuracy, disagreement, C/R comparison";
	}

	@Override
	public String description() {
		return """
				Write into DIR an HTML report a researcher can read, copy or attach to a paper's artefact (relative
				links only, styles and charts inside the pages): index.html over all traces, and per trace NAME.html
				with its overview (as info), the accuracy of the speculation engines against the observed accesses
				with the unsafe launches listed (as validate; per tool when the trace has several), the kernels where
				the engines disagree most, and a C/R comparison of the main policies with the observed and the
				speculated sets (as simulate --sets observed,engine:NAME) with its charts (SVG) and consistency
				verdicts; beside it NAME-accuracy.csv (validate --csv), NAME-metrics.csv and NAME-violations.csv (simulate's).
				Progress goes to stderr, the path of index.html and one line per trace to stdout. A trace that fails
				to load gets its error on the index page, the others still get their pages; the exit code is then 1.""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(OUT, ENGINE, POLICY, AT, SETS_ENGINE, MACHINE, WIDTH);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.oneOrMore("TRACE", ".phos trace file(s)"));
	}

	@Override
	public List<String> examples() {
		return List.of("report sample-traces/*.phos --out report",
				"report run.phos --policy 'soft-cow;on-demand-restore' --at launch:300 --machine a800-pcie4 --out r");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		AnalysisSession session = AnalysisSession.standard();
		ReportOptions options = options(args, session);
		Path dir = args.get(OUT);
		ReportFolder folder;
		try {
			folder = new ReportFolder(dir);
		} catch (IOException e) {
			throw new CommandFailedException("--out " + dir + ": cannot create the folder: " + Main.describe(e), e);
		}
		PrintStream err = context.err();
		PrintStream out = context.out();
		List<String> files = args.positionals();
		List<String> lines = new ArrayList<>();
		int failures = 0;
		long start = System.nanoTime();
		for (int i = 0; i < files.size(); i++) {
			String file = files.get(i);
			Path path = InputFiles.path(file, "TRACE");
			String name = path.getFileName() == null ? file : path.getFileName().toString();
			String prefix = "report: [" + (i + 1) + "/" + files.size() + "] " + name + ": ";
			err.println(prefix + "loading");
			try {
				Trace trace = TraceLoader.load(path, context).trace();
				ReportBuilder builder = new ReportBuilder(session, options, step -> err.println(prefix + step));
				IProgressMonitor monitor = context.progress();
				TraceReport report;
				try {
					report = builder.build(trace, name, monitor);
				} finally {
					monitor.done(); // clears the terminal's progress line
				}
				folder.add(report);
				session.forget(trace);
				lines.add(name + ": " + ReportFigures.summary(report));
			} catch (CommandFailedException e) {
				failures++;
				err.println(context.programName() + " report: error: " + e.getMessage());
				folder.failed(name, e.getMessage());
				lines.add(name + ": FAILED: " + e.getMessage());
			} catch (IllegalArgumentException | IllegalStateException e) {
				failures++;
				String message = file + ": " + e.getMessage();
				err.println(context.programName() + " report: error: " + message);
				folder.failed(name, message);
				lines.add(name + ": FAILED: " + message);
			} catch (OperationCanceledException e) {
				throw new CommandFailedException("cancelled", e);
			} catch (IOException e) {
				throw new CommandFailedException("cannot write the report into " + dir + ": " + Main.describe(e), e);
			}
		}
		Path index;
		try {
			index = folder.writeIndex("Phoenix Workbench report: " + files.size() + " trace"
					+ (files.size() == 1 ? "" : "s"));
		} catch (IOException e) {
			throw new CommandFailedException("cannot write the report into " + dir + ": " + Main.describe(e), e);
		}
		err.printf("report: done in %.1f s%n", (System.nanoTime() - start) / 1e9);
		lines.forEach(out::println);
		out.println("report: " + index);
		out.flush();
		if (failures > 0) {
			throw new CommandFailedException(failures + " of " + files.size() + " traces could not be reported (their "
					+ "errors are on " + index + ")");
		}
		return ExitCode.OK;
	}

	/** The options, every name checked before any trace is loaded (a usage error lists the known ones). */
	static ReportOptions options(ParsedArguments args, AnalysisSession session) throws UsageException {
		List<String> engines = new ArrayList<>();
		for (String part : args.get(ENGINE).split(",")) {
			String name = part.trim();
			if (name.isEmpty()) {
				throw new UsageException("--engine '" + args.get(ENGINE) + "': empty engine name");
			}
			checkEngine("--engine", name, session);
			if (!engines.contains(name)) {
				engines.add(name);
			}
		}
		String setsEngine = args.get(SETS_ENGINE).trim();
		checkEngine("--sets-engine", setsEngine, session);
		String at = args.find(AT);
		if (at != null) {
			try {
				CheckpointInstant.parse(at);
			} catch (IllegalArgumentException e) {
				throw new UsageException("option --at: " + e.getMessage());
			}
		}
		List<String> policies = new ArrayList<>();
		for (String spec : args.get(POLICY).split(";")) {
			if (spec.isBlank()) {
				continue;
			}
			try {
				CrPolicies.parse(spec.trim());
			} catch (IllegalArgumentException e) {
				throw new UsageException("option --policy: " + e.getMessage());
			}
			policies.add(spec.trim());
		}
		if (policies.isEmpty()) {
			throw new UsageException("option --policy: no policy given (known: "
					+ String.join(", ", CrPolicies.NAMES.stream().sorted().toList()) + ")");
		}
		try {
			MachineModel.parse(args.get(MACHINE));
		} catch (IllegalArgumentException e) {
			throw new UsageException("option --machine: " + e.getMessage());
		}
		return new ReportOptions(engines, policies, at, setsEngine, args.get(MACHINE), args.get(WIDTH).intValue(),
				10, 20);
	}

	private static void checkEngine(String option, String name, AnalysisSession session) throws UsageException {
		if (!session.catalog().canCreate(name)) {
			throw new UsageException(option + " " + name + ": unknown engine (known: " + String.join(", ",
					session.catalog().engines().stream().map(e -> e.name()).toList())
					+ ", combinations A/B, X+indirect, X+blocks, best)");
		}
	}
}
