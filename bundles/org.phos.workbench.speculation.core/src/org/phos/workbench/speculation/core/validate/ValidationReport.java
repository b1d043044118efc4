package org.phos.workbench.speculation.core.validate;

import java.util.List;

/**
 * Speculated versus observed for one trace and several engines.
 *
 * @param observedLaunches launches with at least one observed access (the ones compared)
 * @param observedEntries observed access records used
 * @param unattributedEntries observed records outside any allocation (allocation 0): reported, not judged
 * @param tools the observing tools whose records were used
 * @param engines one entry per engine, in the order asked
 */
public record ValidationReport(long observedLaunches, long observedEntries, long unattributedEntries,
		List<String> tools, List<EngineValidation> engines) {

	/** Copies. */
	public ValidationReport {
		tools = List.copyOf(tools);
		engines = List.copyOf(engines);
	}
}
