package org.phos.workbench.internal.cli.commands;

import org.phos.workbench.speculation.core.validate.PtxCoverage;
import java.nio.file.Path;
import java.util.List;

import org.phos.workbench.cli.Command;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.ParsedArguments;
import org.phos.workbench.cli.Positional;
import org.phos.workbench.cli.UsageException;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.internal.cli.info.SummaryJson;
import org.phos.workbench.internal.cli.info.SummaryText;
import org.phos.workbench.analysis.core.summary.TraceSummary;
import org.phos.workbench.analysis.core.format.JsonWriter;
import org.phos.workbench.trace.core.TraceLoadResult;

/**
 * {@code workbench info TRACE...}: what a trace holds, for a person (text) or a script ({@code --json}).
 */
public final class InfoCommand implements Command {

	static final Option<Long> TOP = Option.withDefault("top", "N", "kernels and allocations listed in each table",
			ValueParser.integer(1, 100_000), 10L);
	static final Option<Boolean> JSON = Option.flag("json",
			"print JSON (one object, or an array for several traces) instead of text");

	@Override
	public String name() {
		return "info";
	}

	@Override
	public String summary() {
		return "summarise traces: header, event counts, kernels, allocations, streams, time span";
	}

	@Override
	public String description() {
		return """
				Summarise one or more .phos traces: who recorded them on which device, events by kind, kernels by
				launches and by GPU time, allocations (peak live bytes, by kind, the largest), copies, operations per
				stream, the host and GPU time span, warnings (a damaged file loads its intact part, with the byte
				offset of the damage) and anomalies (a well-formed trace that says strange things: overlapping live
				allocations, streams never created, GPU end before start, times or sizes no real trace has; each
				kind once, with its count and first event). With several traces, a trace that fails to load is reported and the others
				are still summarised; the exit code is then 1.""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(TOP, JSON);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.oneOrMore("TRACE", ".phos trace file(s)"));
	}

	@Override
	public List<String> examples() {
		return List.of("info sample-traces/*.phos", "info --top 5 run.phos", "info --json run.phos > run-info.json");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		int top = args.get(TOP).intValue();
		boolean json = args.get(JSON);
		List<String> files = args.positionals();
		JsonWriter writer = json ? new JsonWriter(context.out()) : null;
		if (writer != null && files.size() > 1) {
			writer.beginArray();
		}
		CommandFailedException firstFailure = null;
		int failures = 0;
		boolean first = true;
		for (String name : files) {
			Path file = InputFiles.path(name, "TRACE");
			TraceLoadResult loaded;
			try {
				loaded = TraceLoader.load(file, context);
			} catch (CommandFailedException e) {
				if (files.size() == 1) {
					throw e;
				}
				context.err().println(context.programName() + " info: error: " + e.getMessage());
				failures++;
				firstFailure = firstFailure == null ? e : firstFailure;
				continue;
			}
			TraceSummary summary = TraceSummary.of(loaded.trace(), top);
			PtxCoverage.Summary ptx = PtxCoverage.of(loaded.trace()); // i15-val
			if (writer != null) {
				SummaryJson.write(name, summary, ptx, loaded.warnings(), loaded.anomalies(), top, writer);
			} else {
				if (!first) {
					context.out().println();
				}
				SummaryText.print(name, summary, ptx, loaded.warnings(), loaded.anomalies(), top, context.out());
			}
			first = false;
		}
		if (writer != null) {
			if (files.size() > 1) {
				writer.endArray();
			}
			if (!first || files.size() > 1) {
				writer.finish();
			}
		}
		context.out().flush();
		if (failures > 0) {
			throw new CommandFailedException(failures + " of " + files.size() + " traces could not be loaded",
					firstFailure);
		}
		return ExitCode.OK;
	}
}
