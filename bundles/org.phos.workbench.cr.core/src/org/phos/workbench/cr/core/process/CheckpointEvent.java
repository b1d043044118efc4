package org.phos.workbench.cr.core.process;

import org.eclipse.jdt.annotation.Nullable;

/**
 * One fact the checkpoint helper reported, in the order it happened (one line of its protocol each, see
 * {@link CheckpointProtocol}). Times are CLOCK_MONOTONIC nanoseconds, the clock of a trace's host timestamps, so a
 * phase lines up with the process's recorded events.
 */
public sealed interface CheckpointEvent {

	/** The helper reached the driver: protocol version, the target pid and the driver's version (e.g. 13000). */
	record Hello(int protocol, long pid, int driverVersion) implements CheckpointEvent {
	}

	/** The process's state as the driver reported it, or UNKNOWN with the refusal of the state query. */
	record StateSeen(ProcessState state, @Nullable DriverRefusal refusal) implements CheckpointEvent {
	}

	/** A call began; {@code recovery}: the helper's own unlock after a refused step, so the process does not hang. */
	record PhaseBegan(CheckpointStep step, long beginNs, boolean recovery) implements CheckpointEvent {
	}

	/** A call ended, done or refused. */
	record PhaseEnded(CheckpointPhase phase) implements CheckpointEvent {
	}

	/** From the lock's begin to the unlock's end: how long the process's CUDA calls could not proceed. */
	record Stall(double ms) implements CheckpointEvent {
	}

	/** The helper finished: every step done, or stopped at a refusal. */
	record Done(boolean ok) implements CheckpointEvent {
	}

	// i14-cupti: begin
	/**
	 * The recording process's answer to the workbench's control message around the driver's calls
	 * ({@link RecorderControl}): {@code what} is "prepare" (before the Lock: CUPTI released, "ready ...") or "done"
	 * (after the Unlock or a refusal: "resumed ..."); {@code text} the recorder's line.
	 */
	record RecorderAnswer(String what, boolean ok, String text) implements CheckpointEvent {
	}
	// i14-cupti: end

	/** The helper could not do its work: no driver, no checkpoint API, a line it should not print, it died. */
	record HelperFailed(String message) implements CheckpointEvent {
	}
}
