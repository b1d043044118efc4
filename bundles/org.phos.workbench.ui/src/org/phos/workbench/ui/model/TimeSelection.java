package org.phos.workbench.ui.model;

/**
 * A range of host time of a loaded trace is selected (a drag on a timeline), in nanoseconds as the trace stores
 * them (unsigned, from the recorder's clock); {@code from <= to} compared unsigned.
 *
 * @param trace the trace the range belongs to
 * @param fromNs start of the range
 * @param toNs end of the range
 */
public record TimeSelection(LoadedTrace trace, long fromNs, long toNs) {
	public TimeSelection {
		if (Long.compareUnsigned(fromNs, toNs) > 0) {
			throw new IllegalArgumentException("time range " + Long.toUnsignedString(fromNs) + " .. "
					+ Long.toUnsignedString(toNs) + " ends before it starts");
		}
	}
}
