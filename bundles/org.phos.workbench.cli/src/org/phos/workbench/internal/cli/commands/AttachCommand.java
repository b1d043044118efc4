package org.phos.workbench.internal.cli.commands;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cli.Command;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.ParsedArguments;
import org.phos.workbench.cli.Positional;
import org.phos.workbench.cli.UsageException;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.internal.cli.util.Human;
import org.phos.workbench.internal.cli.util.Outputs;
import org.phos.workbench.trace.core.StreamStart;
import org.phos.workbench.trace.core.TraceEnd;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.attach.AttachDirectory;
import org.phos.workbench.trace.core.attach.AttachException;
import org.phos.workbench.trace.core.attach.LiveProcesses;
import org.phos.workbench.trace.core.attach.LiveStatistics;
import org.phos.workbench.trace.core.attach.LiveStream;
import org.phos.workbench.trace.core.attach.StreamSaver;

/**
 * {@code workbench attach --list} and {@code workbench attach PID [--save FILE]}: watch a GPU process that records
 * with the phos recorder while it runs (its live attach socket, docs/trace-format.md "Live attach"). Rolling figures
 * on the terminal every interval; the stream saved as a {@code .phos} as it arrives. Detaching (the end of
 * {@code --seconds}, Ctrl-C) leaves the process untouched.
 */
public final class AttachCommand implements Command {

	static final Option<Boolean> LIST = Option.flag("list",
			"list the live recording processes of this user (pid, start, events so far, device, command line)");
	static final Option<Path> SAVE = Option.optional("save", "FILE",
			"write the stream to FILE (.phos, whole chunks as they arrive: loadable at any moment)", ValueParser.path());
	static final Option<Long> INTERVAL = Option.withDefault("interval-ms", "MS", "print the figures this often",
			ValueParser.integer(50, 3_600_000), 1000L);
	static final Option<Long> SECONDS = Option.optional("seconds", "S",
			"detach after S seconds (default: stay until the process ends)", ValueParser.integer(1, 31_536_000));
	static final Option<Long> TOP = Option.withDefault("top", "N", "kernels listed in each line",
			ValueParser.integer(0, 100), 3L);
	static final Option<Path> DIR = Option.optional("dir", "DIR",
			"the socket directory (default: $XDG_RUNTIME_DIR/phos, else /tmp/phos-UID, as the recorder uses)",
			ValueParser.path());
	// i14-ckpt: begin
	static final Option<Boolean> CHECKPOINT = Option.flag("checkpoint",
			"checkpoint the process through the CUDA driver (lock, checkpoint, restore, unlock): phases, times, stall");
	static final Option<String> STEPS = Option.withDefault("steps", "LIST",
			"with --checkpoint: all, or some of lock,checkpoint,restore,unlock,state in order", ValueParser.text(),
			"all");
	static final Option<Long> LOCK_TIMEOUT = Option.withDefault("lock-timeout-ms", "MS",
			"with --checkpoint: how long the lock may wait for the process's CUDA calls in flight (0: no limit)",
			ValueParser.integer(0, 3_600_000), 10_000L);
	static final Option<Path> HELPER = Option.optional("helper", "FILE",
			"with --checkpoint: the native helper (default: native-hooks/build/phos_driver_checkpoint or the PATH)",
			ValueParser.path());
	// i14-ckpt: end
	// i14-liveacc: begin
	static final Option<Long> ACCURACY_WINDOW = Option.withDefault("accuracy-window", "EVENTS",
			"the newest events kept to judge speculation against the observed accesses that arrive live (0: no "
					+ "accuracy lines)", ValueParser.integer(0, 100_000_000), 1_000_000L);
	// i14-liveacc: end

	@Override
	public String name() {
		return "attach";
	}

	@Override
	public String summary() {
		return "watch a recording GPU process live: rolling figures, and the stream saved as a .phos";
	}

	@Override
	public String description() {
		return """
				A process recorded with the phos recorder (native-hooks) offers its trace on a Unix socket of this
				user while it runs. --list shows those processes. With PID, connect to it and print, every
				--interval-ms, the launches so far and per second, GPU memory live, the most launched kernels and the
				events the stream missed (a reader that falls behind is never waited for: the recorder drops batches
				for it and says how many). --save writes what arrives to a .phos that any command and the workbench
				open (events before the connection are in the process's own trace file, named in the output). The
				command ends when the process ends (a clean end or a kill) or after --seconds; the process is never
				affected.

				When the sanitizer tool runs in the process (native-hooks/README.md, "SASS-level observed accesses"),
				its observed accesses arrive too, after each of its read-backs: each time new ones have come, one
				accuracy line per engine follows the figures (validate's default engines, judged as validate judges
				them, over the newest --accuracy-window events). When the process ends and the stream fits the
				window, the last lines equal validate on the saved stream.

				--checkpoint takes the CUDA driver's own stop-the-world checkpoint of the process instead
				(cuCheckpointProcessLock, Checkpoint, Restore, Unlock, from a native helper process: the JVM never
				loads libcuda). It prints each phase with its time and the stall (lock to unlock: the process's CUDA
				calls wait). --steps runs some steps only (e.g. lock, then later checkpoint). If the driver refuses a
				step, the refusal is explained, a process this call locked is unlocked again, and the exit code is 1.""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(LIST, SAVE, INTERVAL, SECONDS, TOP, DIR, CHECKPOINT, STEPS, LOCK_TIMEOUT, HELPER, // i14-ckpt
				ACCURACY_WINDOW); // i14-liveacc
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.optional("PID", "the process to attach to"));
	}

	@Override
	public List<String> examples() {
		return List.of("attach --list", "attach 12345 --save live.phos", "attach 12345 --seconds 30 --interval-ms 500",
				"attach 12345 --checkpoint", "attach 12345 --checkpoint --steps lock"); // i14-ckpt: the last two
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		Path dir = args.isGiven(DIR) ? args.get(DIR) : AttachDirectory.current();
		boolean list = args.get(LIST);
		List<String> pos = args.positionals();
		if (list) {
			if (!pos.isEmpty() || args.isGiven(SAVE) || args.get(CHECKPOINT)) { // i14-ckpt: --checkpoint
				throw new UsageException("--list takes no PID, no --save and no --checkpoint");
			}
			return list(dir, context.out());
		}
		if (pos.isEmpty()) {
			throw new UsageException("give the PID of a recording process, or --list to see them");
		}
		long pid;
		try {
			pid = Long.parseLong(pos.get(0));
		} catch (NumberFormatException e) {
			throw new UsageException("PID must be a process id (a number), not '" + pos.get(0) + "'");
		}
		if (pid <= 0) {
			throw new UsageException("PID must be a positive process id, not " + pid);
		}
		// i14-ckpt: begin
		if (args.get(CHECKPOINT)) {
			if (args.isGiven(SAVE) || args.isGiven(SECONDS)) {
				throw new UsageException("--checkpoint takes no --save and no --seconds");
			}
			return AttachCheckpoint.run(pid, AttachCheckpoint.steps(args.get(STEPS)), args.get(LOCK_TIMEOUT),
					args.find(HELPER), dir, context);
		}
		if (args.isGiven(STEPS) || args.isGiven(HELPER) || args.isGiven(LOCK_TIMEOUT)) {
			throw new UsageException("--steps, --helper and --lock-timeout-ms go with --checkpoint");
		}
		// i14-ckpt: end
		Path save = args.find(SAVE);
		if (save != null) {
			Outputs.check(save, "--save", List.of(), context);
		}
		return watch(dir, pid, save, args.get(INTERVAL), args.find(SECONDS), (int) (long) args.get(TOP),
				args.get(ACCURACY_WINDOW), context); // i14-liveacc: the window
	}

	private static int list(Path dir, PrintStream out) throws CommandFailedException {
		LiveProcesses.Listing l;
		try {
			l = LiveProcesses.list(dir, Duration.ofSeconds(2));
		} catch (IOException e) {
			throw new CommandFailedException("cannot read " + dir + ": " + e.getMessage(), e);
		}
		if (l.live().isEmpty()) {
			out.println("no live recording process of this user (sockets in " + dir + ")");
		} else {
			out.printf(Locale.ROOT, "%-8s %-19s %12s  %-20s %s%n", "PID", "STARTED", "EVENTS", "DEVICE", "COMMAND");
			DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());
			for (LiveProcesses.LiveProcess p : l.live()) {
				String started = p.startUnixNs() == 0 ? "-"
						: f.format(Instant.ofEpochSecond(0, p.startUnixNs()));
				out.printf(Locale.ROOT, "%-8d %-19s %12d  %-20s %s%n", p.pid(), started, p.eventsSoFar(),
						p.device().isEmpty() ? "-" : p.device(), String.join(" ", p.argv()));
			}
		}
		if (!l.stale().isEmpty()) {
			out.println("ignored " + l.stale().size() + " stale socket(s) of processes that ended without removing them"
					+ " (killed): pid " + l.stale().stream().map(String::valueOf).reduce((a, b) -> a + ", " + b).orElse(""));
		}
		for (String p : l.problems()) {
			out.println("could not read: " + p);
		}
		return ExitCode.OK;
	}

	private static int watch(Path dir, long pid, @Nullable Path save, long intervalMs, @Nullable Long seconds, int top,
			long accuracyWindow, CommandContext context) throws CommandFailedException {
		PrintStream out = context.out();
		LiveStream stream;
		try {
			stream = LiveStream.open(dir, pid);
		} catch (AttachException e) {
			throw new CommandFailedException(e.getMessage(), e);
		}
		LiveStatistics stats = new LiveStatistics(top);
		AttachAccuracy accuracy = accuracyWindow > 0 ? new AttachAccuracy((int) accuracyWindow) : null; // i14-liveacc
		AtomicReference<@Nullable Exception> failure = new AtomicReference<>();
		StreamSaver saver = null;
		try (LiveStream s = stream) {
			if (save != null) {
				saver = new StreamSaver(save);
			}
			StreamSaver sv = saver;
			Thread reader = new Thread(() -> {
				try {
					LiveStream.StreamChunk c;
					while ((c = s.next()) != null) {
						stats.accept(c);
						if (accuracy != null) {
							accuracy.accept(c); // i14-liveacc
						}
						if (sv != null) {
							sv.chunk(c);
						}
					}
				} catch (IOException e) {
					failure.set(e);
				}
			}, "phos attach " + pid);
			reader.setDaemon(true);
			reader.start();
			out.println("attached to process " + pid + " (" + s.socket() + ")" + (save != null ? ", saving to " + save : ""));
			long t0 = System.nanoTime();
			long deadline = seconds == null ? Long.MAX_VALUE : t0 + seconds * 1_000_000_000L;
			long lastLaunches = 0, lastT = t0;
			boolean headerShown = false;
			while (reader.isAlive()) {
				reader.join(Math.max(1, Math.min(intervalMs, (deadline - System.nanoTime()) / 1_000_000)));
				long now = System.nanoTime();
				LiveStatistics.Snapshot snap = stats.snapshot();
				if (!headerShown && snap.header() != null && snap.start() != null) {
					headerShown = true;
					out.println(describe(snap.header(), snap.start()));
				}
				double dt = (now - lastT) / 1e9;
				out.println(line(now - t0, snap, dt > 0 ? (snap.launches() - lastLaunches) / dt : 0));
				if (accuracy != null) {
					accuracy.print(out, context, false); // i14-liveacc: when new truth arrived
				}
				lastLaunches = snap.launches();
				lastT = now;
				if (now >= deadline && reader.isAlive()) {
					s.close();   // detach: the process goes on
					reader.join(5000);
					out.println("detached after " + seconds + " s; process " + pid + " goes on");
					break;
				}
			}
			Exception f = failure.get();
			if (accuracy != null) {
				accuracy.print(out, context, true); // i14-liveacc: what arrived last
			}
			LiveStatistics.Snapshot snap = stats.snapshot();
			TraceEnd end = snap.end();
			if (f != null) {
				context.err().println("error: " + f.getMessage() + "; kept what arrived before it");
			}
			if (end != null) {
				out.println("process " + pid + " closed its trace: " + end.eventCount() + " events in all, "
						+ snap.events() + " received, " + snap.missed() + " missed");
			} else if (!(seconds != null && System.nanoTime() >= deadline)) {
				out.println("the stream ended without TraceEnd: process " + pid + " was killed or crashed; kept the "
						+ snap.events() + " events received" + (snap.events() == 0 && snap.header() == null
								? " (it ended before it sent anything)" : ""));
			}
			if (saver != null) {
				StreamStart st = snap.start();
				out.println("saved " + save + " (" + Human.bytes(saver.bytes()) + ", " + snap.events() + " events"
						+ (st != null && st.firstLiveIndex() > 0 ? "; events before " + st.firstLiveIndex()
								+ " are in " + st.tracePath() : "") + ")");
			}
			return f == null ? ExitCode.OK : ExitCode.FAILURE;
		} catch (IOException e) {
			throw new CommandFailedException("cannot write " + save + ": " + e.getMessage(), e);
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return ExitCode.FAILURE;
		} finally {
			if (accuracy != null) {
				accuracy.close(); // i14-liveacc
			}
			if (saver != null) {
				try {
					saver.close();
				} catch (IOException e) {
					context.err().println("error: closing " + save + ": " + e.getMessage());
				}
			}
		}
	}

	private static String describe(TraceHeader h, StreamStart st) {
		return "process " + st.pid() + ": " + String.join(" ", h.argv()) + " on " + (h.deviceName().isEmpty() ? "?"
				: h.deviceName()) + "; joined at event " + st.firstLiveIndex() + " (" + st.liveAllocations()
				+ " allocations live then); its trace file: " + st.tracePath();
	}

	static String line(long elapsedNs, LiveStatistics.Snapshot s, double launchesPerSecond) {
		StringBuilder b = new StringBuilder();
		b.append(String.format(Locale.ROOT, "%7.1fs  launches %d (%.0f/s)  events %d  GPU memory live %s in %d "
				+ "allocations  missed %d", elapsedNs / 1e9, s.launches(), launchesPerSecond, s.events(),
				Human.bytes(s.liveBytes()), s.liveAllocations(), s.missed()));
		if (!s.topKernels().isEmpty()) {
			b.append("  top:");
			for (LiveStatistics.KernelCount k : s.topKernels()) {
				b.append(' ').append(k.name()).append(" ").append(k.launches());
			}
		}
		return b.toString();
	}
}
