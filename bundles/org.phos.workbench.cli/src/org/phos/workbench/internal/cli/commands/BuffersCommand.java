package org.phos.workbench.internal.cli.commands;

import java.nio.file.Path;
import java.util.List;

import org.phos.workbench.analysis.core.AnalysisSession;
import org.phos.workbench.analysis.core.BufferOrder;
import org.phos.workbench.analysis.core.BufferQuery;
import org.phos.workbench.analysis.core.BufferRow;
import org.phos.workbench.analysis.core.table.Table;
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
 * {@code workbench buffers TRACE}: every allocation of a trace ({@link BufferQuery} through an
 * {@link AnalysisSession}) with where and when it lived and how many observed launches touched it, as text, CSV or
 * JSON; the Buffers view shows the same rows and exports the same CSV.
 */
public final class BuffersCommand implements Command {

	static final Option<String> TOOL = Option.optional("tool", "NAME",
			"count launches observed by this tool only (default: all tools)", ValueParser.text());
	static final Option<String> SORT = Option.withDefault("sort", "COL",
			"order by COL (-COL: descending): " + String.join(", ", BufferRow.TABLE.headers()), ValueParser.text(),
			"allocated_at");
	static final Option<String> FORMAT = Option.withDefault("format", "F", "text, csv or json",
			ValueParser.choice("text", "csv", "json"), "text");

	@Override
	public String name() {
		return "buffers";
	}

	@Override
	public String summary() {
		return "list allocations: address, size, kind, allocated/freed at, launches that touched them";
	}

	@Override
	public String description() {
		return """
				List every allocation of a trace: base address, size, kind, the event that allocated it and the one
				that freed it (-1: never freed), and how many launches read, wrote or touched it according to the
				observed accesses the trace holds (0 without ground truth). Sorted by --sort (ties in allocation
				order). The Buffers view of the workbench shows the same table.""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(TOOL, SORT, FORMAT);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.one("TRACE", ".phos trace file"));
	}

	@Override
	public List<String> examples() {
		return List.of("buffers run.phos", "buffers run.phos --sort -size --format csv > buffers.csv");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		Path file = InputFiles.path(args.positionals().get(0), "TRACE");
		BufferOrder order;
		try {
			order = BufferOrder.parse(args.get(SORT));
		} catch (IllegalArgumentException e) {
			throw new UsageException("--sort: " + e.getMessage());
		}
		Trace trace = TraceLoader.load(file, context).trace();
		Table<BufferRow> table = order.sort(
				AnalysisSession.standard().buffers(new BufferQuery(trace, args.find(TOOL)), context.progress()));
		String format = args.get(FORMAT);
		TableRenderer.named(format).render(table, context.out());
		if (format.equals("text")) {
			context.out().println(table.rows().size() + " allocations");
		}
		context.out().flush();
		return ExitCode.OK;
	}
}
