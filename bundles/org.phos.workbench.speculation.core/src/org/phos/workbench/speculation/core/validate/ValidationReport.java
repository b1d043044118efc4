package org.phos.workbench.speculation.core.validate;

import org.eclipse.jdt.annotation.Nullable;

import java.util.List;

/**
 * Speculated versus observed for one trace and several engines.
 *
 * @param observedLaunches launches with at least one observed access (the ones compared, plus the excluded)
 * @param observedEntries observed access records used
 * @param unattributedEntries observed records outside any allocation (allocation 0): reported, not judged
 * @param tools the observing tools whose records were used
 * @param engines one entry per engine, in the order asked
 * @param excludedLaunches observed launches whose truth is unreliable, left out of every figure
 * @param reliability which launches are reliable, with {@link TruthReliability#summary()} for a reader
 * @param invalidRecords records naming no launch of the trace, ignored
 * @param invalidWarning one line on them, null when there are none
 */
public record ValidationReport(long observedLaunches, long observedEntries, long unattributedEntries,
		List<String> tools, List<EngineValidation> engines, long excludedLaunches, TruthReliability reliability,
		long invalidRecords, @Nullable String invalidWarning) {

	/** Copies. */
	public ValidationReport {
		tools = List.copyOf(tools);
		engines = List.copyOf(engines);
	}
}
