package org.phos.workbench.cr.core.process;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.attach.AttachDirectory;

/**
 * A control connection to a recording process's attach socket (native-hooks/src/rec_stream.c): it asks the recorder
 * to let go of CUPTI before the driver's Lock ({@code checkpoint-prepare}) and to take it up again after the Unlock
 * ({@code checkpoint-done}). Driver 580 refuses to lock a process whose CUPTI activity recording is on (801
 * CUDA_ERROR_NOT_SUPPORTED, measured on the H100: docs/gpu-checks.md, blocks i14-ckpt and i14-cupti); the recorder's
 * default GPU timing is CUPTI. Between prepare and done the recorder times operations with CUDA events and writes the
 * interval into the trace (TraceEnd's TimingGap). A process without a socket (not recorded, or PHOS_ATTACH=0) has
 * nothing to prepare: {@link #open} answers null. The socket's peer check (same user) is the recorder's.
 */
public final class RecorderControl implements AutoCloseable {
	private final SocketChannel channel;
	private final ByteBuffer in = ByteBuffer.allocate(4096);
	private final StringBuilder pending = new StringBuilder();

	private RecorderControl(SocketChannel channel) {
		this.channel = channel;
	}

	/** Connects to process {@code pid}'s socket in {@code attachDir}; null when the process has no socket there. */
	public static @Nullable RecorderControl open(Path attachDir, long pid) throws IOException {
		Path socket = AttachDirectory.socket(attachDir, pid);
		if (!Files.exists(socket)) {
			return null;
		}
		SocketChannel ch;
		try {
			ch = SocketChannel.open(UnixDomainSocketAddress.of(socket));
		} catch (ConnectException e) {
			return null; // nobody listens: the file of an earlier process of this pid, killed before it could remove it
		}
		ch.write(ByteBuffer.wrap("phos-ctl 1\n".getBytes(StandardCharsets.US_ASCII)));
		return new RecorderControl(ch);
	}

	/** How long an answer may take: the recorder's writer thread answers within a few ms unless it waits in a CUDA call. */
	public static final long ANSWER_MS = 5_000;

	/**
	 * Sends one command and returns the recorder's one-line answer; an IOException after {@link #ANSWER_MS} without
	 * one (the writer thread waits in a CUDA call, e.g. of a process that is locked already).
	 */
	public String ask(String command) throws IOException {
		channel.configureBlocking(true);
		channel.write(ByteBuffer.wrap((command + "\n").getBytes(StandardCharsets.US_ASCII)));
		channel.configureBlocking(false);
		long deadline = System.nanoTime() + ANSWER_MS * 1_000_000L;
		for (;;) {
			int nl = pending.indexOf("\n");
			if (nl >= 0) {
				String line = pending.substring(0, nl);
				pending.delete(0, nl + 1);
				return line;
			}
			in.clear();
			int n = channel.read(in);
			if (n < 0) {
				throw new IOException("the recording process closed its control connection");
			}
			if (n == 0) {
				if (System.nanoTime() > deadline) {
					throw new IOException("the recorder did not answer \"" + command + "\" in " + ANSWER_MS + " ms (its "
							+ "writer thread may wait in a CUDA call of a locked process)");
				}
				try {
					Thread.sleep(2);
				} catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					throw new IOException("interrupted while waiting for the recorder's answer", e);
				}
				continue;
			}
			in.flip();
			pending.append(StandardCharsets.UTF_8.decode(in));
		}
	}

	@Override
	public void close() throws IOException {
		channel.close();
	}

	/**
	 * Runs the helper's steps on a recorded process with the recorder's prepare before and done after:
	 * {@code checkpoint-prepare} when the steps lock the process (with "hold" when they do not unlock it again, so the
	 * release outlives this call), {@code checkpoint-done} when they unlock it, and always when the lock was refused
	 * or the helper failed (the process runs on). Each answer goes to {@code listener} as a
	 * {@link CheckpointEvent.RecorderAnswer} around the helper's events. A process without a socket gets the helper
	 * only.
	 */
	public static List<CheckpointEvent> runWithRecorder(CheckpointHelper helper, Path attachDir, long pid,
			List<CheckpointStep> steps, long lockTimeoutMs, Consumer<CheckpointEvent> listener) {
		boolean locks = steps.contains(CheckpointStep.LOCK), unlocks = steps.contains(CheckpointStep.UNLOCK);
		RecorderControl control = null;
		boolean prepared = false;
		if (locks || unlocks) {
			try {
				control = open(attachDir, pid);
			} catch (IOException e) {
				listener.accept(new CheckpointEvent.RecorderAnswer("prepare", false, "cannot reach the recorder's socket ("
						+ e.getMessage() + "): its CUPTI timing, if any, stays on"));
			}
		}
		if (control != null && locks) {
			String answer = ask(control, unlocks ? "checkpoint-prepare" : "checkpoint-prepare hold");
			prepared = answer.startsWith("ready ");
			listener.accept(new CheckpointEvent.RecorderAnswer("prepare", prepared, answer));
		}
		boolean[] lockRefused = {false};
		boolean[] failed = {false};
		List<CheckpointEvent> events = helper.run(pid, steps, lockTimeoutMs, e -> {
			if (e instanceof CheckpointEvent.PhaseEnded p && p.phase().step() == CheckpointStep.LOCK
					&& !p.phase().ok()) {
				lockRefused[0] = true;
			}
			failed[0] |= e instanceof CheckpointEvent.HelperFailed;
			listener.accept(e);
		});
		if (control != null) {
			if (unlocks || lockRefused[0] || failed[0] || (locks && !prepared)) {
				String answer = ask(control, "checkpoint-done");
				listener.accept(new CheckpointEvent.RecorderAnswer("done", answer.startsWith("resumed "), answer));
			}
			try {
				control.close();
			} catch (IOException e) {
				// closed already: the recorder resumes on its own when a connection that prepared goes away
			}
		}
		return events;
	}

	private static String ask(RecorderControl c, String command) {
		try {
			return c.ask(command);
		} catch (IOException e) {
			return "error " + e.getMessage();
		}
	}
}
