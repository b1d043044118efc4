package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cr.core.process.CheckpointHelper;

/**
 * {@code workbench attach PID --checkpoint} end to end on the CPU: a recording fake-libcuda process (native-hooks'
 * {@code fake_app live} under the real recorder), the real checkpoint helper over the fake libcuda's
 * cuCheckpointProcess* (its states, its blocking, its refusals set in the process by "refuse STEP:CODE").
 */
class AttachCheckpointCommandTest {
	private static Path build;

	@TempDir
	Path tmp;

	private Process app;
	private Writer stdin;
	private BufferedReader stdout;
	private long pid;

	@BeforeAll
	static void buildNative() throws Exception {
		Path hooks = Path.of(System.getProperty("phos.repo", ".")).toAbsolutePath().resolve("native-hooks");
		assumeTrue(Files.isRegularFile(hooks.resolve("Makefile")), "no native-hooks (-Dphos.repo)");
		Process make = new ProcessBuilder("make", "-s", "-C", hooks.toString(), "all", "build/fake_app")
				.redirectErrorStream(true).start();
		String log = new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assumeTrue(make.waitFor(300, TimeUnit.SECONDS) && make.exitValue() == 0, "native-hooks does not build: " + log);
		build = hooks.resolve("build");
	}

	@BeforeEach
	void startApp() throws Exception {
		startApp(Map.of());
	}

	private void startApp(Map<String, String> extra) throws Exception {
		Path xdg = tmp.resolve("xdg");
		Files.createDirectories(xdg);
		Files.setPosixFilePermissions(xdg, PosixFilePermissions.fromString("rwx------"));
		ProcessBuilder pb = new ProcessBuilder(build.resolve("fake_app").toString(), "live", "/dev/null");
		Map<String, String> env = pb.environment();
		env.keySet().removeIf(k -> k.startsWith("PHOS_"));
		env.put("LD_PRELOAD", build.resolve("libphos_recorder.so").toString());
		env.put("LD_LIBRARY_PATH", build.resolve("fake").toString());
		env.put("PHOS_TIMING", "0");
		env.put("PHOS_TRACE_OUT", tmp.resolve("app.phos").toString());
		env.put("XDG_RUNTIME_DIR", xdg.toString());
		env.put("PHOS_FAKE_CKPT_MS", "80");
		env.putAll(extra);
		pb.redirectError(ProcessBuilder.Redirect.DISCARD);
		app = pb.start();
		stdin = new OutputStreamWriter(app.getOutputStream(), StandardCharsets.UTF_8);
		stdout = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8));
		String ready = stdout.readLine();
		assertNotNull(ready, "fake_app did not start");
		pid = Long.parseLong(ready.substring(6).trim());
		System.setProperty(CheckpointHelper.LIBRARY_PROPERTY, build.resolve("fake").toString());
	}

	@AfterEach
	void stop() {
		System.clearProperty(CheckpointHelper.LIBRARY_PROPERTY);
		if (app != null) {
			app.destroyForcibly();
		}
	}

	private String command(String c) throws Exception {
		stdin.write(c + "\n");
		stdin.flush();
		return stdout.readLine();
	}

	private CliRun checkpoint(String... more) {
		String[] args = new String[4 + more.length];
		args[0] = "attach";
		args[1] = Long.toString(pid);
		args[2] = "--checkpoint";
		args[3] = "--helper=" + build.resolve(CheckpointHelper.NAME);
		System.arraycopy(more, 0, args, 4, more.length);
		return CliRun.of(args);
	}

	private static double ms(String out, String phase) {
		Matcher m = Pattern.compile("(?m)^  " + phase + " +([0-9.]+) ms").matcher(out);
		assertTrue(m.find(), phase + " in\n" + out);
		return Double.parseDouble(m.group(1));
	}

	@Test
	void printsEveryPhaseWithItsTimeAndTheStall() throws Exception {
		assertEquals("ok 9", command("launch 5"));
		CliRun r = checkpoint();
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().startsWith("stop-the-world checkpoint of process " + pid
				+ " through the CUDA driver's checkpoint API (driver 13.0, helper "), r.out());
		double lock = ms(r.out(), "lock"), ckpt = ms(r.out(), "checkpoint"), restore = ms(r.out(), "restore"),
				unlock = ms(r.out(), "unlock"), stall = ms(r.out(), "stall");
		assertTrue(ckpt >= 79 && restore >= 39, r.out());
		assertTrue(stall >= lock + ckpt + restore + unlock - 0.01, r.out());
		assertTrue(r.out().contains("  state       running\n"), r.out());
		assertTrue(r.out().strip().endsWith("state       running (CUDA calls proceed)"), r.out());
		assertEquals("ok 12", command("launch 3"), "the process goes on after the checkpoint");
	}

	@Test
	void aRefusalIsExplainedAndExitsNonZero() throws Exception {
		assertEquals("ok 4", command("refuse checkpoint:801"));
		CliRun r = checkpoint();
		assertEquals(ExitCode.FAILURE, r.exit(), r.toString());
		assertTrue(r.out().contains("REFUSED 801 CUDA_ERROR_NOT_SUPPORTED"), r.out());
		assertTrue(r.out().contains("unlocked again after the refusal"), r.out());
		assertFalse(r.out().contains("restore"), "no restore after a refused checkpoint: " + r.out());
		assertTrue(r.err().contains("error: the driver refused the checkpoint of process " + pid
				+ ": Checkpoint (cuCheckpointProcessCheckpoint) refused: 801 CUDA_ERROR_NOT_SUPPORTED."), r.err());
		assertTrue(r.err().contains("managed memory"), r.err());
		assertEquals("ok 5", command("launch 1"), "unlocked: the process goes on");
	}

	@Test
	void stepsOneAtATimeAndAStepInTheWrongState() throws Exception {
		CliRun lock = checkpoint("--steps", "lock");
		assertEquals(ExitCode.OK, lock.exit(), lock.toString());
		assertTrue(lock.out().contains("checkpoint steps lock of process"), lock.out());
		assertTrue(lock.out().contains("state       locked (its CUDA calls wait)"), lock.out());
		CliRun again = checkpoint("--steps", "lock");
		assertEquals(ExitCode.FAILURE, again.exit(), again.toString());
		assertTrue(again.err().contains("401 CUDA_ERROR_ILLEGAL_STATE. Lock needs a running process; it is locked. "
				+ "Checkpoint or Unlock it."), again.err());
		CliRun rest = checkpoint("--steps", "checkpoint,restore,unlock");
		assertEquals(ExitCode.OK, rest.exit(), rest.toString());
		assertFalse(rest.out().contains("stall"), "the stall needs the lock in the same call: " + rest.out());
		assertEquals("ok 5", command("launch 1"));
	}

	@Test
	void badInputGetsClearMessages() throws Exception {
		CliRun steps = checkpoint("--steps", "lock,fly");
		assertEquals(ExitCode.USAGE, steps.exit(), steps.toString());
		assertTrue(steps.err().contains("--steps: 'fly' is not a step"), steps.err());
		CliRun list = CliRun.of("attach", "--list", "--checkpoint");
		assertEquals(ExitCode.USAGE, list.exit(), list.toString());
		CliRun alone = CliRun.of("attach", Long.toString(pid), "--steps", "lock");
		assertEquals(ExitCode.USAGE, alone.exit(), alone.toString());
		assertTrue(alone.err().contains("go with --checkpoint"), alone.err());
		CliRun noHelper = CliRun.of("attach", Long.toString(pid), "--checkpoint", "--helper",
				tmp.resolve("none").toString());
		assertEquals(ExitCode.FAILURE, noHelper.exit(), noHelper.toString());
		assertTrue(noHelper.err().contains("is not at " + tmp.resolve("none") + ": build it with make -C native-hooks"),
				noHelper.err());
		System.setProperty(CheckpointHelper.LIBRARY_PROPERTY, tmp.toString()); // a folder without libcuda
		CliRun noDriver = checkpoint();
		assertEquals(ExitCode.FAILURE, noDriver.exit(), noDriver.toString());
		assertTrue(noDriver.err().contains("no CUDA driver on this machine"), noDriver.err());
		System.setProperty(CheckpointHelper.LIBRARY_PROPERTY, build.resolve("fake").toString());
		CliRun gone = CliRun.of("attach", "999999", "--checkpoint", "--helper="
				+ build.resolve(CheckpointHelper.NAME));
		assertEquals(ExitCode.FAILURE, gone.exit(), gone.toString());
		assertTrue(gone.err().contains("304 CUDA_ERROR_OPERATING_SYSTEM. The driver could not reach the process "
				+ "through the operating system: no process has this pid any more"), gone.err());
		Process sleeper = new ProcessBuilder("sleep", "30").start();
		try {
			CliRun noCuda = CliRun.of("attach", Long.toString(sleeper.pid()), "--checkpoint", "--helper="
					+ build.resolve(CheckpointHelper.NAME));
			assertEquals(ExitCode.FAILURE, noCuda.exit(), noCuda.toString());
			assertTrue(noCuda.err().contains("3 CUDA_ERROR_NOT_INITIALIZED. The process has not initialised CUDA"),
					noCuda.err());
		} finally {
			sleeper.destroyForcibly();
		}
	}

	// i14-cupti: begin
	private void startWithCupti(boolean releasable) throws Exception {
		stop();
		startApp(Map.of("PHOS_TIMING", "1", "PHOS_TIMING_SOURCE", "auto", "PHOS_CUPTI",
				build.resolve("fake").resolve("libcuda.so.1").toString(), "PHOS_FAKE_CUPTI_RELEASABLE",
				releasable ? "1" : "0"));
	}

	private static final String PREPARED = "  recorder    prepare  ready cupti flushed,kinds-off,unsubscribed,finalized\n";
	private static final String RESUMED = "  recorder    done     resumed cupti; operations between prepare and done were "
			+ "timed by CUDA events\n";

	/**
	 * A recording with CUPTI timing (the fake libcuda answers CUPTI's calls; PHOS_CUPTI points the recorder at it) on a
	 * driver that behaves as driver 580 did on the H100: the Lock is refused with 801 once the process used CUPTI, even
	 * after the recorder let go of it. The command asks the recorder all the same (prepare, then done after the
	 * refusal) and says what to do in the words of the issue.
	 */
	@Test
	void cuptiTimingOnDriver580IsRefusedWithTheWayOut() throws Exception {
		startWithCupti(false);
		assertEquals("ok 9", command("launch 5"));
		// without the recorder's socket (another directory): no prepare, the driver's plain refusal
		CliRun bare = checkpoint();
		assertEquals(ExitCode.FAILURE, bare.exit(), bare.toString());
		assertFalse(bare.out().contains("recorder"), bare.out());
		assertTrue(bare.err().contains("Lock (cuCheckpointProcessLock) refused: 801 CUDA_ERROR_NOT_SUPPORTED. The "
				+ "driver will not lock this process: it uses CUPTI"), bare.err());
		CliRun r = checkpoint("--dir=" + tmp.resolve("xdg").resolve("phos"));
		assertEquals(ExitCode.FAILURE, r.exit(), r.toString());
		int prepare = r.out().indexOf(PREPARED), lock = r.out().indexOf("\n  lock "), done = r.out().indexOf(RESUMED);
		assertTrue(prepare == 0 && lock > prepare && done > lock, r.out());
		assertTrue(r.out().contains("REFUSED 801 CUDA_ERROR_NOT_SUPPORTED"), r.out());
		assertTrue(r.err().contains("Lock (cuCheckpointProcessLock) refused: 801 CUDA_ERROR_NOT_SUPPORTED. The process "
				+ "was recorded with CUPTI timing; record with PHOS_TIMING_SOURCE=events to checkpoint"), r.err());
		assertEquals("ok 10", command("launch 1"), "the process goes on");
	}

	/**
	 * The same on a driver that locks a process once CUPTI is released (PHOS_FAKE_CUPTI_RELEASABLE): prepare before the
	 * lock, done after the unlock, on every path (done, one step at a time, refused after the lock).
	 */
	@Test
	void cuptiTimingIsPreparedBeforeTheLockAndResumedAfter() throws Exception {
		startWithCupti(true);
		String dir = "--dir=" + tmp.resolve("xdg").resolve("phos");
		assertEquals("ok 9", command("launch 5"));
		// with it: prepare (before the helper reaches the driver: the first line), the four phases, done
		CliRun r = checkpoint(dir);
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		String out = r.out();
		int prepare = out.indexOf(PREPARED), lock = out.indexOf("\n  lock "), unlock = out.indexOf("\n  unlock ");
		int done = out.indexOf(RESUMED);
		assertTrue(prepare == 0 && lock > prepare && unlock > lock && done > unlock, out);
		assertTrue(ms(out, "stall") >= ms(out, "checkpoint"), out);
		assertEquals("ok 12", command("launch 3"), "the process goes on after the checkpoint");
		// one step at a time: the lock's prepare holds until the unlock's call says done
		CliRun lockOnly = checkpoint(dir, "--steps", "lock");
		assertEquals(ExitCode.OK, lockOnly.exit(), lockOnly.toString());
		assertTrue(lockOnly.out().contains(PREPARED) && !lockOnly.out().contains("recorder    done"), lockOnly.out());
		CliRun rest = checkpoint(dir, "--steps", "checkpoint,restore,unlock");
		assertEquals(ExitCode.OK, rest.exit(), rest.toString());
		assertTrue(!rest.out().contains("recorder    prepare") && rest.out().contains(RESUMED), rest.out());
		// a refusal after the lock: unlocked again, and CUPTI resumed
		assertEquals("ok 12", command("refuse checkpoint:801"));
		CliRun refused = checkpoint(dir);
		assertEquals(ExitCode.FAILURE, refused.exit(), refused.toString());
		assertTrue(refused.out().contains("unlocked again after the refusal") && refused.out().contains(RESUMED),
				refused.out());
		assertEquals("ok 12", command("refuse"));
		assertEquals("ok 13", command("launch 1"), "the process goes on");
	}
	// i14-cupti: end
}
