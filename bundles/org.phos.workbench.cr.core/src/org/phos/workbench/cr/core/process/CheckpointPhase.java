package org.phos.workbench.cr.core.process;

import org.eclipse.jdt.annotation.Nullable;

/**
 * One call of the checkpoint API as it ran: its step, begin and end (CLOCK_MONOTONIC ns), and the refusal if the driver
 * refused it.
 *
 * @param recovery the helper's unlock after a refused step (not asked for, done so the process does not hang)
 */
public record CheckpointPhase(CheckpointStep step, long beginNs, long endNs, double ms, boolean recovery,
		@Nullable DriverRefusal refusal) {

	/** Whether the driver did it. */
	public boolean ok() {
		return refusal == null;
	}
}
