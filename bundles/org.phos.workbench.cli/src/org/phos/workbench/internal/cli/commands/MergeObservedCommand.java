package org.phos.workbench.internal.cli.commands;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.phos.workbench.cli.Command;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.ParsedArguments;
import org.phos.workbench.cli.Positional;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.internal.cli.util.Outputs;
import org.phos.workbench.speculation.core.instrument.ObservedTraceWriter;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code workbench merge-observed TRACE SIDE.phos... --out FILE}: folds the observed accesses that an instrumentation
 * tool wrote beside a trace (the sanitizer tool's {@code <trace>.observed.phos}, or an instrumented copy written by
 * the PTX replay) into one self-contained trace, so that {@code validate} and {@code simulate --sets observed} see
 * them. Every observed launch index must name a launch of the trace: a side file from another run is refused rather
 * than silently mismatched.
 */
public final class MergeObservedCommand implements Command {

	static final Option<Path> OUT = Option.required("out", "FILE", "the merged .phos file to write",
			ValueParser.path());

	@Override
	public String name() {
		return "merge-observed";
	}

	@Override
	public String summary() {
		return "add the observed accesses of instrumentation side files to a trace";
	}

	@Override
	public String description() {
		return """
				Write a copy of TRACE holding, besides its own events, the observed accesses found in each SIDE file
				(any .phos file with ObservedBatch chunks: the sanitizer tool's <trace>.observed.phos, or a trace
				instrumented by the PTX replay). Observations of a tool that a side file provides replace the trace's
				own observations of that tool. Each observed launch index is checked against TRACE: it must be a
				launch event, so a side file recorded in another run is refused. FILE is written under a temporary
				name and moved into place when complete; it may not be TRACE or a SIDE file, a symbolic link, a
				device or a FIFO (docs/cli.md, "How outputs are written").""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(OUT);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.one("TRACE", "the recorded trace"),
				Positional.oneOrMore("SIDE", "files holding observed accesses for TRACE"));
	}

	@Override
	public List<String> examples() {
		return List.of("merge-observed run.phos run.phos.observed.phos --out run-with-truth.phos");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException {
		List<String> names = args.positionals();
		Path tracePath = Path.of(names.get(0));
		Path out = args.get(OUT);
		List<Path> inputs = new ArrayList<>();
		for (String name : names) {
			inputs.add(Path.of(name));
		}
		Outputs.check(out, "--out", inputs, context);
		Trace trace = TraceLoader.load(tracePath, context).trace();
		List<ObservedAccess> observed = new ArrayList<>();
		List<ObservationCoverage> coverage = new ArrayList<>();
		Set<String> tools = new LinkedHashSet<>();
		for (String name : names.subList(1, names.size())) {
			Path side = Path.of(name);
			Trace sideTrace = TraceLoader.load(side, context).trace();
			for (ObservedAccess access : sideTrace.observedAccesses()) {
				long index = access.launchEvent();
				if (index < 0 || index >= trace.eventCount() || trace.kind((int) index) != EventKind.LAUNCH) {
					throw new CommandFailedException(side + ": observed access names event " + index + ", which is "
							+ (index < 0 || index >= trace.eventCount() ? "outside " : "not a launch of ") + tracePath
							+ " (" + trace.eventCount() + " events): was the side file recorded with another run?");
				}
				observed.add(access);
				tools.add(access.tool());
			}
			for (ObservationCoverage c : sideTrace.observationCoverage()) {   // i15-cost: which launches were observed
				for (long e : c.observedEvents()) {
					if (e < 0 || e >= trace.eventCount() || trace.kind((int) e) != EventKind.LAUNCH) {
						throw new CommandFailedException(side + ": its coverage names event " + e + ", which is not a "
								+ "launch of " + tracePath + ": was the side file recorded with another run?");
					}
				}
				coverage.add(c);
			}
		}
		if (observed.isEmpty()) {
			throw new CommandFailedException("no observed accesses in " + String.join(", ", names.subList(1,
					names.size())) + ": nothing to merge");
		}
		Outputs.write(out, temporary -> {
			ObservedTraceWriter.write(trace, observed, coverage, temporary);
			return null;
		});
		context.out().printf(Locale.ROOT, "wrote %s: %d events, %d observed accesses from %s%n", out,
				trace.eventCount(), observed.size(), String.join(", ", tools));
		return ExitCode.OK;
	}
}
