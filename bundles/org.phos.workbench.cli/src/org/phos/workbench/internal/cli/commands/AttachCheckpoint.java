package org.phos.workbench.internal.cli.commands;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.UsageException;
import org.phos.workbench.cr.core.process.CheckpointEvent;
import org.phos.workbench.cr.core.process.CheckpointHelper;
import org.phos.workbench.cr.core.process.CheckpointPhase;
import org.phos.workbench.cr.core.process.CheckpointStep;
import org.phos.workbench.cr.core.process.ProcessCheckpoint;
import org.phos.workbench.cr.core.process.ProcessState;
import org.phos.workbench.cr.core.process.RecorderControl;

/**
 * {@code workbench attach PID --checkpoint [--steps ...]}: the driver's stop-the-world checkpoint of a running CUDA
 * process through the native helper (package {@code cr.core.process}), each phase printed as it ends with its time, then
 * the stall the process saw. A refusal of the driver is printed in words and the command exits with
 * {@link ExitCode#FAILURE}; so does a helper that cannot reach a driver.
 */
final class AttachCheckpoint {
	private AttachCheckpoint() {
	}

	/** The steps of {@code --steps}: "all" or a comma list of lock, checkpoint, restore, unlock, state. */
	static List<CheckpointStep> steps(String text) throws UsageException {
		if (text.equals("all")) {
			return List.of(CheckpointStep.values());
		}
		List<CheckpointStep> steps = new ArrayList<>();
		for (String w : text.split(",")) {
			String t = w.strip().toLowerCase(Locale.ROOT);
			if (t.equals("state")) {
				continue; // the state is printed before and after in any case
			}
			CheckpointStep s = CheckpointStep.ofWord(t);
			if (s == null) {
				throw new UsageException("--steps: '" + w + "' is not a step; give all, or a comma list of lock, "
						+ "checkpoint, restore, unlock, state");
			}
			steps.add(s);
		}
		return steps;
	}

	static int run(long pid, List<CheckpointStep> steps, long lockTimeoutMs, @Nullable Path helperPath, Path attachDir,
			CommandContext context) throws CommandFailedException {
		CheckpointHelper helper;
		try {
			helper = CheckpointHelper.locate(helperPath);
		} catch (CheckpointHelper.NotFound e) {
			throw new CommandFailedException(e.getMessage(), e);
		}
		PrintStream out = context.out();
		ProcessCheckpoint machine = new ProcessCheckpoint(pid);
		String what = steps.size() == CheckpointStep.values().length ? "stop-the-world checkpoint"
				: steps.isEmpty() ? "checkpoint state" : "checkpoint steps " + String.join(", ",
						steps.stream().map(CheckpointStep::word).toList());
		machine.begin(steps);
		boolean[] first = {true};
		// i14-cupti: a recorded process is asked to let go of CUPTI before the lock and to take it up after the unlock
		RecorderControl.runWithRecorder(helper, attachDir, pid, steps, lockTimeoutMs, e -> {
			machine.accept(e);
			switch (e) {
			case CheckpointEvent.Hello h -> out.printf(Locale.ROOT, "%s of process %d through the CUDA driver's "
					+ "checkpoint API (driver %d.%d, helper %s)%n", what, pid, h.driverVersion() / 1000,
					h.driverVersion() % 1000 / 10, helper.executable());
			case CheckpointEvent.StateSeen s -> {
				if (first[0]) {
					out.println("  state       " + s.state().word() + (steps.isEmpty() ? " (" + s.state().meaning()
							+ ")" : ""));
					first[0] = false;
				}
			}
			case CheckpointEvent.PhaseEnded p -> out.println(phaseLine(p.phase()));
			case CheckpointEvent.RecorderAnswer a -> out.printf(Locale.ROOT, "  recorder    %-8s %s%n", a.what(), a.text());
			case CheckpointEvent.Stall s -> out.printf(Locale.ROOT,
					"  stall       %10.3f ms  (the process's CUDA calls waited from the lock to the unlock)%n", s.ms());
			default -> {
				// begin lines, done and helper failures: below
			}
			}
			out.flush();
		});
		ProcessCheckpoint.Run run = machine.lastRun();
		if (run == null || run.outcome() == ProcessCheckpoint.Outcome.HELPER_FAILED) {
			throw new CommandFailedException("checkpoint of process " + pid + ": " + (run == null ? "the helper gave "
					+ "no result" : run.message()));
		}
		ProcessState after = machine.state();
		if (!steps.isEmpty()) {
			out.println("  state       " + after.word() + " (" + after.meaning() + ")");
		}
		if (run.outcome() == ProcessCheckpoint.Outcome.REFUSED) {
			String why = machine.lastRefusalText();
			context.err().println("error: the driver refused the checkpoint of process " + pid + ": " + why);
			return ExitCode.FAILURE;
		}
		return ExitCode.OK;
	}

	private static String phaseLine(CheckpointPhase p) {
		return String.format(Locale.ROOT, "  %-11s %10.3f ms  %s%s", p.step().word(), p.ms(),
				p.ok() ? "done" : "REFUSED " + p.refusal().code() + " " + p.refusal().name(),
				p.recovery() ? " (unlocked again after the refusal, so the process does not hang)" : "");
	}
}
