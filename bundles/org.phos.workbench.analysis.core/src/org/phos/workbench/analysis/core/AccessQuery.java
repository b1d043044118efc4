package org.phos.workbench.analysis.core;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.Trace;

/**
 * What one launch reads and writes, speculated by engines and observed by tools, side by side per allocation: the
 * question behind the {@code accesses} command and the Accesses view.
 *
 * @param trace the trace
 * @param launch dense launch index
 * @param engines engine names from the session's catalog ({@link #DEFAULT_ENGINES} when empty)
 * @param tools observing tools whose records to show (every tool in the trace when empty); the verdicts compare
 *        with their records united
 */
public record AccessQuery(Trace trace, int launch, List<String> engines, List<String> tools) {

	/** What is shown when no engine is named. */
	public static final List<String> DEFAULT_ENGINES = List.of("best", "phos");

	/** Copies, checks the launch. */
	public AccessQuery {
		engines = List.copyOf(engines.isEmpty() ? DEFAULT_ENGINES : engines);
		tools = List.copyOf(tools);
		if (launch < 0 || launch >= trace.launchCount()) {
			throw new IllegalArgumentException(
					"launch " + launch + " is not in the trace (it has " + trace.launchCount() + " launches)");
		}
	}

	/** @return the query for the default engines and every tool */
	public static AccessQuery of(Trace trace, int launch) {
		return new AccessQuery(trace, launch, List.of(), List.of());
	}

	/** @return a tool list of one, or all when null */
	static List<String> tools(@Nullable String tool) {
		return tool == null ? List.of() : List.of(tool);
	}
}
