package org.phos.workbench.cr.core.process;

import java.util.Locale;

import org.eclipse.jdt.annotation.Nullable;

/**
 * The driver's checkpoint state of a CUDA process ({@code CUprocessState}), plus {@link #UNKNOWN} for "the driver did
 * not say" (no answer yet, or the state query was refused).
 */
public enum ProcessState {
	/** {@code CU_PROCESS_STATE_RUNNING}: CUDA calls proceed. */
	RUNNING("running", "CUDA calls proceed"),
	/** {@code CU_PROCESS_STATE_LOCKED}: the driver holds the process's CUDA locks; its next CUDA call waits. */
	LOCKED("locked", "its CUDA calls wait"),
	/** {@code CU_PROCESS_STATE_CHECKPOINTED}: device memory copied to the host and released; calls wait. */
	CHECKPOINTED("checkpointed", "device memory is in host memory, the GPU is released; its CUDA calls wait"),
	/** {@code CU_PROCESS_STATE_FAILED}: an uncorrectable error during checkpoint or restore. */
	FAILED("failed", "an uncorrectable error in checkpoint or restore: the process cannot use CUDA any more"),
	/** Not known: before the first answer, or the driver refused to tell. */
	UNKNOWN("unknown", "the driver did not say");

	private final String word;
	private final String meaning;

	ProcessState(String word, String meaning) {
		this.word = word;
		this.meaning = meaning;
	}

	/** The protocol's and the display's word: running, locked, checkpointed, failed, unknown. */
	public String word() {
		return word;
	}

	/** What the state means for the process, in a few words. */
	public String meaning() {
		return meaning;
	}

	/** The state for a protocol word, or null. */
	public static @Nullable ProcessState ofWord(String w) {
		for (ProcessState s : values()) {
			if (s.word.equals(w.toLowerCase(Locale.ROOT))) {
				return s;
			}
		}
		return null;
	}
}
