package org.phos.workbench.cli.speculation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.ParsedArguments;
import org.phos.workbench.cli.UsageException;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.internal.cli.commands.TraceLoader;
import org.phos.workbench.internal.cli.util.Outputs;
import org.phos.workbench.trace.core.TraceLoadResult;

/** What both speculation commands share: options, loading the trace, making engines, writing output files. */
final class SpeculationInputs {

	static final Option<String> ENGINE = Option.withDefault("engine", "NAME[,NAME]",
			"engines to run side by side: phos, arg-scan, ptx-flow, combinations A/B (A where it covers the launch, "
					+ "else B), X+indirect, X+blocks (whole allocations narrowed to the allocator block a pointer names, "
					+ "bounded by the launch's other pointers), X+past-blocks (and by earlier launches' pointers and "
					+ "copies), X+cublas (cuBLAS's split-K kernels bounded by a table of their parameters), " // i15-cublas
					+ "X+alloc-blocks (to the block the caching allocator reported live, from a trace recorded " // i15-alloc
					+ "with PHOS_TORCH_ALLOC=1; X+alloc-blocks-strict: a pointer into an allocator segment's free space names "
					+ "nothing), or best (" + EngineRegistry.BEST_SPEC + ")",
			ValueParser.text(), "phos,arg-scan,ptx-flow/arg-scan,best");
	static final Option<Path> CSV = Option.optional("csv", "FILE", "also write the per-kernel table as CSV",
			ValueParser.path());
	static final Option<Path> JSON = Option.optional("json", "FILE", "also write the results as JSON",
			ValueParser.path());

	private SpeculationInputs() {
	}

	static List<String> engineNames(String text) throws UsageException {
		List<String> names = new ArrayList<>();
		for (String part : text.split(",")) {
			String name = part.trim();
			if (name.isEmpty()) {
				throw new UsageException("--engine '" + text + "': empty engine name");
			}
			if (!names.contains(name)) {
				names.add(name);
			}
		}
		return names;
	}

	/** Makes fresh engines for the trace; an unknown name is a usage error listing the known ones. */
	static List<SpeculationEngine> engines(List<String> names, Trace trace) throws UsageException {
		List<SpeculationEngine> engines = new ArrayList<>();
		for (String name : names) {
			try {
				engines.add(EngineRegistry.create(name, trace));
			} catch (IllegalArgumentException e) {
				throw new UsageException("--engine: " + e.getMessage());
			}
		}
		return engines;
	}

	static TraceLoadResult load(String name, CommandContext context) throws CommandFailedException {
		return TraceLoader.load(Path.of(name), context);
	}

	static String kernelName(Trace trace, int functionId) {
		FunctionInfo f = trace.functionById(functionId);
		return f == null ? "function #" + functionId : f.displayName();
	}

	/**
	 * Refuses, before any work, a {@code --csv} or {@code --json} file that may not be written: the trace itself, a
	 * symbolic link, a folder, a device or FIFO (docs/cli.md, "How outputs are written").
	 */
	static void checkOutputs(ParsedArguments args, String trace, CommandContext context)
			throws CommandFailedException {
		Path csv = args.find(CSV);
		if (csv != null) {
			Outputs.check(csv, "--csv", List.of(Path.of(trace)), context);
		}
		Path json = args.find(JSON);
		if (json != null) {
			Outputs.check(json, "--json", List.of(Path.of(trace)), context);
		}
	}

	static String csv(String text) {
		return text.contains(",") || text.contains("\"") || text.contains("\n")
				? "\"" + text.replace("\"", "\"\"") + "\"" : text;
	}

	static String percent(double share) {
		return String.format(Locale.ROOT, "%.2f%%", share * 100);
	}

	static String clip(String text, int width) {
		return text.length() <= width ? text : text.substring(0, width - 1) + "…";
	}
}
