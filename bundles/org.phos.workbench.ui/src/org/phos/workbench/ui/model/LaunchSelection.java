package org.phos.workbench.ui.model;

/**
 * One kernel launch of a loaded trace is selected: every view that shows launches selects it too (table row,
 * timeline slice, accesses, buffers).
 *
 * @param trace the trace the launch belongs to
 * @param launch the dense launch index, in {@code [0, trace.trace().launchCount())}
 */
public record LaunchSelection(LoadedTrace trace, int launch) {
	public LaunchSelection {
		if (launch < 0 || launch >= trace.trace().launchCount()) {
			throw new IllegalArgumentException("launch " + launch + " is not in [0, " + trace.trace().launchCount()
					+ ") of " + trace.name());
		}
	}

	/** The launch's event index in the trace. */
	public int event() {
		return trace.trace().launchEvent(launch);
	}
}
