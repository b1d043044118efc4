package org.phos.workbench.analysis.core.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.Range;
import org.phos.workbench.analysis.core.AccuracyRow;
import org.phos.workbench.analysis.core.AnalysisSession;
import org.phos.workbench.analysis.core.KernelQuery;
import org.phos.workbench.analysis.core.KernelRow;
import org.phos.workbench.analysis.core.Overview;
import org.phos.workbench.analysis.core.OverviewQuery;
import org.phos.workbench.analysis.core.ValidationAnswer;
import org.phos.workbench.analysis.core.ValidationQuery;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.analysis.core.experiment.ExperimentPlan;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.analysis.core.experiment.ExperimentRunner;
import org.phos.workbench.cr.charts.ByteUnitScale;
import org.phos.workbench.cr.charts.ChartFiles;
import org.phos.workbench.cr.charts.ChartPalette;
import org.phos.workbench.cr.charts.ComparisonChartBuilder;
import org.phos.workbench.cr.charts.DirtyBytesChartBuilder;
import org.phos.workbench.cr.charts.SmallChartBuilder;
import org.phos.workbench.cr.charts.TimeUnitScale;
import org.phos.workbench.cr.charts.TimelineChartBuilder;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.cr.core.trace.ObservedLaunchAccesses;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.speculation.core.validate.PtxCoverage;
import org.phos.workbench.speculation.core.validate.EngineValidation;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;

/**
 * Computes a {@link TraceReport} through the queries the commands use: {@code OverviewQuery} ({@code info}'s
 * figures), {@code ValidationQuery} ({@code validate}), {@code KernelQuery}, and the {@link ExperimentRunner} (the
 * code path of {@code simulate}) with {@code --sets observed,engine:NAME}. Each step is announced to {@code steps} (the command prints
 * them on stderr) and runs under the monitor (cancel → {@code OperationCanceledException}).
 */
public final class ReportBuilder {
	private final AnalysisSession session;
	private final ReportOptions options;
	private final Consumer<String> steps;

	/**
	 * @param session the session whose queries (and caches) the report uses
	 * @param options what to compute
	 * @param steps receives one line per step (progress), may ignore them
	 */
	public ReportBuilder(AnalysisSession session, ReportOptions options, Consumer<String> steps) {
		this.session = session;
		this.options = options;
		this.steps = steps;
	}

	/**
	 * @param trace the loaded trace
	 * @param name its file name, for titles
	 * @param monitor progress and cancellation, may be null
	 * @return the report
	 * @throws IllegalArgumentException for an unknown engine, policy or machine (the message names it)
	 */
	public TraceReport build(Trace trace, String name, @Nullable IProgressMonitor monitor) {
		IProgressMonitor pm = monitor != null ? monitor : new NullProgressMonitor();
		MachineModel machine = MachineModel.parse(options.machine());
		steps.accept("overview");
		Overview overview = session.overview(new OverviewQuery(trace, options.kernels(), 200), pm);

		List<TraceReport.Accuracy> accuracy = new ArrayList<>();
		String accuracyNote = null;
		TraceReport.Disagreement disagreement = new TraceReport.Disagreement(options.engines(), List.of(), List.of());
		if (trace.observedAccesses().isEmpty() || SpeculationValidator.observedLaunchCount(trace, null) == 0) {
			accuracyNote = "The trace holds no observed accesses, so there is no ground truth to judge the engines by "
					+ "(record it with PTX instrumentation or the sanitizer tool).";
		} else {
			List<String> tools = SpeculationValidator.tools(trace);
			List<@Nullable String> judged = new ArrayList<>();
			judged.add(null);
			if (tools.size() > 1) {
				judged.addAll(tools);
			}
			for (String tool : judged) {
				steps.accept("validating " + String.join(", ", options.engines())
						+ (tool == null ? "" : " against " + tool));
				accuracy.add(accuracy(trace, tool, pm));
			}
			steps.accept("kernels where the engines disagree");
			disagreement = disagreement(session.kernels(new KernelQuery(trace, options.engines(), null), pm).rows());
		}

		TraceReport.CrComparison cr = null;
		String crNote = TraceWorkload.outOfRange(trace);
		if (trace.launchCount() == 0) {
			crNote = "The trace holds no launches, so there is nothing to simulate.";
		} else if (crNote != null) {
			crNote = "The simulator cannot compute with this trace: " + crNote;
		} else {
			cr = simulate(trace, name, machine, pm);
		}
		return new TraceReport(name, trace.launchCount(), overview, memoryChart(overview.memory()), accuracy,
				accuracyNote, disagreement, cr, crNote);
	}

	private TraceReport.Accuracy accuracy(Trace trace, @Nullable String tool, IProgressMonitor pm) {
		ValidationAnswer answer = session.validate(new ValidationQuery(trace, options.engines(), tool), pm);
		Map<String, List<Integer>> unsafe = new LinkedHashMap<>();
		Map<String, List<String>> kernels = new LinkedHashMap<>();
		List<EngineValidation> engines = answer.report().engines();
		for (int e = 0; e < engines.size(); e++) {
			List<Integer> launches = answer.unsafeLaunches(e);
			unsafe.put(engines.get(e).engine(), launches);
			List<String> names = new ArrayList<>();
			for (int l : launches.subList(0, Math.min(options.unsafeListed(), launches.size()))) {
				int id = trace.functionId(trace.launchEvent(l));
				FunctionInfo f = trace.functionById(id);
				names.add(f == null ? "function #" + id : f.displayName());
			}
			kernels.put(engines.get(e).engine(), names);
		}
		return new TraceReport.Accuracy(tool, answer.report(), AccuracyRow.of(answer.report(), trace), unsafe,
				kernels, PtxCoverage.of(trace).line()); // i15-val: the PTX line
	}

	/** The kernels with observed launches, largest spread between the engines first (ties: more launches). */
	private TraceReport.Disagreement disagreement(List<KernelRow> rows) {
		record Ranked(KernelRow row, double spread) {
		}
		List<Ranked> ranked = new ArrayList<>();
		for (KernelRow r : rows) {
			double spread = spread(r);
			if (!Double.isNaN(spread)) {
				ranked.add(new Ranked(r, spread));
			}
		}
		ranked.sort(Comparator.comparingDouble(Ranked::spread).reversed()
				.thenComparing(Comparator.comparingLong((Ranked r) -> r.row().launches()).reversed()));
		List<Ranked> top = ranked.subList(0, Math.min(options.kernels(), ranked.size()));
		return new TraceReport.Disagreement(options.engines(), top.stream().map(Ranked::row).toList(),
				top.stream().map(Ranked::spread).toList());
	}

	/**
	 * The largest difference between two engines in byte precision, read recall, write recall or the unsafe share of
	 * launches; NaN when fewer than one engine compared a launch of the kernel.
	 */
	static double spread(KernelRow row) {
		double[] min = { Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
				Double.POSITIVE_INFINITY };
		double[] max = { Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY,
				Double.NEGATIVE_INFINITY };
		boolean any = false;
		for (KernelRow.EngineFigures f : row.engines()) {
			if (f.compared() == 0) {
				continue;
			}
			any = true;
			double[] v = { f.precision(), f.readRecall(), f.writeRecall(), (double) f.unsafeLaunches() / f.compared() };
			for (int i = 0; i < v.length; i++) {
				if (!Double.isNaN(v[i])) {
					min[i] = Math.min(min[i], v[i]);
					max[i] = Math.max(max[i], v[i]);
				}
			}
		}
		if (!any) {
			return Double.NaN;
		}
		double spread = 0;
		for (int i = 0; i < min.length; i++) {
			if (max[i] >= min[i]) {
				spread = Math.max(spread, max[i] - min[i]);
			}
		}
		return spread;
	}

	/** The instant every policy without {@code at=} gets: the option's, else the middle launch. */
	String instant(Trace trace) {
		return options.at() != null ? options.at() : "launch:" + trace.launchCount() / 2;
	}

	/**
	 * The C/R comparison through the experiment runner ({@code simulate}'s code path): the policies at the instant,
	 * with the sets of {@code simulate --sets observed,engine:NAME} (placeholder when nothing was observed).
	 */
	private TraceReport.CrComparison simulate(Trace trace, String name, MachineModel machine, IProgressMonitor pm) {
		String at = instant(trace);
		String truth = new ObservedLaunchAccesses(trace).isEmpty() ? "placeholder" : "observed";
		String engineSets = "engine:" + options.setsEngine();
		ExperimentConfig config = new ExperimentConfig(String.join(";", options.policies()), at, options.machine(),
				truth + "," + engineSets, options.chartWidth());
		steps.accept("speculating the sets of " + options.setsEngine() + " and simulating " + options.policies().size()
				+ " policies with " + truth + " and " + engineSets + " sets");
		ExperimentResult result;
		List<String> labels;
		int perSource;
		try {
			ExperimentPlan plan = ExperimentPlan.of(config);
			labels = plan.setLabels();
			perSource = plan.policies().size();
			result = new ExperimentRunner(plan, Path.of(name), trace, session.catalog()).run(name, pm);
		} catch (ExperimentException e) {
			throw new IllegalArgumentException(e.getMessage(), e);
		}
		List<TraceReport.CrRun> runs = new ArrayList<>();
		Map<String, TimelineModel> timelines = new LinkedHashMap<>();
		for (int i = 0; i < result.runs().size(); i++) {
			CrRun r = result.runs().get(i);
			runs.add(new TraceReport.CrRun(r.name(), labels.get(i / perSource), r.metrics()));
			timelines.put(r.name(), r.timeline());
		}
		steps.accept("charts");
		return new TraceReport.CrComparison(at, machine.name(), runs, charts(name, machine, runs, timelines));
	}

	private List<TraceReport.Chart> charts(String name, MachineModel machine, List<TraceReport.CrRun> runs,
			Map<String, TimelineModel> timelines) {
		// charts draw with AWT off screen; there may be no display
		System.setProperty("java.awt.headless", "true");
		ChartPalette palette = ChartPalette.LIGHT;
		int width = options.chartWidth();
		List<TraceReport.Chart> charts = new ArrayList<>();
		Map<String, SimulationMetrics> metrics = new LinkedHashMap<>();
		runs.forEach(r -> metrics.put(r.name(), r.metrics()));
		ComparisonChartBuilder comparison = new ComparisonChartBuilder(palette)
				.title(name + ": C/R policies on " + machine.name());
		charts.add(chart("Stall, completion and bytes moved per run (observed and speculated sets side by side).",
				comparison.build(metrics), width, comparison.suggestedHeight()));
		Map<String, TimelineModel> checkpoints = new LinkedHashMap<>();
		for (TraceReport.CrRun r : runs) {
			if (!r.metrics().checkpoints().isEmpty()) {
				checkpoints.put(r.name(), timelines.get(r.name()));
			}
		}
		if (!checkpoints.isEmpty()) {
			DirtyBytesChartBuilder dirty = new DirtyBytesChartBuilder(palette).widthPx(width)
					.title(name + ": dirty bytes after the checkpoint instant (" + machine.name() + ")");
			JFreeChart chart = dirty.build(checkpoints);
			// a trace whose writes after the instant all fall at one moment gives an empty-looking chart: left out
			if (chart.getPlot() instanceof XYPlot plot && plot.getDataRange(plot.getDomainAxis()) instanceof Range x
					&& x.getLength() > 0) {
				charts.add(chart("Bytes written after the checkpoint instant that the image must still account for "
						+ "(copied on write, or recopied by soft-recopy).", chart, width,
						Math.max(360, width * 9 / 32)));
			}
		}
		// the timeline of the first soft policy with speculated sets: what PhOS would do
		TraceReport.CrRun shown = runs.stream().filter(r -> r.sets().startsWith("engine:")
				&& r.name().startsWith("soft-cow")).findFirst()
				.orElse(runs.stream().filter(r -> r.sets().startsWith("engine:")).findFirst()
						.orElse(runs.get(runs.size() - 1)));
		TimelineModel model = timelines.get(shown.name());
		TimelineChartBuilder timeline = new TimelineChartBuilder(palette).widthPx(width)
				.title(name + ": " + shown.name() + " on " + machine.name());
		long[] window = TimelineChartBuilder.crWindow(model);
		String caption = "Timeline of " + shown.name() + ": host, streams, copy engines and the C/R lanes; stalls "
				+ "highlighted.";
		if (window != null && window[1] - window[0] < shown.metrics().endNs() / 2) {
			timeline.window(window[0], window[1]).title(name + ": " + shown.name() + ", around the C/R activity");
			caption = "Timeline of " + shown.name() + " around the C/R activity (a small part of the run): host, "
					+ "streams, copy engines and the C/R lanes; stalls highlighted.";
		}
		charts.add(chart(caption, timeline.build(model), width, TimelineChartBuilder.suggestedHeight(model)));
		return charts;
	}

	/** Live bytes per allocation kind over host time, stacked (the curve keeps the peak), as the overview page. */
	private TraceReport.@Nullable Chart memoryChart(Overview.Memory m) {
		List<Overview.MemorySample> curve = m.curve();
		if (curve.size() < 2 || m.peakLiveBytes() <= 0) {
			return null;
		}
		System.setProperty("java.awt.headless", "true");
		List<AllocKind> kinds = Overview.kinds();
		List<AllocKind> shown = new ArrayList<>(m.byKind().keySet());
		TimeUnitScale time = TimeUnitScale.forSpan(curve.get(curve.size() - 1).hostNs());
		ByteUnitScale bytes = ByteUnitScale.forMax(m.peakLiveBytes());
		double[] x = new double[curve.size()];
		double[][] y = new double[shown.size()][curve.size()];
		for (int i = 0; i < curve.size(); i++) {
			x[i] = time.of(curve.get(i).hostNs());
			for (int s = 0; s < shown.size(); s++) {
				y[s][i] = bytes.of(curve.get(i).liveBytesByKind()[kinds.indexOf(shown.get(s))]);
			}
		}
		ChartPalette palette = ChartPalette.LIGHT;
		List<java.awt.Color> colors = new ArrayList<>();
		for (int s = 0; s < shown.size(); s++) {
			colors.add(palette.run(s));
		}
		JFreeChart chart = new SmallChartBuilder(palette).stackedArea("host time since the first event ("
				+ time.label() + ")", "live (" + bytes.label() + ")",
				shown.stream().map(k -> k.name().toLowerCase(java.util.Locale.ROOT)).toList(), x, y, colors);
		return chart("Live device memory by allocation kind over host time (stacked; the peak is one of the samples).",
				chart, Math.min(options.chartWidth(), 760), 260);
	}

	private static TraceReport.Chart chart(String caption, JFreeChart chart, int width, int height) {
		return new TraceReport.Chart(caption, ChartFiles.svg(chart, width, height));
	}
}
