package org.phos.workbench.speculation.core.validate;

import java.util.List;
import java.util.Map;

/**
 * One engine's accuracy on one trace.
 *
 * @param engine the engine's name
 * @param total over all compared launches
 * @param kernels per launched function id, in id order
 * @param launchesNotCovered compared launches the engine could not speak for (ptx-flow without PTX): their accesses
 *        count as missed
 * @param notes what the engine reported (modules without PTX, ...)
 */
public record EngineValidation(String engine, Accuracy total, Map<Integer, Accuracy> kernels,
		long launchesNotCovered, List<String> notes) {

	/** Copies. */
	public EngineValidation {
		kernels = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(kernels));
		notes = List.copyOf(notes);
	}
}
