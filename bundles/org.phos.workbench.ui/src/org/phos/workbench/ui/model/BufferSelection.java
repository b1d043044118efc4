package org.phos.workbench.ui.model;

import org.phos.workbench.analysis.core.BufferRow;

/**
 * One allocation of a loaded trace is selected (a row of the Buffers table, a rectangle of its memory map): the
 * views that show allocations select it too, and Properties shows it.
 *
 * @param trace the trace the allocation belongs to
 * @param buffer the allocation (its Alloc event is its id)
 */
public record BufferSelection(LoadedTrace trace, BufferRow buffer) {
	public BufferSelection {
		if (buffer.allocatedAt() < 0 || buffer.allocatedAt() >= trace.trace().eventCount()) {
			throw new IllegalArgumentException("allocation event " + buffer.allocatedAt() + " is not in [0, "
					+ trace.trace().eventCount() + ") of " + trace.name());
		}
	}
}
