package org.phos.workbench.cli.simulate;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.jfree.chart.JFreeChart;
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
import org.phos.workbench.cr.charts.ChartFiles;
import org.phos.workbench.cr.charts.ChartPalette;
import org.phos.workbench.cr.charts.ComparisonChartBuilder;
import org.phos.workbench.cr.charts.DirtyBytesChartBuilder;
import org.phos.workbench.cr.charts.TimelineChartBuilder;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CrPolicy;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.MetricsCsvWriter;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.cr.core.Units;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.internal.cli.commands.TraceLoader;
import org.phos.workbench.analysis.core.format.JsonWriter;
import org.phos.workbench.trace.core.TraceLoadResult;

/**
 * {@code workbench simulate TRACE --policy SPEC[;SPEC...] --out DIR}: replays a trace under checkpoint/restore
 * policies on a machine model and writes the timeline (Chrome Trace JSON, CSV), the metrics, the consistency
 * violations and the charts (PNG and SVG) into DIR. Several policies make a comparison: one metrics table and one
 * comparison chart for all runs.
 */
public final class SimulateCommand implements Command {

	static final Option<String> POLICY = Option.required("policy", "SPEC[;SPEC...]",
			"policies to run, NAME[:key=value,...] separated by ';' (names: " + PolicyRuns.known()
					+ "); several make a comparison",
			ValueParser.text());
	static final Option<String> AT = Option.optional("at", "launch:N|TIME",
			"checkpoint (or restore point) of every policy that names no at=: launch index, or a time such as 200ms",
			ValueParser.text());
	static final Option<String> MACHINE = Option.withDefault("machine", "PRESET[,KNOB=VALUE...]",
			"machine model: h100 or a800-pcie4, knobs d2h h2d d2d host-copy memset pageable-factor copy-latency "
					+ "launch-latency default-kernel ctx ctx-pool cpu-state",
			ValueParser.text(), "h100");
	static final Option<String> SETS = Option.withDefault("sets", "SOURCE[,SOURCE...]",
			"launch read/write sets: observed (instrumented trace), placeholder (whole allocations of pointer "
					+ "parameters), engine:NAME (a speculation engine: phos, arg-scan, best, ...), auto (default: "
					+ "observed if present, else placeholder); checked against observed accesses when the trace has "
					+ "them; several sources make a comparison",
			ValueParser.text(), "auto");
	static final Option<Path> OUT = Option.required("out", "DIR", "folder for the results (created if missing)",
			ValueParser.path());
	static final Option<Long> WIDTH = Option.withDefault("width", "PX", "width of the charts in pixels",
			ValueParser.integer(400, 10_000), 1600L);

	@Override
	public String name() {
		return "simulate";
	}

	@Override
	public String summary() {
		return "simulate concurrent checkpoint/restore policies over a trace, with timeline, metrics and charts";
	}

	@Override
	public String description() {
		return """
				Replay the trace's launches and copies in time on a machine model and run checkpoint or restore
				policies beside them (docs/simulation.md describes the policies and their parameters). Each run is
				also replayed without C/R for the slowdown. Writes into DIR: timeline.json (Chrome Trace Event JSON
				for ui.perfetto.dev), intervals.csv, metrics.csv (run,metric,value), violations.csv, and the charts
				timeline, dirty and comparison as .png and .svg (and timeline-zoom, around the C/R activity,
				when it is a small part of the run); with several policies the per-run files carry the
				run's name (timeline-soft-cow.json, ...), and manifest.json last (what was run on which trace, and
				which files belong to the result). Files appear only when the whole run succeeded; the results of a
				previous simulate run in DIR (listed in its manifest) are replaced, and files with these names that
				no manifest lists are never overwritten: the command refuses to run. Prints the metrics table and the
				consistency verdict: with observed accesses in the trace, every buffer whose image would miss a write
				the sets did not predict.""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(POLICY, AT, MACHINE, SETS, OUT, WIDTH);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.one("TRACE", ".phos trace file"));
	}

	@Override
	public List<String> examples() {
		return List.of("simulate run.phos --policy soft-cow --at launch:100 --out sim",
				"simulate run.phos --policy 'stop-the-world;soft-cow;soft-recopy;on-demand-restore' --at launch:300 "
						+ "--machine a800-pcie4 --out cmp",
				"simulate run.phos --policy soft-cow:order=first-use,budget=1GiB --machine h100,d2h=40GB/s --out sim",
				"simulate run.observed.phos --policy soft-cow --sets observed,placeholder,engine:phos --out check");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		Map<String, String> instants = new LinkedHashMap<>();
		Map<String, CrPolicy> policies = PolicyRuns.parse(args.get(POLICY), args.find(AT), instants);
		MachineModel machine;
		try {
			machine = MachineModel.parse(args.get(MACHINE));
		} catch (IllegalArgumentException e) {
			throw new UsageException("option --machine: " + e.getMessage());
		}
		List<AccessSets> sets = AccessSets.parse(args.get(SETS));
		int width = args.get(WIDTH).intValue();
		String file = args.positionals().get(0);
		Path traceFile;
		try {
			traceFile = Path.of(file);
		} catch (InvalidPathException e) {
			throw new UsageException("TRACE '" + file + "' is not a valid file name: " + e.getReason());
		}
		Path dir = createOutputFolder(args.get(OUT));
		ResultFolder folder = ResultFolder.open(dir, context);
		Trace trace = load(traceFile, context).trace();
		if (trace.launchCount() == 0) {
			throw new CommandFailedException(file + ": the trace holds no launches, so there is nothing to simulate"
					+ (trace.observedAccesses().isEmpty() ? ""
							: " (it holds observed accesses only: merge them into the trace they were recorded from)"));
		}
		String refused = TraceWorkload.outOfRange(trace);
		if (refused != null) {
			throw new CommandFailedException(file + ": cannot simulate this trace: " + refused);
		}
		checkLaunchInstants(policies, instants, trace.launchCount());
		for (AccessSets source : sets) {
			source.check(trace);
		}
		String traceName = traceFile.getFileName() == null ? file : traceFile.getFileName().toString();
		// charts draw with AWT off screen; there may be no display
		System.setProperty("java.awt.headless", "true");

		PrintStream out = context.out();
		if (trace.eventCount() > RunOutputs.APPLICATION_INTERVALS_LIMIT) {
			context.warn("the trace has more than " + RunOutputs.APPLICATION_INTERVALS_LIMIT + " events: the timeline "
					+ "chart shows the C/R lanes and stalls only (the JSON and CSV files have every interval)");
		}
		boolean comparison = policies.size() * sets.size() > 1;
		RunOutputs outputs = new RunOutputs(folder);
		List<RunOutputs.Run> runs = new ArrayList<>();
		IProgressMonitor monitor = context.progress();
		List<String> written;
		try {
			try {
				for (AccessSets source : sets) {
					TraceWorkload workload = source.workload(trace, traceName, file, monitor);
					out.printf("simulating %s: %,d events, %,d launches; sets: %s; machine: %s%n", file,
							trace.eventCount(), trace.launchCount(), workload.policySourceName(), machine.name());
					for (Map.Entry<String, CrPolicy> p : policies.entrySet()) {
						String run = sets.size() > 1 ? p.getKey() + " [" + source.label() + "]" : p.getKey();
						RunOutputs.Run done = outputs.simulate(run, outputs.suffix(run, comparison), workload, machine,
								p.getValue(), monitor);
						checkInstantReached(p.getValue(), instants.get(p.getKey()), done);
						runs.add(done);
					}
				}
			} catch (OperationCanceledException e) {
				throw new CommandFailedException("cancelled", e);
			} finally {
				monitor.done();
			}
			Map<String, SimulationMetrics> metrics = new LinkedHashMap<>();
			runs.forEach(r -> metrics.put(r.name(), r.metrics()));
			writeCsv(folder, "metrics.csv", w -> MetricsCsvWriter.write(w, metrics));
			writeCsv(folder, "violations.csv", w -> MetricsCsvWriter.writeViolations(w, metrics));
			writeCharts(folder, traceName, machine, runs, metrics, width);
			TraceIdentity identity = TraceIdentity.of(traceFile, trace);
			written = folder.commit(json -> describe(json, args, identity, runs), context.err());
		} finally {
			folder.abandon();
		}

		out.println();
		MetricsTable.print(out, runs);
		out.println();
		MetricsTable.printConsistency(out, runs);
		out.printf("%nwrote %s: %s%n", dir, String.join(", ", written));
		out.flush();
		return ExitCode.OK;
	}

	/**
	 * Refuses a launch-index instant at or past the trace's last launch: the run would end without a checkpoint (or
	 * restore) and say nothing.
	 */
	static void checkLaunchInstants(Map<String, CrPolicy> policies, Map<String, String> instants, long launches)
			throws UsageException {
		for (Map.Entry<String, String> e : instants.entrySet()) {
			CrPolicy policy = policies.get(e.getKey());
			CheckpointInstant at = instantOf(e.getValue());
			if (policy != null && at != null && at.byLaunchIndex() && at.value() >= launches) {
				throw new UsageException("option " + e.getValue() + ": the trace has " + launches + " launch"
						+ (launches == 1 ? "" : "es") + " (launch:0 to launch:" + (launches - 1) + "), so "
						+ at + " is never reached and " + e.getKey() + " would take no checkpoint");
			}
		}
	}

	/** Refuses a run whose instant (a time past the end, typically) was never reached: it took no checkpoint. */
	private static void checkInstantReached(CrPolicy policy, @Nullable String given, RunOutputs.Run run)
			throws UsageException {
		if (given == null || policy.name().equals("none") || policy.restoreInstant() != null
				|| !run.metrics().checkpoints().isEmpty()) {
			return;
		}
		throw new UsageException("option " + given + ": " + run.name() + " reached the end of the trace ("
				+ run.metrics().launches() + " launches, " + Units.formatNs(run.metrics().appEndNs())
				+ " of simulated time) before that instant, so it took no checkpoint; choose an earlier one");
	}

	/** The instant in {@code --at X} or {@code --policy ...at=X...}; null when it cannot be read back. */
	static @Nullable CheckpointInstant instantOf(String given) {
		String text = given.startsWith("--at ") ? given.substring(5) : given;
		int at = text.indexOf("at=");
		if (!given.startsWith("--at ")) {
			if (at < 0) {
				return null;
			}
			text = text.substring(at + 3);
			int comma = text.indexOf(',');
			text = comma < 0 ? text : text.substring(0, comma);
		}
		try {
			return CheckpointInstant.parse(text);
		} catch (IllegalArgumentException e) {
			return null;
		}
	}

	/** The manifest's description of the run: the command's options and the trace. */
	private static void describe(JsonWriter json, ParsedArguments args, TraceIdentity trace,
			List<RunOutputs.Run> runs) {
		json.field("tool", Main.PROGRAM + " simulate");
		json.field("finished", Instant.now().toString());
		json.name("options").beginObject();
		json.field("policy", args.get(POLICY));
		json.field("at", args.find(AT));
		json.field("machine", args.get(MACHINE));
		json.field("sets", args.get(SETS));
		json.field("width", args.get(WIDTH));
		json.endObject();
		trace.write(json);
		json.name("runs").beginArray();
		runs.forEach(r -> json.value(r.name()));
		json.endArray();
	}

	static void writeCharts(ResultFolder folder, // i13-live: package access for LiveCommand
			 String traceName, MachineModel machine,
			List<RunOutputs.Run> runs, Map<String, SimulationMetrics> metrics, int width)
			throws CommandFailedException {
		ChartPalette palette = ChartPalette.LIGHT;
		try {
			for (RunOutputs.Run r : runs) {
				TimelineChartBuilder timeline = new TimelineChartBuilder(palette).widthPx(width)
						.title(traceName + ": " + r.name() + " on " + machine.name());
				JFreeChart chart = timeline.build(r.timeline());
				int height = TimelineChartBuilder.suggestedHeight(r.timeline());
				writeBoth(chart, folder, "timeline" + r.suffix(), width, height);
				long[] window = TimelineChartBuilder.crWindow(r.timeline());
				if (window != null && window[1] - window[0] < r.metrics().endNs() / 2) {
					// the C/R activity is a sliver of the run: a second chart zoomed onto it
					JFreeChart zoom = timeline.window(window[0], window[1])
							.title(traceName + ": " + r.name() + " on " + machine.name() + ", around the C/R activity")
							.build(r.timeline());
					writeBoth(zoom, folder, "timeline-zoom" + r.suffix(), width, height);
				}
			}
			DirtyBytesChartBuilder dirty = new DirtyBytesChartBuilder(palette).widthPx(width)
					.title(traceName + ": dirty bytes after the checkpoint instant (" + machine.name() + ")");
			Map<String, TimelineModel> models = new LinkedHashMap<>();
			runs.forEach(r -> models.put(r.name(), r.timeline()));
			writeBoth(dirty.build(models), folder, "dirty", width, Math.max(400, width * 9 / 32));
			ComparisonChartBuilder comparison = new ComparisonChartBuilder(palette)
					.title(traceName + ": C/R policies on " + machine.name());
			writeBoth(comparison.build(metrics), folder, "comparison", Math.max(width * 3 / 4, 600),
					comparison.suggestedHeight());
		} catch (IOException e) {
			throw new CommandFailedException("cannot write the charts into " + folder.dir() + ": " + Main.describe(e),
					e);
		}
	}

	/** {@code base.png} and {@code base.svg}, renamed into place with the other results. */
	private static void writeBoth(JFreeChart chart, ResultFolder folder, String base, int width, int height)
			throws IOException {
		ChartFiles.writePng(chart, folder.create(base + ".png").stream(), width, height);
		ChartFiles.writeSvg(chart, folder.create(base + ".svg").stream(), width, height);
	}

	/** Creates the output folder (and its parents); fails when it cannot be a folder. */
	static Path createOutputFolder(Path dir) throws CommandFailedException {
		if (Files.exists(dir) && !Files.isDirectory(dir)) {
			throw new CommandFailedException("--out " + dir + ": exists and is not a folder");
		}
		try {
			Files.createDirectories(dir);
		} catch (IOException e) {
			throw new CommandFailedException("--out " + dir + ": cannot create the folder: " + Main.describe(e), e);
		}
		if (!Files.isWritable(dir)) {
			throw new CommandFailedException("--out " + dir + ": the folder is not writable");
		}
		return dir;
	}

	interface CsvBody { // i13-live: package access for LiveCommand
		void write(Writer w);
	}

	static void writeCsv(ResultFolder folder, String name, CsvBody body) // i13-live: package access
			 throws CommandFailedException {
		Path file = folder.dir().resolve(name);
		try (Writer w = RunOutputs.writer(folder.create(name))) {
			body.write(w);
		} catch (IOException e) {
			throw new CommandFailedException("cannot write " + file + ": " + Main.describe(e), e);
		} catch (UncheckedIOException e) {
			throw new CommandFailedException("cannot write " + file + ": " + Main.describe(e.getCause()), e);
		}
	}

	static TraceLoadResult load(Path file, CommandContext context) // i13-live: package access
			 throws CommandFailedException {
		return TraceLoader.load(file, context);
	}
}
