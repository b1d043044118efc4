package org.phos.workbench.cr.core.process;

import java.util.Locale;

import org.eclipse.jdt.annotation.Nullable;

/**
 * The driver refused a checkpoint call: which call, its {@code CUresult} code and name, and what that means for this
 * process and what to do, in words. The meanings come from cuda.h (CUDA 13, CUDA_CHECKPOINT group), the measured facts
 * in shared/notes/cuda.md section 7 (managed memory refused with NOT_SUPPORTED, left LOCKED; NOT_INITIALIZED without
 * cuInit in the caller), what driver 580 answered on the H100 for this branch (docs/gpu-checks.md, block i14-ckpt:
 * NOT_INITIALIZED for a process without CUDA, OPERATING_SYSTEM for a pid without a process, NOT_SUPPORTED at Lock for
 * a process using CUPTI) and the refusals users of
 * NVIDIA's cuda-checkpoint reported (NOT_PERMITTED without persistence mode, OPERATING_SYSTEM in some containers).
 *
 * @param step the refused call, or null for the state query
 * @param code the {@code CUresult}
 * @param name its name as the driver gives it ({@code cuGetErrorName}), e.g. {@code CUDA_ERROR_NOT_SUPPORTED}
 */
public record DriverRefusal(@Nullable CheckpointStep step, int code, String name) {

	/** CUresult codes the checkpoint calls return (cuda.h). */
	public static final int INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_INITIALIZED = 3, NO_DEVICE = 100,
			OPERATING_SYSTEM = 304, ILLEGAL_STATE = 401, NOT_READY = 600, NOT_PERMITTED = 800, NOT_SUPPORTED = 801,
			TIMEOUT = 909, UNKNOWN = 999;

	/** The refused call as people read it: "Checkpoint (cuCheckpointProcessCheckpoint)". */
	public String call() {
		CheckpointStep s = step;
		return s == null ? "the state query (cuCheckpointProcessGetState)" : s.label() + " (" + s.driverCall() + ")";
	}

	/** One line: the call, the code, and the explanation. */
	public String describe(@Nullable ProcessState stateAfter) {
		return call() + " refused: " + code + " " + name + ". " + explanation(stateAfter);
	}

	/**
	 * What the refusal means and what to do, given the state the process was found in afterwards (null: not known).
	 */
	public String explanation(@Nullable ProcessState stateAfter) {
		CheckpointStep s = step;
		String text = switch (code) {
		case INVALID_VALUE -> "The driver knows no CUDA process with this pid: it has ended, has not initialised CUDA "
				+ "yet, or is not visible from here (another user's process, another PID namespace or container).";
		case NOT_INITIALIZED -> "The process has not initialised CUDA: it is not a CUDA program, or it has not made "
				+ "its first CUDA call yet (driver 580 answers so for a process without CUDA, measured on the H100).";
		case ILLEGAL_STATE -> s == null ? "The process is in a state that does not allow this."
				: s.label() + " needs a " + s.from().word() + " process" + (stateAfter == null
						|| stateAfter == ProcessState.UNKNOWN ? "." : "; it is " + stateAfter.word() + ".")
						+ hintFor(stateAfter);
		case NOT_SUPPORTED -> s == CheckpointStep.CHECKPOINT
				? "The driver cannot checkpoint what this process holds: managed memory (cudaMallocManaged) is refused "
						+ "so (measured on the H100, driver 580), so are CUDA IPC, MPS clients and some multi-GPU "
						+ "setups. A refused checkpoint leaves the process locked: it must be unlocked."
				: s == CheckpointStep.LOCK
						? "The driver will not lock this process: it uses CUPTI (a profiler or tracer; the phos "
								+ "recorder with its default CUPTI timing is refused so, measured on the H100, driver "
								+ "580, even after the process disabled, unsubscribed and finalized CUPTI; recorded "
								+ "with PHOS_TIMING_SOURCE=events it is checkpointed), or this driver or "
								+ "GPU does not support checkpointing (drivers 550 and later, Linux only)."
						: "This driver or GPU does not support checkpointing (drivers 550 and later, Linux only), or "
								+ "the process uses a feature it cannot checkpoint.";
		case NOT_READY, TIMEOUT -> s == CheckpointStep.LOCK
				? "The lock timed out: the process stayed inside a CUDA call (a long kernel, a synchronize) for the "
						+ "whole timeout. The driver leaves it running; try again, or give a longer timeout."
				: "The driver was not ready: the process is busy in a CUDA call; try again.";
		case NOT_PERMITTED -> "Not permitted: checkpointing another process needs the same user (or root), and on "
				+ "many systems persistence mode (nvidia-smi -pm 1).";
		case OPERATING_SYSTEM -> "The driver could not reach the process through the operating system: no process "
				+ "has this pid any more (driver 580 answers so, measured on the H100), or /proc or ptrace is "
				+ "restricted (some containers, gVisor); the checkpoint API works on Linux only.";
		case OUT_OF_MEMORY -> s == CheckpointStep.RESTORE
				? "Not enough free GPU memory to bring the process's allocations back (another process took it while "
						+ "this one was checkpointed). The process stays checkpointed: free GPU memory, then Restore."
				: "Out of memory (host memory for the image, or GPU memory).";
		case NO_DEVICE -> "No CUDA device is visible to the helper.";
		case UNKNOWN -> "The driver reported an unknown error.";
		default -> "The driver refused with this code.";
		};
		if (stateAfter == ProcessState.FAILED) {
			text += " The process is now FAILED: it cannot use CUDA any more; its CUDA calls never return.";
		}
		return text;
	}

	private static String hintFor(@Nullable ProcessState s) {
		if (s == null) {
			return "";
		}
		return switch (s) {
		case LOCKED -> " Checkpoint or Unlock it.";
		case CHECKPOINTED -> " Restore it first.";
		case RUNNING -> " Lock it first.";
		case FAILED, UNKNOWN -> "";
		};
	}

	@Override
	public String toString() {
		return String.format(Locale.ROOT, "%s refused %d %s", step == null ? "state" : step.word(), code, name);
	}
}
