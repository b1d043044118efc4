package org.phos.workbench.analysis.core;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.Trace;

/**
 * Speculated versus observed over a whole trace, as the {@code validate} command reports it.
 *
 * @param trace the trace
 * @param engines engine names from the session's catalog
 * @param tool the observing tool, or null for all tools united
 */
public record ValidationQuery(Trace trace, List<String> engines, @Nullable String tool) {
	/** Copies. */
	public ValidationQuery {
		engines = List.copyOf(engines);
		if (engines.isEmpty()) {
			throw new IllegalArgumentException("name at least one engine");
		}
	}
}
