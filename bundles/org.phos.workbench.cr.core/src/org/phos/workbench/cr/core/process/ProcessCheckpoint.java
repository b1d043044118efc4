package org.phos.workbench.cr.core.process;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.jdt.annotation.Nullable;

/**
 * The checkpoint state machine of one process as the workbench knows it: the driver's state (running, locked,
 * checkpointed, failed), whether a helper is at work, every phase so far with its times, the stall of each run and the
 * last refusal with its explanation. It is fed the helper's {@link CheckpointEvent}s in order and says which step may
 * come next ({@link #allows(CheckpointStep)}): the step whose required state the process is in, as the driver demands.
 * Not thread-safe on its own: the workbench feeds it on the UI thread, the command line on its own.
 */
public final class ProcessCheckpoint {

	/** One call of the helper: the steps asked for, what happened, and the stall (NaN: the process was not locked). */
	public record Run(List<CheckpointStep> asked, List<CheckpointPhase> phases, double stallMs, Outcome outcome,
			String message) {
	}

	/** How a run ended. */
	public enum Outcome {
		/** Still running. */
		RUNNING,
		/** Every step done. */
		DONE,
		/** The driver refused a step (see {@link ProcessCheckpoint#lastRefusal()}). */
		REFUSED,
		/** The helper could not work (no driver, no API, died): {@link Run#message()}. */
		HELPER_FAILED
	}

	private final long pid;
	private ProcessState state = ProcessState.UNKNOWN;
	private final List<CheckpointPhase> phases = new ArrayList<>();
	private final List<Run> runs = new ArrayList<>();
	private CheckpointEvent.@Nullable PhaseBegan open;
	private @Nullable DriverRefusal lastRefusal;
	private @Nullable ProcessState stateAfterRefusal;
	private @Nullable String helperProblem;
	private int driverVersion;
	// i14-cupti: the recorder's answers in the run in progress / the last run
	private final List<CheckpointEvent.RecorderAnswer> recorderAnswers = new ArrayList<>();
	private @Nullable String cuptiHeldAtRefusal;
	// the run in progress
	private @Nullable List<CheckpointStep> asked;
	private final List<CheckpointPhase> runPhases = new ArrayList<>();
	private double runStall = Double.NaN;
	private boolean refusedInRun;

	public ProcessCheckpoint(long pid) {
		this.pid = pid;
	}

	public long pid() {
		return pid;
	}

	/** The driver's state as last reported (UNKNOWN before the first report). */
	public ProcessState state() {
		return state;
	}

	/** Whether a helper run is in progress. */
	public boolean busy() {
		return asked != null;
	}

	/** The call in progress, or null. */
	public CheckpointEvent.@Nullable PhaseBegan openPhase() {
		return open;
	}

	/** Every phase of every run, in order. */
	public List<CheckpointPhase> phases() {
		return List.copyOf(phases);
	}

	/** The finished runs, in order. */
	public List<Run> runs() {
		return List.copyOf(runs);
	}

	/** The driver version the helper reported (e.g. 13000), 0 before. */
	public int driverVersion() {
		return driverVersion;
	}

	/** The last refusal of the driver, or null. */
	public @Nullable DriverRefusal lastRefusal() {
		return lastRefusal;
	}

	/** The last refusal in words with the state it left, or null. */
	public @Nullable String lastRefusalText() {
		DriverRefusal r = lastRefusal;
		if (r == null) {
			return null;
		}
		// i14-cupti: the recorder had released CUPTI and the driver still refused the lock
		if (r.step() == CheckpointStep.LOCK && r.code() == DriverRefusal.NOT_SUPPORTED && cuptiHeldAtRefusal != null) {
			return r.call() + " refused: " + r.code() + " " + r.name() + ". The process was " + CUPTI_REFUSAL
					+ " (the recorder had answered \"" + cuptiHeldAtRefusal + "\").";
		}
		return r.describe(stateAfterRefusal);
	}

	/** What a lock refused although the recorder let go of CUPTI means: the words the command line and editor print. */
	public static final String CUPTI_REFUSAL = "recorded with CUPTI timing; record with PHOS_TIMING_SOURCE=events to "
			+ "checkpoint";

	/** The recorder's answers of the run in progress or the last run (prepare, done), in order. */
	public List<CheckpointEvent.RecorderAnswer> recorderAnswers() {
		return List.copyOf(recorderAnswers);
	}

	/**
	 * The recorder's part of the last run in one line: "" when the process has no recorder socket or its recorder had
	 * nothing to let go of (timing by CUDA events: "ready events (nothing to release)").
	 */
	public String recorderText() {
		StringBuilder b = new StringBuilder();
		if (recorderAnswers.stream().allMatch(a -> a.ok() && a.text().contains("(nothing"))) {
			return "";
		}
		for (CheckpointEvent.RecorderAnswer a : recorderAnswers) {
			b.append(b.length() == 0 ? "Recorder: " : "; ").append(a.what()).append(" \u2192 ").append(a.text());
		}
		return b.toString();
	}

	/** The helper's own problem in the last run (no driver, ...), or null. */
	public @Nullable String helperProblem() {
		return helperProblem;
	}

	/** A run begins with these steps (empty: the state query). */
	public void begin(List<CheckpointStep> steps) {
		if (asked != null) {
			throw new IllegalStateException("a checkpoint helper is already at work on process " + pid);
		}
		asked = List.copyOf(steps);
		runPhases.clear();
		runStall = Double.NaN;
		refusedInRun = false;
		helperProblem = null;
		recorderAnswers.clear();
	}

	/** Takes the helper's next event. */
	public void accept(CheckpointEvent e) {
		switch (e) {
		case CheckpointEvent.Hello h -> driverVersion = h.driverVersion();
		case CheckpointEvent.StateSeen s -> {
			state = s.state();
			DriverRefusal r = s.refusal();
			if (r != null) {
				refuse(r, ProcessState.UNKNOWN);
			} else if (refusedInRun && lastRefusal != null && stateAfterRefusal == ProcessState.UNKNOWN) {
				stateAfterRefusal = s.state(); // the state seen right after the refusal
			}
		}
		case CheckpointEvent.PhaseBegan b -> open = b;
		case CheckpointEvent.PhaseEnded p -> {
			open = null;
			phases.add(p.phase());
			runPhases.add(p.phase());
			DriverRefusal r = p.phase().refusal();
			if (r != null) {
				refuse(r, ProcessState.UNKNOWN);
			} else {
				state = p.phase().step().to();
			}
		}
		case CheckpointEvent.Stall s -> runStall = s.ms();
		case CheckpointEvent.RecorderAnswer a -> recorderAnswers.add(a); // the done comes after the helper's Done
		case CheckpointEvent.Done d -> finish(d.ok() && !refusedInRun ? Outcome.DONE : Outcome.REFUSED, "");
		case CheckpointEvent.HelperFailed f -> {
			open = null;
			helperProblem = f.message();
			finish(Outcome.HELPER_FAILED, f.message());
		}
		}
	}

	private void refuse(DriverRefusal r, ProcessState after) {
		cuptiHeldAtRefusal = null;
		for (CheckpointEvent.RecorderAnswer a : recorderAnswers) {
			if (a.what().equals("prepare") && a.ok() && a.text().startsWith("ready cupti")) {
				cuptiHeldAtRefusal = a.text();
			}
		}
		lastRefusal = r;
		stateAfterRefusal = after;
		refusedInRun = true;
	}

	private void finish(Outcome o, String message) {
		List<CheckpointStep> a = asked;
		runs.add(new Run(a == null ? List.of() : a, List.copyOf(runPhases), runStall, o, message));
		asked = null;
	}

	/** Whether the driver would take {@code step} now: no helper at work, and the process in the step's state. */
	public boolean allows(CheckpointStep step) {
		return !busy() && (state == step.from() || (state == ProcessState.UNKNOWN && step == CheckpointStep.LOCK));
	}

	/** Whether the whole stop-the-world checkpoint (lock, checkpoint, restore, unlock) may start now. */
	public boolean allowsFullCheckpoint() {
		return allows(CheckpointStep.LOCK);
	}

	/** What the state means, or why nothing can be done, in one sentence. */
	public String stateText() {
		String s = "Process " + pid + " is " + state.word() + ": " + state.meaning() + ".";
		if (state == ProcessState.UNKNOWN && helperProblem != null) {
			return "Process " + pid + ": " + helperProblem + ".";
		}
		return s;
	}

	/** The last finished run, or null. */
	public @Nullable Run lastRun() {
		return runs.isEmpty() ? null : runs.get(runs.size() - 1);
	}

	/** The lines the command line prints for a run: each phase with its time, the stall, and the refusal if any. */
	public static List<String> describe(Run run, @Nullable ProcessCheckpoint machine) {
		List<String> out = new ArrayList<>();
		for (CheckpointPhase p : run.phases()) {
			out.add(String.format(Locale.ROOT, "  %-11s %-8s %10.3f ms%s", p.step().word(), p.ok() ? "done" : "REFUSED",
					p.ms(), p.recovery() ? "  (unlocked again after the refusal, so the process does not hang)" : ""));
		}
		if (!Double.isNaN(run.stallMs())) {
			out.add(String.format(Locale.ROOT, "  stall       %19.3f ms  (the process's CUDA calls waited from the "
					+ "lock to the unlock)", run.stallMs()));
		}
		return out;
	}
}
