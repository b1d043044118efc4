package org.phos.workbench.cr.core.process;

import java.util.Locale;

import org.eclipse.jdt.annotation.Nullable;

/**
 * Reads the checkpoint helper's protocol (version 1), one stdout line at a time ({@code native-hooks/live/
 * driver_checkpoint.c} documents it):
 * <pre>
 * phos-checkpoint 1 pid P driver V
 * state running|locked|checkpointed|failed        state ? CODE NAME   (the query refused)
 * begin STEP t_ns T [recovery]
 * end STEP ok t_ns T ms M                         end STEP refused t_ns T ms M code C NAME
 * stall ms M
 * done ok|refused
 * error TEXT
 * </pre>
 * A line that is none of these is an error of the helper (a {@link CheckpointEvent.HelperFailed} naming the line):
 * the workbench would rather say so than guess what the process's state is.
 */
public final class CheckpointProtocol {
	/** The protocol version this reader knows. */
	public static final int VERSION = 1;

	private @Nullable CheckpointStep pendingStep;
	private long pendingBegin;
	private boolean pendingRecovery;
	private @Nullable CheckpointStep lastStep;

	/** The event for one line (trailing blanks ignored); an empty line gives null. */
	public @Nullable CheckpointEvent parse(String line) {
		String l = line.strip();
		if (l.isEmpty()) {
			return null;
		}
		String[] w = l.split("\\s+");
		try {
			switch (w[0]) {
			case "phos-checkpoint":
				if (w.length >= 6 && w[2].equals("pid") && w[4].equals("driver")) {
					int v = Integer.parseInt(w[1]);
					if (v != VERSION) {
						return new CheckpointEvent.HelperFailed("the checkpoint helper speaks protocol " + v
								+ ", this workbench " + VERSION + ": rebuild it (make -C native-hooks)");
					}
					return new CheckpointEvent.Hello(v, Long.parseLong(w[3]), Integer.parseInt(w[5]));
				}
				break;
			case "state":
				if (w.length == 2) {
					ProcessState s = ProcessState.ofWord(w[1]);
					if (s != null) {
						return new CheckpointEvent.StateSeen(s, null);
					}
				} else if (w.length == 4 && w[1].equals("?")) {
					return new CheckpointEvent.StateSeen(ProcessState.UNKNOWN,
							new DriverRefusal(null, Integer.parseInt(w[2]), w[3]));
				}
				break;
			case "begin":
				if (w.length >= 4 && w[2].equals("t_ns")) {
					CheckpointStep s = CheckpointStep.ofWord(w[1]);
					if (s != null) {
						pendingStep = s;
						pendingBegin = Long.parseLong(w[3]);
						pendingRecovery = w.length > 4 && w[4].equals("recovery");
						return new CheckpointEvent.PhaseBegan(s, pendingBegin, pendingRecovery);
					}
				}
				break;
			case "end":
				if (w.length >= 7 && w[3].equals("t_ns") && w[5].equals("ms")) {
					CheckpointStep s = CheckpointStep.ofWord(w[1]);
					if (s != null && s == pendingStep) {
						long end = Long.parseLong(w[4]);
						double ms = Double.parseDouble(w[6]);
						DriverRefusal refusal = null;
						if (w[2].equals("refused") && w.length >= 10 && w[7].equals("code")) {
							refusal = new DriverRefusal(s, Integer.parseInt(w[8]), w[9]);
						} else if (!w[2].equals("ok")) {
							break;
						}
						pendingStep = null;
						lastStep = s;
						return new CheckpointEvent.PhaseEnded(new CheckpointPhase(s, pendingBegin, end, ms,
								pendingRecovery, refusal));
					}
				}
				break;
			case "stall":
				if (w.length == 3 && w[1].equals("ms")) {
					return new CheckpointEvent.Stall(Double.parseDouble(w[2]));
				}
				break;
			case "done":
				if (w.length == 2 && (w[1].equals("ok") || w[1].equals("refused"))) {
					return new CheckpointEvent.Done(w[1].equals("ok"));
				}
				break;
			case "error":
				return new CheckpointEvent.HelperFailed(l.substring(5).strip());
			default:
				break;
			}
		} catch (NumberFormatException e) {
			// falls through to the message below
		}
		return new CheckpointEvent.HelperFailed(String.format(Locale.ROOT,
				"the checkpoint helper printed a line this workbench does not understand: \"%s\"%s", l,
				lastStep == null ? "" : " (after " + lastStep.word() + ")"));
	}
}
