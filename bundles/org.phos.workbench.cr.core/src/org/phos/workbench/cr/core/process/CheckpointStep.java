package org.phos.workbench.cr.core.process;

import org.eclipse.jdt.annotation.Nullable;

/**
 * One call of the driver's checkpoint API on a process, in the order a stop-the-world checkpoint makes them, and the
 * state each needs and leaves (cuda.h, CUDA_CHECKPOINT group).
 */
public enum CheckpointStep {
	/** {@code cuCheckpointProcessLock}: running to locked; waits for the process's CUDA calls in flight. */
	LOCK("lock", "Lock", ProcessState.RUNNING, ProcessState.LOCKED),
	/** {@code cuCheckpointProcessCheckpoint}: locked to checkpointed; device memory to host memory. */
	CHECKPOINT("checkpoint", "Checkpoint", ProcessState.LOCKED, ProcessState.CHECKPOINTED),
	/** {@code cuCheckpointProcessRestore}: checkpointed to locked; device memory back. */
	RESTORE("restore", "Restore", ProcessState.CHECKPOINTED, ProcessState.LOCKED),
	/** {@code cuCheckpointProcessUnlock}: locked to running. */
	UNLOCK("unlock", "Unlock", ProcessState.LOCKED, ProcessState.RUNNING);

	private final String word;
	private final String label;
	private final ProcessState from;
	private final ProcessState to;

	CheckpointStep(String word, String label, ProcessState from, ProcessState to) {
		this.word = word;
		this.label = label;
		this.from = from;
		this.to = to;
	}

	/** The helper protocol's word. */
	public String word() {
		return word;
	}

	/** The name shown to people. */
	public String label() {
		return label;
	}

	/** The state the driver requires before the step. */
	public ProcessState from() {
		return from;
	}

	/** The state after the step succeeded. */
	public ProcessState to() {
		return to;
	}

	/** The driver function the step calls. */
	public String driverCall() {
		return "cuCheckpointProcess" + label;
	}

	/** The step for a protocol word, or null. */
	public static @Nullable CheckpointStep ofWord(String w) {
		for (CheckpointStep s : values()) {
			if (s.word.equals(w)) {
				return s;
			}
		}
		return null;
	}
}
