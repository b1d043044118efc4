package org.phos.workbench.internal.cli.commands;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.phos.workbench.cli.Command;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.ParsedArguments;
import org.phos.workbench.cli.Positional;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.javasites.JavaCall;
import org.phos.workbench.trace.core.javasites.JavaSiteLog;
import org.phos.workbench.trace.core.javasites.JavaSites;

/**
 * {@code workbench java-sites TRACE [--sites FILE] [--events N]}: the Java call sites the JCuda agent recorded for a
 * trace (docs/trace-format.md "Java call sites"), paired with the trace's events: which modules the program named,
 * which Java lines launched which kernels how often, and optionally the first N events with their sites.
 */
public final class JavaSitesCommand implements Command {

	static final Option<Path> SITES = Option.optional("sites", "FILE",
			"the agent's side file (default: TRACE.java-sites)", ValueParser.path());
	static final Option<Long> EVENTS = Option.withDefault("events", "N",
			"also list the first N launches, allocations, frees and copies with their Java site",
			ValueParser.integer(0, Integer.MAX_VALUE), 0L);

	@Override
	public String name() {
		return "java-sites";
	}

	@Override
	public String summary() {
		return "show the Java call sites the JCuda agent recorded for a trace";
	}

	@Override
	public String description() {
		return """
				Pair the lines of the JCuda agent's side file (TRACE.java-sites unless --sites names another) with
				the events of TRACE by time, and print the modules with the names the program gave them, then each
				Java call site with the kernels it launched and how often. Events of other threads (native
				libraries) and graph-node launches have no site. See docs/cli.md, "Java call sites".""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(SITES, EVENTS);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.one("TRACE", "the recorded trace"));
	}

	@Override
	public List<String> examples() {
		return List.of("java-sites jacobi.phos", "java-sites run.phos --sites run.phos.java-sites --events 20");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException {
		Path tracePath = Path.of(args.positionals().get(0));
		Path given = args.find(SITES);
		Path side = given != null ? given : JavaSiteLog.sideFileOf(tracePath);
		if (!Files.isRegularFile(side)) {
			throw new CommandFailedException(side + ": no Java call-site file" + (given != null ? ""
					: " next to the trace (run the program with -javaagent:phos-jcuda-agent.jar, or give --sites)"));
		}
		Trace trace = TraceLoader.load(tracePath, context).trace();
		JavaSiteLog log;
		try {
			log = JavaSiteLog.read(side);
		} catch (IOException e) {
			throw new CommandFailedException(e.getMessage());
		}
		log.warnings().forEach(w -> context.warn(w));
		JavaSites sites = JavaSites.match(trace, log);
		PrintStream out = context.out();
		int candidates = 0;
		for (EventKind k : List.of(EventKind.LAUNCH, EventKind.ALLOC, EventKind.FREE, EventKind.MEMCPY)) {
			candidates += trace.count(k);
		}
		out.printf(Locale.ROOT, "%s with %s: %d of %d launches, allocations, frees and copies carry a Java site; "
				+ "%d of %d Java calls found no event%n", tracePath, side, sites.matchedEvents(), candidates,
				sites.unmatchedCalls(), sites.calls());
		out.println();
		out.println("Modules");
		for (ModuleInfo m : trace.modules()) {
			String name = sites.moduleName(m.id());
			out.printf(Locale.ROOT, "  %3d  %-7s %s%n", m.id(), m.kind(), name == null ? "(not loaded through JCuda)"
					: name);
		}
		Map<String, Map<String, Integer>> bySite = new TreeMap<>();
		for (int i = 0; i < trace.eventCount(); i++) {
			JavaCall c = sites.site(i);
			if (c != null && trace.kind(i) == EventKind.LAUNCH) {
				bySite.computeIfAbsent(c.site(), k -> new TreeMap<>()).merge(kernel(trace, i), 1, Integer::sum);
			}
		}
		out.println();
		out.println("Launches by Java call site");
		out.printf(Locale.ROOT, "  %8s  %-28s %s%n", "launches", "kernel", "java site");
		bySite.forEach((site, kernels) -> kernels.forEach((kernel, n) -> out.printf(Locale.ROOT, "  %8d  %-28s %s%n",
				n, kernel, site)));
		long listed = args.get(EVENTS);
		if (listed > 0) {
			out.println();
			out.println("Events");
			out.printf(Locale.ROOT, "  %8s  %-7s %-28s %s%n", "event", "kind", "kernel", "java site");
			for (int i = 0, shown = 0; i < trace.eventCount() && shown < listed; i++) {
				EventKind k = trace.kind(i);
				if (k != EventKind.LAUNCH && k != EventKind.ALLOC && k != EventKind.FREE && k != EventKind.MEMCPY) {
					continue;
				}
				JavaCall c = sites.site(i);
				out.printf(Locale.ROOT, "  %8d  %-7s %-28s %s%n", i, k, k == EventKind.LAUNCH ? kernel(trace, i) : "",
						c == null ? "-" : c.site());
				shown++;
			}
		}
		return ExitCode.OK;
	}

	private static String kernel(Trace trace, int event) {
		FunctionInfo f = trace.event(event) instanceof TraceEvent.Launch l ? trace.functionById(l.function()) : null;
		return f == null ? "?" : f.demangledName().isEmpty() ? f.mangledName() : f.demangledName();
	}
}
