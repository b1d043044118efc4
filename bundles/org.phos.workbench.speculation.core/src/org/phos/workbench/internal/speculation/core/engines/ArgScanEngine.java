package org.phos.workbench.internal.speculation.core.engines;

import static org.phos.workbench.speculation.core.SpeculatedAccess.READ_WRITE;
import static org.phos.workbench.speculation.core.SpeculatedAccess.WHOLE_ALLOCATION;

import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.LaunchContext;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code arg-scan}: every 8-byte-aligned word of every launch's parameter buffer that holds an address inside a live
 * allocation (of any kind) makes that whole allocation read-write. Needs no type information, sees pointers inside
 * structs passed by value at every launch, and over-approximates where integers look like addresses.
 */
public final class ArgScanEngine implements SpeculationEngine {

	/** The registry name. */
	public static final String NAME = "arg-scan";

	private final PerFunction<int[]> layouts;

	/** @param trace the trace it will speculate */
	public ArgScanEngine(Trace trace) {
		layouts = new PerFunction<>(id -> ParamLayout.wordParams(trace.functionById(id)));
	}

	@Override
	public Memory memory() {
		return Memory.NONE; // the layouts it caches come from the function, not from launches
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public boolean speculate(LaunchContext launch, AccessSink sink) {
		int length = launch.paramLength();
		byte[] bytes = launch.paramBytes(); // valid up to length: every word read here lies inside
		int[] words = null;
		for (int offset = 0; offset + 8 <= length; offset += 8) {
			long value = LaunchContext.wordAt(bytes, offset);
			if (value == 0) {
				continue;
			}
			long id = launch.findAllocation(value);
			if (id < 0) {
				continue;
			}
			if (words == null) {
				words = layouts.get(launch.functionId());
			}
			long base = launch.allocationBase(id);
			sink.access(id, base, base, base + launch.allocationSize(id), READ_WRITE | WHOLE_ALLOCATION,
					ParamLayout.paramOf(words, offset), offset);
		}
		return true;
	}
}
