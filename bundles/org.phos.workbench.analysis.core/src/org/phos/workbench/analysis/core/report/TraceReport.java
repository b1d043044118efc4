package org.phos.workbench.analysis.core.report;

import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.AccuracyRow;
import org.phos.workbench.analysis.core.KernelRow;
import org.phos.workbench.analysis.core.Overview;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.speculation.core.validate.ValidationReport;

/**
 * One trace's report, typed: what the page shows, computed by {@link ReportBuilder}. A section that could not be
 * computed (no observed accesses, a trace the simulator refuses) is null with its reason in the matching note.
 *
 * @param name the trace's file name
 * @param launches launches in the trace
 * @param overview the overview ({@code OverviewQuery})
 * @param memory live device memory by kind over host time (a stacked chart), null without allocations
 * @param accuracy validation with all tools united first, then per tool when the trace has several
 * @param accuracyNote why there is no accuracy section, or null
 * @param disagreement the kernels where the engines disagree most
 * @param cr the C/R comparison, or null
 * @param crNote why there is no C/R comparison, or null
 */
public record TraceReport(String name, long launches, Overview overview, @Nullable Chart memory, List<Accuracy> accuracy,
		@Nullable String accuracyNote, Disagreement disagreement, @Nullable CrComparison cr, @Nullable String crNote) {

	/** Copies. */
	public TraceReport {
		accuracy = List.copyOf(accuracy);
	}

	/**
	 * {@code validate}'s result for one observing tool.
	 *
	 * @param tool the tool, or null for all tools united (what {@code validate} without {@code --tool} reports)
	 * @param report the validation report
	 * @param rows {@code validate --csv}'s table
	 * @param unsafe per engine (report order), its unsafe launches, ascending
	 * @param unsafeKernels per engine, the kernel name of each listed unsafe launch
	 * @param ptx which launches have their kernel's PTX and why the others do not, the line {@code validate} prints
	 *        (i15-val; the trace's, the same for every tool)
	 */
	public record Accuracy(@Nullable String tool, ValidationReport report, Table<AccuracyRow> rows,
			Map<String, List<Integer>> unsafe, Map<String, List<String>> unsafeKernels, String ptx) {
	}

	/**
	 * Kernels ranked by how far the engines' figures lie apart.
	 *
	 * @param engines the engines, in the rows' order
	 * @param rows the kernels, largest spread first
	 * @param spreads each row's spread: the largest difference between two engines in precision, read or write
	 *            recall, or unsafe share of launches
	 */
	public record Disagreement(List<String> engines, List<KernelRow> rows, List<Double> spreads) {
	}

	/**
	 * The C/R comparison.
	 *
	 * @param instant where the checkpoint (or restore point) lies, as given to the policies
	 * @param machine the machine model's name
	 * @param runs one per policy and set source, named as {@code simulate} names them
	 * @param charts the charts, SVG documents
	 */
	public record CrComparison(String instant, String machine, List<CrRun> runs, List<Chart> charts) {
	}

	/**
	 * One simulated run.
	 *
	 * @param name {@code POLICY [SETS]}, {@code simulate}'s run name with several set sources
	 * @param sets the set source ({@code observed}, {@code placeholder}, {@code engine:NAME})
	 * @param metrics its metrics
	 */
	public record CrRun(String name, String sets, SimulationMetrics metrics) {
	}

	/** A chart: its caption and an SVG document. */
	public record Chart(String caption, String svg) {
	}
}
