package org.phos.workbench.speculation.core;

import java.util.ArrayList;
import java.util.List;

/**
 * What one engine speculated for one launch, collected (for display, the CLI's {@code --launch} and tests; the hot
 * path uses an {@link AccessSink}).
 *
 * @param launchEvent event index of the launch
 * @param engine the engine's name
 * @param covered whether the engine could speak for the launch (ptx-flow cannot without PTX)
 * @param accesses the accesses in the order the engine emitted them
 */
public record LaunchSpeculation(int launchEvent, String engine, boolean covered, List<SpeculatedAccess> accesses) {

	/** Copies the list. */
	public LaunchSpeculation {
		accesses = List.copyOf(accesses);
	}

	/**
	 * Runs an engine on the launch a context is at and collects what it emits.
	 *
	 * @param engine the engine
	 * @param launch the launch context (from a {@link TraceSpeculator})
	 * @return the collected speculation
	 */
	public static LaunchSpeculation collect(SpeculationEngine engine, LaunchContext launch) {
		List<SpeculatedAccess> list = new ArrayList<>();
		boolean covered = engine.speculate(launch,
				(id, base, begin, end, mode, param, offset) -> list.add(SpeculatedAccess.of(id, base, begin, end,
						mode, param, offset)));
		return new LaunchSpeculation(launch.event(), engine.name(), covered, list);
	}

	/** @return the accesses that may write */
	public List<SpeculatedAccess> writes() {
		return accesses.stream().filter(SpeculatedAccess::written).toList();
	}

	/** @return the accesses that may read */
	public List<SpeculatedAccess> reads() {
		return accesses.stream().filter(SpeculatedAccess::read).toList();
	}
}
