package org.phos.workbench.cli.speculation;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cli.Command;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.ParsedArguments;
import org.phos.workbench.cli.Positional;
import org.phos.workbench.cli.UsageException;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.analysis.core.AccuracyRow;
import org.phos.workbench.analysis.core.LaunchVerdictRow;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.analysis.core.format.JsonWriter;
import org.phos.workbench.analysis.core.table.TableRenderer;
import org.phos.workbench.internal.cli.util.Outputs;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.validate.AccessVerdict;
import org.phos.workbench.speculation.core.validate.Accuracy;
import org.phos.workbench.speculation.core.validate.EngineValidation;
import org.phos.workbench.speculation.core.validate.PtxCoverage;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.trace.core.ObservedIndex;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code workbench validate TRACE --engine ...}: judges engines against the observed accesses in the trace. A trace
 * without observed accesses is an error (exit 1): there is no truth to judge by, and none is made up.
 */
public final class ValidateCommand implements Command {

	static final Option<String> TOOL = Option.optional("tool", "NAME",
			"use only observed accesses of this tool (ptx-instrument, sanitizer, ...); default: all",
			ValueParser.text());
	// i15-val: begin
	static final Option<Boolean> LAUNCHES = Option.flag("launches",
			"list every judged launch (numbered as 'speculate --launch N') with each engine's verdict; --csv then "
					+ "writes that table, --json adds it as \"launches\"");
	// i15-val: end

	@Override
	public String name() {
		return "validate";
	}

	@Override
	public String summary() {
		return "judge speculation engines against the observed accesses in a trace";
	}

	@Override
	public String description() {
		return """
				For every launch with observed accesses (written into the trace by instrumentation) and every
				allocation that an engine speculated or instrumentation observed, give a verdict: exact,
				over-approximated (bytes wasted), missed-read, missed-write or wrong-direction (unsafe: a concurrent
				checkpoint could be inconsistent). Prints per engine the write recall (must be 100%), read recall,
				byte precision and launches with an unsafe verdict, then verdict counts per kernel. Launches whose
				observed truth is unreliable (a GPU replay that lacked the bytes they read: copies over the
				recorder's payload limit, data of launches it could not run) are excluded from every figure and
				counted in the EXCLUDED column; records naming no launch are ignored with a warning. Then per
				engine the direction figures: read and write precision (bytes speculated in a direction that were
				observed in it / bytes speculated in it), read and write byte recall, and direction accuracy (pairs
				both sides name with the same direction class: read, write or read-write; docs/accuracy.md). The
				PTX line says how many launches have their kernel's PTX and why the others do not. When TRACE holds
				no observed accesses, the side file TRACE.observed.phos (or NAME.observed.phos for NAME.phos) beside
				it is used, and the merge-observed command that would fold it in is named. Exits 1 when neither
				holds observed accesses.""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(SpeculationInputs.ENGINE, TOOL, LAUNCHES, SpeculationInputs.CSV, SpeculationInputs.JSON);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.one("TRACE", ".phos trace file with observed accesses"));
	}

	@Override
	public List<String> examples() {
		return List.of("validate run.phos", "validate run.phos --engine phos,best --csv accuracy.csv",
				"validate run.phos --tool sanitizer --json accuracy.json",
				"validate run.phos --launches --engine phos,best --csv launches.csv");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		List<String> names = SpeculationInputs.engineNames(args.get(SpeculationInputs.ENGINE));
		String file = args.positionals().get(0);
		SpeculationInputs.checkOutputs(args, file, context);
		Trace loaded = SpeculationInputs.load(file, context).trace();
		String tool = args.find(TOOL);
		// i15-val: begin (the side file beside the trace)
		ObservedSideFile.Resolved resolved = ObservedSideFile.resolve(file, loaded, context);
		Trace trace = resolved.trace();
		if (resolved.note() != null) {
			context.out().println(resolved.note());
		}
		// i15-val: end
		if (SpeculationValidator.observedLaunchCount(trace, tool) == 0) {
			String invalid = ObservedIndex.of(trace, tool).invalidWarning();
			if (invalid != null) {
				throw new CommandFailedException(file + ": no usable observed accesses: " + invalid);
			}
			throw new CommandFailedException(file + ": no observed accesses by tool '" + tool + "'; the trace has "
					+ String.join(", ", SpeculationValidator.tools(trace)));
		}
		List<SpeculationEngine> engines = SpeculationInputs.engines(names, trace);
		IProgressMonitor monitor = context.progress();
		ValidationReport report;
		boolean perLaunch = args.get(LAUNCHES);
		LaunchVerdictRow.Collector collector = perLaunch ? new LaunchVerdictRow.Collector() : null;
		try {
			report = SpeculationValidator.validate(trace, engines, tool, monitor, collector);
		} finally {
			monitor.done();
		}
		PtxCoverage.Summary ptx = PtxCoverage.of(trace);
		Table<LaunchVerdictRow> launches = collector == null ? null
				: collector.rows(trace, report.engines().stream().map(EngineValidation::engine).toList(), tool,
						report.reliability());
		PrintStream out = context.out();
		if (report.invalidWarning() != null) {
			context.warn(file + ": " + report.invalidWarning());
		}
		out.printf("%s: %d of %d launches observed (%d records by %s", file, report.observedLaunches(),
				trace.launchCount(), report.observedEntries(), String.join(", ", report.tools()));
		out.printf("%s)%n", report.unattributedEntries() > 0
				? "; " + report.unattributedEntries() + " outside any allocation, not judged" : "");
		// i15-cost: an observer that sampled says which launches it observed; only those can be judged
		for (ObservationCoverage c : trace.observationCoverage()) {
			if (tool == null || tool.equals(c.tool())) {
				out.printf(Locale.ROOT, "coverage (%s): %d of %d launches observed (%s); %d not observed, not judged%n",
						c.tool(), c.observedCount(), trace.launchCount(), c.policy(),
						trace.launchCount() - Math.min(trace.launchCount(), c.observedCount()));
				int[] k = c.kernelCoverage(trace);   // i15-shapes
				ObservationCoverage.ShapeSampling sh = c.shapes();
				out.printf(Locale.ROOT, "coverage (%s): %d of %d distinct kernels have an observed launch%s%n", c.tool(), k[1],
						k[0], sh == null ? "" : "; " + sh.describe());
			}
		}
		out.printf("truth: %s%n", report.reliability().summary());
		out.printf("PTX: %s%n%n", ptx.line()); // i15-val
		out.printf("%-26s %9s %8s %12s %12s %10s %10s %9s%n", "ENGINE", "LAUNCHES", "UNSAFE", "WRITE-RECALL",
				"READ-RECALL", "PRECISION", "UNCOVERED", "EXCLUDED");
		for (EngineValidation e : report.engines()) {
			Accuracy a = e.total();
			out.printf(Locale.ROOT, "%-26s %9d %8d %12s %12s %10s %10d %9d%n", e.engine(), a.launches(),
					a.unsafeLaunches(), share(a, a.writeRecall()), share(a, a.readRecall()),
					share(a, a.bytePrecision()), e.launchesNotCovered(), a.excludedLaunches());
		}
		// i15-val: begin
		out.printf("%n%-26s %10s %10s %12s %12s %10s %10s%n", "ENGINE", "READ-PREC", "WRITE-PREC", "READ-RECALL",
				"WRITE-RECALL", "DIRECTION", "PAIRS");
		for (EngineValidation e : report.engines()) {
			Accuracy a = e.total();
			Accuracy.Directions d = a.directions();
			out.printf(Locale.ROOT, "%-26s %10s %10s %12s %12s %10s %10s%n", e.engine(), share(a, d.readPrecision()),
					share(a, d.writePrecision()), share(a, d.readRecall()), share(a, d.writeRecall()),
					share(a, d.directionAccuracy()), d.directionPairsCorrect() + "/" + d.directionPairs());
		}
		out.println("(bytes per direction; RECALL here counts bytes, above it counts (launch, allocation) pairs; "
				+ "DIRECTION: pairs with the right read/write/read-write class)");
		if (launches != null) {
			printLaunches(out, launches, report);
		}
		// i15-val: end
		for (EngineValidation e : report.engines()) {
			out.printf("%nengine %s: verdicts per kernel%n", e.engine());
			out.printf("%-44s %8s %7s %7s %7s %7s %7s %7s %10s %8s%n", "KERNEL", "LAUNCHES", "UNSAFE", "EXACT",
					"OVER", "M-READ", "M-WRITE", "WRONG", "PRECISION", "EXCLUDED");
			for (Map.Entry<Integer, Accuracy> k : e.kernels().entrySet()) {
				Accuracy a = k.getValue();
				out.printf(Locale.ROOT, "%-44s %8d %7d %7d %7d %7d %7d %7d %10s %8d%n",
						SpeculationInputs.clip(SpeculationInputs.kernelName(trace, k.getKey()), 44), a.launches(),
						a.unsafeLaunches(), a.count(AccessVerdict.EXACT), a.count(AccessVerdict.OVER_APPROXIMATED),
						a.count(AccessVerdict.MISSED_READ), a.count(AccessVerdict.MISSED_WRITE),
						a.count(AccessVerdict.WRONG_DIRECTION), share(a, a.bytePrecision()), a.excludedLaunches());
			}
			for (String note : e.notes()) {
				out.println("note: " + note);
			}
		}
		out.flush();
		Path csv = args.find(SpeculationInputs.CSV);
		if (csv != null && launches != null) {
			Outputs.writeText(csv, w -> TableRenderer.CSV.render(launches, w)); // i15-val
		} else if (csv != null) {
			// i11-polish: one table definition, shared with the Accuracy view's Export CSV (same bytes as before)
			Outputs.writeText(csv, w -> TableRenderer.CSV.render(AccuracyRow.of(report, trace), w));
		}
		Path json = args.find(SpeculationInputs.JSON);
		if (json != null) {
			Outputs.writeText(json, w -> {
				JsonWriter j = new JsonWriter(w);
				j.beginObject().field("trace", file).field("launches", trace.launchCount())
						.field("observed_launches", report.observedLaunches())
						.field("observed_records", report.observedEntries())
						.field("unattributed_records", report.unattributedEntries())
						.field("excluded_launches", report.excludedLaunches())
						.field("not_observed_launches", notObserved(trace, tool))
						.field("truth", report.reliability().summary())
						.field("invalid_records", report.invalidRecords());
				ptxJson(j, ptx); // i15-val
				j.name("engines").beginArray();
				for (EngineValidation e : report.engines()) {
					j.beginObject().field("engine", e.engine()).field("launches_not_covered", e.launchesNotCovered());
					accuracy(j.name("total"), e.total());
					j.name("kernels").beginArray();
					for (Map.Entry<Integer, Accuracy> k : e.kernels().entrySet()) {
						j.beginObject().field("function_id", k.getKey())
								.field("kernel", SpeculationInputs.kernelName(trace, k.getKey()));
						accuracy(j.name("accuracy"), k.getValue());
						j.endObject();
					}
					j.endArray().name("notes").beginArray();
					for (String n : e.notes()) {
						j.value(n);
					}
					j.endArray().endObject();
				}
				j.endArray();
				if (launches != null) { // i15-val
					launchesJson(j, launches);
				}
				j.endObject().finish();
			});
		}
		return ExitCode.OK;
	}

	/** i15-cost: launches the observers' coverage says were not observed (-1: no coverage in the trace). */
	private static long notObserved(Trace trace, @Nullable String tool) {
		long observed = -1;
		for (ObservationCoverage c : trace.observationCoverage()) {
			if (tool == null || tool.equals(c.tool())) {
				observed = Math.max(observed, c.observedCount());
			}
		}
		return observed < 0 ? -1 : trace.launchCount() - Math.min(trace.launchCount(), observed);
	}

	/** A share for the tables, {@code -} when no launch was judged (every observed launch excluded). */
	private static String share(Accuracy a, double share) {
		return a.launches() == 0 ? "-" : SpeculationInputs.percent(share);
	}

	private static void accuracy(JsonWriter j, Accuracy a) {
		j.beginObject().field("launches", a.launches()).field("excluded_launches", a.excludedLaunches())
				.field("unsafe_launches", a.unsafeLaunches())
				.field("write_recall", a.writeRecall()).field("read_recall", a.readRecall())
				.field("byte_precision", a.bytePrecision()).name("verdicts").beginObject();
		for (AccessVerdict v : AccessVerdict.values()) {
			j.field(v.label(), a.count(v));
		}
		j.endObject().field("write_pairs", a.writePairs()).field("write_pairs_recalled", a.writePairsRecalled())
				.field("read_pairs", a.readPairs()).field("read_pairs_recalled", a.readPairsRecalled())
				.field("written_bytes", a.writtenBytes()).field("written_bytes_recalled", a.writtenBytesRecalled())
				.field("speculated_bytes", a.speculatedBytes()).field("useful_bytes", a.usefulBytes());
		// i15-val: begin
		Accuracy.Directions d = a.directions();
		j.name("directions").beginObject().field("read_precision", d.readPrecision())
				.field("write_precision", d.writePrecision()).field("read_byte_recall", d.readRecall())
				.field("write_byte_recall", d.writeRecall()).field("direction_accuracy", d.directionAccuracy())
				.field("speculated_read_bytes", d.speculatedReadBytes()).field("read_bytes", d.readBytes())
				.field("read_bytes_matched", d.readBytesMatched())
				.field("speculated_written_bytes", d.speculatedWrittenBytes()).field("written_bytes", d.writtenBytes())
				.field("written_bytes_matched", d.writtenBytesMatched()).field("direction_pairs", d.directionPairs())
				.field("direction_pairs_correct", d.directionPairsCorrect()).endObject();
		// i15-val: end
		j.endObject();
	}

	// i15-val: begin
	private static void ptxJson(JsonWriter j, PtxCoverage.Summary ptx) {
		j.name("ptx").beginObject().field("launches_with_ptx", ptx.withPtx())
				.field("launches_with_newer_arch_ptx_only", ptx.newerArchOnly())
				.field("launches_without_ptx", ptx.withoutPtx()).name("launches_by_status").beginObject();
		for (PtxCoverage.Status s : PtxCoverage.Status.values()) {
			j.field(s.label(), ptx.launchesByStatus().getOrDefault(s, 0L));
		}
		j.endObject().name("kernels_by_status").beginObject();
		for (PtxCoverage.Status s : PtxCoverage.Status.values()) {
			j.field(s.label(), ptx.kernelsByStatus().getOrDefault(s, 0L));
		}
		j.endObject().endObject();
	}

	private static void launchesJson(JsonWriter j, Table<LaunchVerdictRow> launches) {
		j.name("launches").beginArray();
		for (LaunchVerdictRow r : launches.rows()) {
			j.beginObject().field("launch", r.launch()).field("event", r.event()).field("function_id", r.functionId())
					.field("kernel", r.kernel()).field("engine", r.engine()).field("verdict", r.verdictLabel())
					.field("byte_precision", r.bytePrecision()).name("verdicts").beginObject();
			for (AccessVerdict v : AccessVerdict.values()) {
				j.field(v.label(), r.count(v));
			}
			j.endObject();
			// the byte and pair counts: the table's columns after the verdict counts, as the CSV names them
			List<org.phos.workbench.analysis.core.table.Column<LaunchVerdictRow>> columns = LaunchVerdictRow.TABLE
					.columns();
			for (int c = columns.indexOf(LaunchVerdictRow.TABLE.column("speculated_bytes")); c < columns.size(); c++) {
				j.field(columns.get(c).header(), ((Number) columns.get(c).getter().apply(r)).longValue());
			}
			j.endObject();
		}
		j.endArray();
	}

	/** Per launch, one column per engine: its worst verdict there and its byte precision. */
	private static void printLaunches(PrintStream out, Table<LaunchVerdictRow> launches, ValidationReport report) {
		List<String> engines = report.engines().stream().map(EngineValidation::engine).toList();
		out.printf("%nverdicts per launch (LAUNCH as 'speculate --launch N' numbers launches; worst verdict over the "
				+ "launch's allocations, then byte precision)%n");
		int width = 24; // wide enough for "over-approximated 100.00%" and for the engines' names, up to 32
		for (String e : engines) {
			width = Math.max(width, Math.min(32, e.length()));
		}
		String cellFormat = " %-" + width + "s";
		StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%7s %7s %-36s", "LAUNCH", "EVENT", "KERNEL"));
		for (String e : engines) {
			head.append(String.format(Locale.ROOT, cellFormat, SpeculationInputs.clip(e, width)));
		}
		out.println(head.toString().stripTrailing());
		List<LaunchVerdictRow> rows = launches.rows();
		for (int i = 0; i < rows.size();) {
			LaunchVerdictRow first = rows.get(i);
			StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%7d %7d %-36s", first.launch(),
					first.event(), SpeculationInputs.clip(first.kernel(), 36)));
			java.util.Map<String, LaunchVerdictRow> byEngine = new java.util.HashMap<>();
			for (; i < rows.size() && rows.get(i).launch() == first.launch(); i++) {
				byEngine.put(rows.get(i).engine(), rows.get(i));
			}
			for (String e : engines) {
				LaunchVerdictRow r = byEngine.get(e);
				String cell = r == null ? "-"
						: r.excluded() ? "excluded"
								: (r.unsafe() ? r.verdictLabel().toUpperCase(Locale.ROOT) : r.verdictLabel()) + " "
										+ SpeculationInputs.percent(r.bytePrecision());
				line.append(String.format(Locale.ROOT, cellFormat, cell));
			}
			out.println(line.toString().stripTrailing());
		}
	}
	// i15-val: end
}
