package org.phos.workbench.internal.cli.commands;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.PatternSyntaxException;

import org.phos.workbench.analysis.core.AnalysisSession;
import org.phos.workbench.analysis.core.LaunchQuery;
import org.phos.workbench.analysis.core.LaunchRow;
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
 * {@code workbench launches TRACE}: a page of the launch table ({@link LaunchQuery} through an
 * {@link AnalysisSession}), filtered and sorted, as text, CSV or JSON; the Launches view shows the same rows.
 */
public final class LaunchesCommand implements Command {

	static final Option<String> KERNEL = Option.optional("kernel", "REGEX",
			"only kernels whose demangled name contains a match of REGEX", ValueParser.text());
	static final Option<String> STREAM = Option.optional("stream", "S",
			"only launches on stream S (decimal or 0x hexadecimal handle)", ValueParser.text());
	static final Option<Long> FROM = Option.optional("from", "NS", "only launches issued at host time >= NS",
			ValueParser.integer(Long.MIN_VALUE, Long.MAX_VALUE));
	static final Option<Long> TO = Option.optional("to", "NS", "only launches issued at host time < NS",
			ValueParser.integer(Long.MIN_VALUE, Long.MAX_VALUE));
	static final Option<String> SORT = Option.withDefault("sort", "COL",
			"order by COL (-COL: descending): " + String.join(", ", LaunchQuery.Sort.COLUMNS), ValueParser.text(),
			"launch");
	static final Option<String> ENGINE = Option.optional("engine", "NAME",
			"add each launch's verdict under this engine (validated against the observed truth)", ValueParser.text());
	static final Option<String> VERDICT = Option.optional("verdict", "V",
			"only launches with this verdict under --engine: exact, over-approximated, missed-read, missed-write, "
					+ "wrong-direction, unsafe, unreliable, not-observed",
			ValueParser.choice("exact", "over-approximated", "missed-read", "missed-write", "wrong-direction",
					"unsafe", "unreliable", "not-observed"));
	static final Option<String> TOOL = Option.optional("tool", "NAME",
			"judge verdicts against this observing tool only (default: all tools united)", ValueParser.text());
	static final Option<Long> OFFSET = Option.withDefault("offset", "N", "skip the first N matching launches",
			ValueParser.integer(0, Integer.MAX_VALUE), 0L);
	static final Option<Long> LIMIT = Option.withDefault("limit", "N", "list at most N launches",
			ValueParser.integer(0, Integer.MAX_VALUE), 100L);
	static final Option<String> FORMAT = Option.withDefault("format", "F", "text, csv or json",
			ValueParser.choice("text", "csv", "json"), "text");

	@Override
	public String name() {
		return "launches";
	}

	@Override
	public String summary() {
		return "list launches: times, stream, kernel, grid, decoded parameters, verdict";
	}

	@Override
	public String description() {
		return """
				List a page of a trace's kernel launches: launch and event index, host and GPU times, stream,
				function and demangled kernel name, grid, block, the parameters (pointers into live allocations as
				alloc@EVENT+0xOFF, EVENT the allocation's Alloc event) and, with --engine, the launch's verdict
				under that engine (the worst over its allocations, as validate judges them). Filters combine; the
				matching launches are sorted, then --offset and --limit pick the page. Text prints a last line
				with the page and the total; CSV and JSON hold the rows only (JSON also "offset" and "total").""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(KERNEL, STREAM, FROM, TO, SORT, ENGINE, VERDICT, TOOL, OFFSET, LIMIT, FORMAT);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.one("TRACE", ".phos trace file"));
	}

	@Override
	public List<String> examples() {
		return List.of("launches run.phos --limit 20", "launches run.phos --kernel 'gemm|conv' --sort -gpu_ns",
				"launches run.phos --engine phos --verdict unsafe --format csv > unsafe.csv");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		Path file = InputFiles.path(args.positionals().get(0), "TRACE");
		String engine = args.find(ENGINE);
		if (args.isGiven(VERDICT) && engine == null) {
			throw new UsageException("--verdict needs --engine NAME to judge launches by");
		}
		LaunchQuery.Filter filter;
		LaunchQuery.Sort sort;
		try {
			filter = new LaunchQuery.Filter(args.find(KERNEL), stream(args.find(STREAM)),
					args.isGiven(FROM) ? args.get(FROM) : Long.MIN_VALUE, args.isGiven(TO) ? args.get(TO) : Long.MAX_VALUE,
					args.find(VERDICT));
			sort = LaunchQuery.Sort.parse(args.get(SORT));
		} catch (PatternSyntaxException e) {
			throw new UsageException("--kernel: not a regular expression: " + e.getDescription() + " in '"
					+ e.getPattern() + "'");
		} catch (IllegalArgumentException e) {
			throw new UsageException("--sort: " + e.getMessage());
		}
		Trace trace = TraceLoader.load(file, context).trace();
		AnalysisSession session = AnalysisSession.standard();
		// i14-agent: begin
		try {
			session.javaSites(trace, org.phos.workbench.trace.core.javasites.JavaSites.nextTo(trace, file));
		} catch (java.io.IOException e) {
			context.warn(e.getMessage() + "; the java_site column stays empty");
		}
		// i14-agent: end
		Table<LaunchRow> table;
		try {
			table = session.launches(new LaunchQuery(trace, filter, sort, engine, args.find(TOOL),
					args.get(OFFSET).intValue(), args.get(LIMIT).intValue()), context.progress());
		} catch (IllegalArgumentException e) {
			throw new UsageException("--engine: " + e.getMessage());
		}
		String format = args.get(FORMAT);
		TableRenderer.named(format).render(table, context.out());
		if (format.equals("text")) {
			long first = table.rows().isEmpty() ? table.offset() : table.offset() + 1;
			context.out().println("launches " + first + "-" + (table.offset() + table.rows().size()) + " of "
					+ table.total() + " matching (" + trace.launchCount() + " in the trace)");
		}
		context.out().flush();
		return ExitCode.OK;
	}

	private static Long stream(String text) throws UsageException {
		if (text == null) {
			return null;
		}
		try {
			String t = text.trim().toLowerCase(java.util.Locale.ROOT);
			return t.startsWith("0x") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseUnsignedLong(t);
		} catch (NumberFormatException e) {
			throw new UsageException("--stream '" + text + "': not a number");
		}
	}
}
