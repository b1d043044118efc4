package org.phos.workbench.cr.core.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.eclipse.jdt.annotation.Nullable;

/**
 * Runs the native checkpoint helper ({@code phos_driver_checkpoint --steps ... PID}, built by
 * {@code make -C native-hooks}) and hands each line it prints, as a {@link CheckpointEvent}, to a listener while it runs.
 * The helper is its own process so that the JVM never loads libcuda and the target is never this process.
 * <p>
 * Where it is: {@link #locate(Path)} tries the system property {@value #HELPER_PROPERTY}, the environment variable
 * {@code PHOS_CHECKPOINT_HELPER}, {@code native-hooks/build/phos_driver_checkpoint} under the working directory, then
 * {@code phos_driver_checkpoint} on the PATH. The system property {@value #LIBRARY_PROPERTY} puts a folder in front of
 * the helper's {@code LD_LIBRARY_PATH} (the tests run it over native-hooks' fake libcuda so).
 *
 * @param executable the helper
 * @param libraryPath a folder for the helper's LD_LIBRARY_PATH, or null
 */
public record CheckpointHelper(Path executable, @Nullable Path libraryPath) {
	/** System property: the helper executable. */
	public static final String HELPER_PROPERTY = "phos.checkpoint.helper";
	/** System property: a folder put first on the helper's LD_LIBRARY_PATH. */
	public static final String LIBRARY_PROPERTY = "phos.checkpoint.libraryPath";
	/** The helper's file name. */
	public static final String NAME = "phos_driver_checkpoint";
	/** The longest a helper may run: a checkpoint of 80 GB at the measured 1.7 GB/s takes under a minute. */
	public static final long LIMIT_SECONDS = 600;

	/** Where the helper was not found: the places tried, and how to build it. */
	public static final class NotFound extends Exception {
		private static final long serialVersionUID = 1L;

		NotFound(String message) {
			super(message);
		}
	}

	/** The helper by the rules above; {@code explicit} (a command-line option) wins when given. */
	public static CheckpointHelper locate(@Nullable Path explicit) throws NotFound {
		String lib = System.getProperty(LIBRARY_PROPERTY);
		Path libPath = lib == null || lib.isBlank() ? null : Path.of(lib);
		List<Path> candidates = new ArrayList<>();
		if (explicit != null) {
			candidates.add(explicit);
		} else {
			String p = System.getProperty(HELPER_PROPERTY);
			if (p != null && !p.isBlank()) {
				candidates.add(Path.of(p));
			}
			String e = System.getenv("PHOS_CHECKPOINT_HELPER");
			if (e != null && !e.isBlank()) {
				candidates.add(Path.of(e));
			}
			candidates.add(Path.of("native-hooks", "build", NAME).toAbsolutePath());
			String path = System.getenv("PATH");
			if (path != null) {
				for (String d : path.split(":")) {
					if (!d.isEmpty()) {
						candidates.add(Path.of(d, NAME));
					}
				}
			}
		}
		for (Path c : candidates) {
			if (Files.isRegularFile(c) && Files.isExecutable(c)) {
				return new CheckpointHelper(c, libPath);
			}
		}
		throw new NotFound("the checkpoint helper " + NAME + " is not " + (explicit != null ? "at " + explicit
				: "found (tried -D" + HELPER_PROPERTY + ", $PHOS_CHECKPOINT_HELPER, native-hooks/build and the PATH)")
				+ ": build it with make -C native-hooks");
	}

	/**
	 * Runs the steps on process {@code pid} and blocks until the helper ends; every event goes to {@code listener} as
	 * it is read (on this thread). The last event is always a {@link CheckpointEvent.Done} or a
	 * {@link CheckpointEvent.HelperFailed}.
	 *
	 * @param steps the calls in order (the helper stops at the first refusal and unlocks what it locked)
	 * @param lockTimeoutMs the lock's timeout (0: none)
	 * @return every event, in order
	 */
	public List<CheckpointEvent> run(long pid, List<CheckpointStep> steps, long lockTimeoutMs,
			Consumer<CheckpointEvent> listener) {
		List<String> cmd = new ArrayList<>();
		cmd.add(executable.toString());
		cmd.add("--steps");
		cmd.add(steps.isEmpty() ? "state"
				: String.join(",", steps.stream().map(CheckpointStep::word).toList()));
		cmd.add("--timeout-ms");
		cmd.add(Long.toString(lockTimeoutMs));
		cmd.add(Long.toString(pid));
		return start(cmd, listener);
	}

	/** Asks the driver for the process's state only. */
	public List<CheckpointEvent> queryState(long pid, Consumer<CheckpointEvent> listener) {
		return run(pid, List.of(), 0, listener);
	}

	private List<CheckpointEvent> start(List<String> cmd, Consumer<CheckpointEvent> listener) {
		List<CheckpointEvent> events = new ArrayList<>();
		Consumer<CheckpointEvent> both = e -> {
			events.add(e);
			listener.accept(e);
		};
		ProcessBuilder pb = new ProcessBuilder(cmd);
		Map<String, String> env = pb.environment();
		Path lib = libraryPath;
		if (lib != null) {
			String old = env.get("LD_LIBRARY_PATH");
			env.put("LD_LIBRARY_PATH", lib + (old == null || old.isEmpty() ? "" : ":" + old));
		}
		env.remove("LD_PRELOAD"); // the helper is not a program to record
		pb.redirectErrorStream(false);
		Process p;
		try {
			p = pb.start();
		} catch (IOException e) {
			both.accept(new CheckpointEvent.HelperFailed("cannot run the checkpoint helper " + executable + ": "
					+ e.getMessage()));
			return events;
		}
		CheckpointProtocol protocol = new CheckpointProtocol();
		boolean finished = false;
		try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = r.readLine()) != null) {
				CheckpointEvent e = protocol.parse(line);
				if (e != null) {
					both.accept(e);
					finished |= e instanceof CheckpointEvent.Done || e instanceof CheckpointEvent.HelperFailed;
				}
			}
			String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (!p.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
				p.destroyForcibly();
				both.accept(new CheckpointEvent.HelperFailed("the checkpoint helper did not end in " + LIMIT_SECONDS
						+ " s"));
				return events;
			}
			if (!finished) {
				both.accept(new CheckpointEvent.HelperFailed("the checkpoint helper " + executable + " ended (exit "
						+ p.exitValue() + ") without saying how it went" + (err.isEmpty() ? "" : ": " + err)));
			}
		} catch (IOException e) {
			both.accept(new CheckpointEvent.HelperFailed("reading the checkpoint helper: " + e.getMessage()));
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			// the helper finishes its steps on its own: stopping it mid-lock could leave the process locked
			both.accept(new CheckpointEvent.HelperFailed("interrupted while the helper ran; it finishes on its own"));
		}
		return events;
	}
}
