package org.phos.workbench.cli.speculation;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.core.runtime.IProgressMonitor;
import org.phos.workbench.cli.Command;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.ParsedArguments;
import org.phos.workbench.cli.Positional;
import org.phos.workbench.cli.UsageException;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.analysis.core.format.JsonWriter;
import org.phos.workbench.internal.cli.util.Outputs;
import org.phos.workbench.speculation.core.LaunchSpeculation;
import org.phos.workbench.speculation.core.SpeculatedAccess;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.validate.SpeculationProfile;
import org.phos.workbench.speculation.core.validate.SpeculationProfile.EngineProfile;
import org.phos.workbench.speculation.core.validate.SpeculationProfile.KernelProfile;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code workbench speculate TRACE --engine NAME[,NAME]}: what each engine predicts each kernel touches, per launch on
 * average (allocations, written allocations, indirect ones, bytes), and, with {@code --launch N}, every speculated
 * access of one launch.
 */
public final class SpeculateCommand implements Command {

	static final Option<Long> LAUNCH = Option.optional("launch", "N",
			"also list every access each engine speculates for launch number N (0-based, in launch order)",
			ValueParser.integer(0, Integer.MAX_VALUE));

	@Override
	public String name() {
		return "speculate";
	}

	@Override
	public String summary() {
		return "run speculation engines over a trace: allocations and bytes each predicts per kernel";
	}

	@Override
	public String description() {
		return """
				Run speculation engines side by side over every launch of a trace and print, per kernel and engine,
				the launches the engine covers, and per launch on average the allocations it predicts touched, how
				many of them written, how many found only through pointers stored in device memory (indirect), and
				the bytes. Whole-allocation engines (phos, arg-scan) count whole allocations; ptx-flow counts the
				bounded ranges. No ground truth is needed; see validate for accuracy.""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(SpeculationInputs.ENGINE, LAUNCH, SpeculationInputs.CSV, SpeculationInputs.JSON);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.one("TRACE", ".phos trace file"));
	}

	@Override
	public List<String> examples() {
		return List.of("speculate run.phos", "speculate run.phos --engine phos,best --launch 12",
				"speculate run.phos --engine ptx-flow/arg-scan --csv spec.csv --json spec.json");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		List<String> names = SpeculationInputs.engineNames(args.get(SpeculationInputs.ENGINE));
		String file = args.positionals().get(0);
		SpeculationInputs.checkOutputs(args, file, context);
		Trace trace = SpeculationInputs.load(file, context).trace();
		List<SpeculationEngine> engines = SpeculationInputs.engines(names, trace);
		Long launch = args.find(LAUNCH);
		if (launch != null && launch >= trace.launchCount()) {
			throw new UsageException("--launch " + launch + ": the trace has " + trace.launchCount() + " launches (0 to "
					+ (trace.launchCount() - 1) + ")");
		}
		IProgressMonitor monitor = context.progress();
		SpeculationProfile.Result result;
		try {
			result = SpeculationProfile.of(trace, engines, launch == null ? -1 : launch.intValue(), monitor);
		} finally {
			monitor.done();
		}
		PrintStream out = context.out();
		out.printf("%s: %d launches of %d kernels%n%n", file, trace.launchCount(), trace.functions().size());
		int width = Math.max(26, result.engines().stream().mapToInt(e -> e.engine().length()).max().orElse(0));
		out.printf("%-44s %-" + width + "s %9s %8s %10s %9s %9s %12s%n", "KERNEL", "ENGINE", "LAUNCHES", "COVERED", "ALLOCS/L",
				"WRITE/L", "INDIR/L", "BYTES/L");
		Map<Integer, KernelProfile> first = result.engines().get(0).kernels();
		for (int function : first.keySet()) {
			for (EngineProfile e : result.engines()) {
				KernelProfile k = e.kernels().get(function);
				row(out, SpeculationInputs.clip(SpeculationInputs.kernelName(trace, function), 44), e.engine(), width, k);
			}
		}
		out.println();
		for (EngineProfile e : result.engines()) {
			row(out, "(all kernels)", e.engine(), width, e.total());
		}
		for (EngineProfile e : result.engines()) {
			for (String note : e.notes()) {
				out.println("note: " + e.engine() + ": " + note);
			}
		}
		for (LaunchSpeculation s : result.detail()) {
			out.printf("%nlaunch %d (event %d, %s), engine %s%s:%n", launch, s.launchEvent(),
					SpeculationInputs.kernelName(trace, trace.functionId(s.launchEvent())), s.engine(),
					s.covered() ? "" : " (not covered)");
			for (SpeculatedAccess a : s.accesses()) {
				out.printf("  %-3s 0x%x..0x%x (%d bytes) of allocation 0x%x%s%s%s%n", a.direction(), a.begin(), a.end(),
						a.length(), a.allocationBase(), a.wholeAllocation() ? ", whole" : "",
						a.indirect() ? ", indirect" : "",
						a.paramIndex() >= 0 ? ", param " + a.paramIndex() + " at offset " + a.paramOffset() : "");
			}
			if (s.accesses().isEmpty()) {
				out.println("  (nothing)");
			}
		}
		out.flush();
		Path csv = args.find(SpeculationInputs.CSV);
		if (csv != null) {
			Outputs.writeText(csv, w -> {
				w.println("kernel,function_id,engine,launches,covered,allocations,written,indirect,bytes,written_bytes");
				for (EngineProfile e : result.engines()) {
					for (Map.Entry<Integer, KernelProfile> k : e.kernels().entrySet()) {
						KernelProfile p = k.getValue();
						w.printf(Locale.ROOT, "%s,%d,%s,%d,%d,%d,%d,%d,%d,%d%n",
								SpeculationInputs.csv(SpeculationInputs.kernelName(trace, k.getKey())), k.getKey(),
								SpeculationInputs.csv(e.engine()), p.launches(), p.covered(), p.allocations(),
								p.written(), p.indirect(), p.bytes(), p.writtenBytes());
					}
				}
			});
		}
		Path json = args.find(SpeculationInputs.JSON);
		if (json != null) {
			Outputs.writeText(json, w -> {
				JsonWriter j = new JsonWriter(w);
				j.beginObject().field("trace", file).field("launches", trace.launchCount()).name("engines").beginArray();
				for (EngineProfile e : result.engines()) {
					j.beginObject().field("engine", e.engine());
					profile(j.name("total"), e.total());
					j.name("kernels").beginArray();
					for (Map.Entry<Integer, KernelProfile> k : e.kernels().entrySet()) {
						j.beginObject().field("function_id", k.getKey())
								.field("kernel", SpeculationInputs.kernelName(trace, k.getKey()));
						profile(j.name("speculation"), k.getValue());
						j.endObject();
					}
					j.endArray().name("notes").beginArray();
					for (String n : e.notes()) {
						j.value(n);
					}
					j.endArray().endObject();
				}
				j.endArray().endObject().finish();
			});
		}
		return ExitCode.OK;
	}

	private static void profile(JsonWriter j, KernelProfile p) {
		j.beginObject().field("launches", p.launches()).field("covered", p.covered())
				.field("allocations", p.allocations()).field("written", p.written()).field("indirect", p.indirect())
				.field("bytes", p.bytes()).field("written_bytes", p.writtenBytes()).endObject();
	}

	private static void row(PrintStream out, String kernel, String engine, int width, KernelProfile k) {
		double n = Math.max(1, k.launches());
		out.printf(Locale.ROOT, "%-44s %-" + width + "s %9d %8s %10.2f %9.2f %9.2f %12.0f%n", kernel, engine, k.launches(),
				SpeculationInputs.percent(k.covered() / n), k.allocations() / n, k.written() / n, k.indirect() / n,
				k.bytes() / n);
	}
}
