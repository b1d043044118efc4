package org.phos.workbench.ui.model;

import java.nio.file.Path;
import java.util.List;

import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceAnomaly;
import org.phos.workbench.trace.core.TraceWarning;

/**
 * A trace opened in the workbench: the file, its immutable model, and what the load said about it (damaged chunks
 * whose intact prefix was kept, strange but well-formed events), which the views show rather than hide. Identity is
 * the object: two openings of the same file are two loaded traces.
 *
 * @param file the {@code .phos} file as the user opened it
 * @param trace the loaded model
 * @param warnings damage found while reading (empty for a clean file)
 * @param anomalies each kind of strange event once, with its count and first event
 */
public record LoadedTrace(Path file, Trace trace, List<TraceWarning> warnings, List<TraceAnomaly> anomalies) {
	public LoadedTrace {
		warnings = List.copyOf(warnings);
		anomalies = List.copyOf(anomalies);
	}

	/** The file name, for titles and messages. */
	public String name() {
		Path n = file.getFileName();
		return n == null ? file.toString() : n.toString();
	}

	@Override
	public boolean equals(Object o) {
		return this == o;
	}

	@Override
	public int hashCode() {
		return System.identityHashCode(this);
	}
}
