package org.phos.workbench.speculation.core.instrument;

import java.util.List;

/**
 * A module rewritten for instrumentation.
 *
 * @param ptx the instrumented PTX text (same kernels, same parameter layouts, plus the table and record routine)
 * @param layout the layout of its access table
 * @param functions what was instrumented, per function in file order
 */
public record InstrumentedModule(String ptx, AccessTableLayout layout, List<InstrumentedFunction> functions) {

	/** Copies the list. */
	public InstrumentedModule {
		functions = List.copyOf(functions);
	}

	/** @return instrumented accesses over all functions */
	public int sites() {
		return functions.stream().mapToInt(InstrumentedFunction::sites).sum();
	}
}
