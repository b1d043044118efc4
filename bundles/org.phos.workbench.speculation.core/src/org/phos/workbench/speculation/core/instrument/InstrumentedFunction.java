package org.phos.workbench.speculation.core.instrument;

import java.util.List;

/**
 * What the rewriter did to one function.
 *
 * @param name the function's (mangled) name
 * @param entry whether it is a kernel
 * @param reads instrumented read-only accesses
 * @param writes instrumented write-only accesses
 * @param readWrites instrumented read-and-write accesses (atomics, reductions)
 * @param generic how many of those use generic addresses (checked with {@code isspacep.global} on the device)
 * @param untracked global accesses the rewriter cannot record, one line each with the PTX line number
 */
public record InstrumentedFunction(String name, boolean entry, int reads, int writes, int readWrites, int generic,
		List<String> untracked) {

	/** Copies the list. */
	public InstrumentedFunction {
		untracked = List.copyOf(untracked);
	}

	/** @return all instrumented accesses */
	public int sites() {
		return reads + writes + readWrites;
	}
}
