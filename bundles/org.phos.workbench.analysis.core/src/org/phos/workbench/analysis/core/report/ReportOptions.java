package org.phos.workbench.analysis.core.report;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;

/**
 * What a report computes beyond the overview.
 *
 * @param engines speculation engines judged against the observed accesses (as {@code validate --engine})
 * @param policies C/R policy specs (as {@code simulate --policy}, one per entry)
 * @param at the checkpoint (or restore point) of every policy that names no {@code at=}; null: the middle launch
 * @param setsEngine the engine whose speculated sets the C/R runs use beside the observed ones
 * @param machine the machine model (as {@code simulate --machine})
 * @param chartWidth chart width in pixels
 * @param kernels how many kernels the overview and the disagreement table name
 * @param unsafeListed how many unsafe launches are listed per engine (all are counted)
 */
public record ReportOptions(List<String> engines, List<String> policies, @Nullable String at, String setsEngine,
		String machine, int chartWidth, int kernels, int unsafeListed) {

	/** The engines {@code validate} judges by default. */
	public static final List<String> DEFAULT_ENGINES = List.of("phos", "arg-scan", "ptx-flow/arg-scan", "best");
	/** The main policies: cuda-checkpoint's, PhOS's soft checkpoint, its recopy variant and PhOS's soft restore. */
	public static final List<String> DEFAULT_POLICIES = List.of("stop-the-world", "soft-cow", "soft-recopy",
			"on-demand-restore");

	/** Copies. */
	public ReportOptions {
		engines = List.copyOf(engines);
		policies = List.copyOf(policies);
		if (engines.isEmpty() || policies.isEmpty()) {
			throw new IllegalArgumentException("a report needs at least one engine and one policy");
		}
	}

	/** @return the defaults: validate's engines, the main policies at the middle launch, phos sets, an H100 */
	public static ReportOptions defaults() {
		return new ReportOptions(DEFAULT_ENGINES, DEFAULT_POLICIES, null, "phos", "h100", 1100, 10, 20);
	}
}
