package org.phos.workbench.internal.cli.commands;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.analysis.core.AccessAnswer;
import org.phos.workbench.analysis.core.AccessQuery;
import org.phos.workbench.analysis.core.AnalysisSession;
import org.phos.workbench.analysis.core.table.TableRenderer;
import org.phos.workbench.cli.Command;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.ParsedArguments;
import org.phos.workbench.cli.Positional;
import org.phos.workbench.cli.UsageException;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code workbench accesses TRACE --launch N}: what one launch reads and writes per allocation, speculated by engines
 * and observed by tools, with each engine's verdict ({@link AccessQuery}); the Accesses view shows the same rows.
 */
public final class AccessesCommand implements Command {

	static final Option<Long> LAUNCH = Option.required("launch", "N", "the launch (dense launch index, from 0)",
			ValueParser.integer(0, Integer.MAX_VALUE));
	static final Option<String> ENGINE = Option.withDefault("engine", "NAME[,NAME]",
			"engines to compare (names or combinations as for validate)", ValueParser.text(), "best,phos");
	static final Option<String> TOOL = Option.optional("tool", "NAME[,NAME]",
			"observing tools to show (default: every tool in the trace)", ValueParser.text());
	static final Option<String> FORMAT = Option.withDefault("format", "F", "text, csv or json",
			ValueParser.choice("text", "csv", "json"), "text");

	@Override
	public String name() {
		return "accesses";
	}

	@Override
	public String summary() {
		return "one launch's accesses per allocation: speculated, observed, verdict";
	}

	@Override
	public String description() {
		return """
				For one launch, one row per allocation that an engine or a tool names: its address, size, kind and
				Alloc event; per engine the speculated direction, read and written byte ranges (offsets in the
				allocation) and the verdict against the tools' records united (exact, over-approximated,
				missed-read, missed-write, wrong-direction; unreliable when the launch's truth cannot be stood
				behind, not-observed when no tool observed it); per tool the observed read and written ranges.
				Verdicts follow the same rule as validate.""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(LAUNCH, ENGINE, TOOL, FORMAT);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.one("TRACE", ".phos trace file"));
	}

	@Override
	public List<String> examples() {
		return List.of("accesses run.phos --launch 12", "accesses run.phos --launch 12 --engine phos,arg-scan --format csv");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		Path file = InputFiles.path(args.positionals().get(0), "TRACE");
		List<String> engines = names(args.get(ENGINE), "--engine");
		List<String> tools = args.isGiven(TOOL) ? names(args.find(TOOL), "--tool") : List.of();
		Trace trace = TraceLoader.load(file, context).trace();
		int launch = args.get(LAUNCH).intValue();
		if (launch >= trace.launchCount()) {
			throw new UsageException("--launch " + launch + ": the trace has " + trace.launchCount() + " launches (0-"
					+ (trace.launchCount() - 1) + ")");
		}
		AnalysisSession session = AnalysisSession.standard();
		AccessAnswer answer;
		try {
			answer = session.accesses(new AccessQuery(trace, launch, engines, tools), context.progress());
		} catch (IllegalArgumentException e) {
			throw new UsageException("--engine: " + e.getMessage());
		}
		String format = args.get(FORMAT);
		TableRenderer.named(format).render(answer.table(), context.out());
		if (format.equals("text")) {
			int e = trace.launchEvent(launch);
			context.out().println("launch " + launch + " (event " + e + "), " + answer.table().rows().size()
					+ " allocations; tools: " + (answer.tools().isEmpty() ? "none (no observed truth)"
							: String.join(", ", answer.tools())));
			if (answer.unreliable() != null) {
				context.out().println("truth unreliable: " + answer.unreliable());
			}
			for (int i = 0; i < engines.size(); i++) {
				if (!answer.covered().isEmpty() && !answer.covered().get(i)) {
					context.out().println(engines.get(i) + ": cannot speak for this launch");
				}
			}
		}
		context.out().flush();
		return ExitCode.OK;
	}

	private static List<String> names(String text, String option) throws UsageException {
		List<String> names = new ArrayList<>();
		for (String part : text.split(",")) {
			String name = part.trim();
			if (name.isEmpty()) {
				throw new UsageException(option + " '" + text + "': empty name");
			}
			if (!names.contains(name)) {
				names.add(name);
			}
		}
		return names;
	}
}
