package org.phos.workbench.cr.core.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint helper's protocol and the state machine built on it: first from transcripts the helper printed
 * (native-hooks/tests/run_tests.py checks the helper itself), then end to end with the real helper over native-hooks'
 * fake libcuda against a running fake-libcuda program (skipped where native-hooks does not build).
 */
class ProcessCheckpointTest {

	private static ProcessCheckpoint feed(List<CheckpointStep> steps, String transcript) {
		ProcessCheckpoint m = new ProcessCheckpoint(4242);
		m.begin(steps);
		CheckpointProtocol p = new CheckpointProtocol();
		for (String line : transcript.split("\n")) {
			CheckpointEvent e = p.parse(line);
			if (e != null) {
				m.accept(e);
			}
		}
		return m;
	}

	private static final List<CheckpointStep> ALL = List.of(CheckpointStep.values());

	@Test
	void aWholeCheckpointWalksTheStatesAndMeasuresTheStall() {
		ProcessCheckpoint m = feed(ALL, """
				phos-checkpoint 1 pid 4242 driver 13000
				state running
				begin lock t_ns 1000000 
				end lock ok t_ns 2000000 ms 1.000
				state locked
				begin checkpoint t_ns 2000000
				end checkpoint ok t_ns 32000000 ms 30.000
				state checkpointed
				begin restore t_ns 32000000
				end restore ok t_ns 47000000 ms 15.000
				state locked
				begin unlock t_ns 47000000
				end unlock ok t_ns 48000000 ms 1.000
				state running
				stall ms 47.000
				done ok
				""");
		assertEquals(ProcessState.RUNNING, m.state());
		assertEquals(13000, m.driverVersion());
		assertFalse(m.busy());
		assertEquals(List.of(CheckpointStep.LOCK, CheckpointStep.CHECKPOINT, CheckpointStep.RESTORE,
				CheckpointStep.UNLOCK), m.phases().stream().map(CheckpointPhase::step).toList());
		assertEquals(30.0, m.phases().get(1).ms(), 1e-9);
		assertEquals(2_000_000L, m.phases().get(1).beginNs());
		ProcessCheckpoint.Run run = m.lastRun();
		assertNotNull(run);
		assertEquals(ProcessCheckpoint.Outcome.DONE, run.outcome());
		assertEquals(47.0, run.stallMs(), 1e-9);
		assertNull(m.lastRefusal());
		assertTrue(m.allowsFullCheckpoint());
		assertFalse(m.allows(CheckpointStep.UNLOCK), "a running process cannot be unlocked");
		List<String> lines = ProcessCheckpoint.describe(run, m);
		assertEquals(5, lines.size(), lines.toString());
		assertTrue(lines.get(1).contains("checkpoint") && lines.get(1).contains("30.000 ms"), lines.get(1));
		assertTrue(lines.get(4).contains("stall") && lines.get(4).contains("47.000 ms"), lines.get(4));
	}

	@Test
	void aRefusedCheckpointIsExplainedAndTheRecoveryUnlockIsShown() {
		ProcessCheckpoint m = feed(ALL, """
				phos-checkpoint 1 pid 4242 driver 13000
				state running
				begin lock t_ns 10 
				end lock ok t_ns 20 ms 0.000
				state locked
				begin checkpoint t_ns 20
				end checkpoint refused t_ns 30 ms 0.000 code 801 CUDA_ERROR_NOT_SUPPORTED
				state locked
				begin unlock t_ns 40 recovery
				end unlock ok t_ns 50 ms 0.000
				state running
				stall ms 0.000
				done refused
				""");
		assertEquals(ProcessState.RUNNING, m.state(), "unlocked again");
		DriverRefusal r = m.lastRefusal();
		assertNotNull(r);
		assertEquals(CheckpointStep.CHECKPOINT, r.step());
		assertEquals(801, r.code());
		String text = m.lastRefusalText();
		assertNotNull(text);
		assertTrue(text.startsWith("Checkpoint (cuCheckpointProcessCheckpoint) refused: 801 CUDA_ERROR_NOT_SUPPORTED."),
				text);
		assertTrue(text.contains("managed memory"), text);
		assertEquals(ProcessCheckpoint.Outcome.REFUSED, m.lastRun().outcome());
		assertTrue(m.phases().get(2).recovery());
		assertTrue(ProcessCheckpoint.describe(m.lastRun(), m).get(1).contains("REFUSED"));
	}

	@Test
	void stepsOneByOneFollowTheDriversTransitions() {
		ProcessCheckpoint m = feed(List.of(CheckpointStep.LOCK), """
				phos-checkpoint 1 pid 4242 driver 13000
				state running
				begin lock t_ns 10
				end lock ok t_ns 20 ms 0.010
				state locked
				done ok
				""");
		assertEquals(ProcessState.LOCKED, m.state());
		assertTrue(m.allows(CheckpointStep.CHECKPOINT));
		assertTrue(m.allows(CheckpointStep.UNLOCK));
		assertFalse(m.allows(CheckpointStep.LOCK));
		assertFalse(m.allows(CheckpointStep.RESTORE));
		assertFalse(m.allowsFullCheckpoint());
		assertTrue(Double.isNaN(m.lastRun().stallMs()), "a lock alone has no stall yet");
		m.begin(List.of(CheckpointStep.LOCK));
		assertTrue(m.busy());
		assertFalse(m.allows(CheckpointStep.UNLOCK), "nothing while a helper is at work");
		CheckpointProtocol p = new CheckpointProtocol();
		for (String l : List.of("phos-checkpoint 1 pid 4242 driver 13000", "state locked", "begin lock t_ns 30",
				"end lock refused t_ns 40 ms 0.010 code 401 CUDA_ERROR_ILLEGAL_STATE", "state locked", "done refused")) {
			m.accept(p.parse(l));
		}
		String text = m.lastRefusalText();
		assertEquals("Lock (cuCheckpointProcessLock) refused: 401 CUDA_ERROR_ILLEGAL_STATE. Lock needs a running "
				+ "process; it is locked. Checkpoint or Unlock it.", text);
	}

	@Test
	void refusalsSayWhatHappenedInWords() {
		DriverRefusal timeout = new DriverRefusal(CheckpointStep.LOCK, 600, "CUDA_ERROR_NOT_READY");
		assertTrue(timeout.explanation(ProcessState.RUNNING).contains("lock timed out"));
		DriverRefusal none = new DriverRefusal(CheckpointStep.LOCK, 1, "CUDA_ERROR_INVALID_VALUE");
		assertTrue(none.explanation(null).contains("no CUDA process with this pid"));
		DriverRefusal perm = new DriverRefusal(CheckpointStep.LOCK, 800, "CUDA_ERROR_NOT_PERMITTED");
		assertTrue(perm.explanation(null).contains("persistence mode"));
		DriverRefusal oom = new DriverRefusal(CheckpointStep.RESTORE, 2, "CUDA_ERROR_OUT_OF_MEMORY");
		assertTrue(oom.explanation(ProcessState.CHECKPOINTED).contains("stays checkpointed"));
		DriverRefusal broken = new DriverRefusal(CheckpointStep.RESTORE, 999, "CUDA_ERROR_UNKNOWN");
		assertTrue(broken.explanation(ProcessState.FAILED).contains("FAILED"));
		assertTrue(new DriverRefusal(null, 304, "CUDA_ERROR_OPERATING_SYSTEM").describe(null)
				.startsWith("the state query (cuCheckpointProcessGetState) refused: 304 CUDA_ERROR_OPERATING_SYSTEM. "
						+ "The driver could not reach the process"));
		assertTrue(new DriverRefusal(CheckpointStep.LOCK, 3, "CUDA_ERROR_NOT_INITIALIZED").explanation(null)
				.contains("not a CUDA program"));
		assertTrue(new DriverRefusal(CheckpointStep.LOCK, 801, "CUDA_ERROR_NOT_SUPPORTED").explanation(null)
				.contains("it uses CUPTI"), "the lock is refused for a CUPTI process, the checkpoint for managed memory");
	}

	@Test
	void aLineOutsideTheProtocolIsTheHelpersFaultNotAGuess() {
		CheckpointProtocol p = new CheckpointProtocol();
		assertInstanceOf(CheckpointEvent.Hello.class, p.parse("phos-checkpoint 1 pid 7 driver 12080"));
		CheckpointEvent e = p.parse("state sleeping");
		CheckpointEvent.HelperFailed f = assertInstanceOf(CheckpointEvent.HelperFailed.class, e);
		assertTrue(f.message().contains("\"state sleeping\""), f.message());
		assertInstanceOf(CheckpointEvent.HelperFailed.class, p.parse("end lock ok t_ns 5 ms 1"),
				"an end without its begin");
		CheckpointEvent.HelperFailed v = assertInstanceOf(CheckpointEvent.HelperFailed.class,
				p.parse("phos-checkpoint 2 pid 7 driver 12080"));
		assertTrue(v.message().contains("protocol 2"), v.message());
		ProcessCheckpoint m = new ProcessCheckpoint(7);
		m.begin(List.of(CheckpointStep.LOCK));
		m.accept(p.parse("error no CUDA driver on this machine: cannot load libcuda.so.1"));
		assertEquals(ProcessCheckpoint.Outcome.HELPER_FAILED, m.lastRun().outcome());
		assertTrue(m.stateText().contains("no CUDA driver on this machine"), m.stateText());
		assertFalse(m.busy());
	}

	@TempDir
	Path tmp;

	/** The real helper over the fake libcuda against fake_app (no recorder): phases, a refusal, the target blocked. */
	@Test
	void theRealHelperChecksOutAFakeLibcudaProcess() throws Exception {
		Path hooks = Path.of(System.getProperty("phos.repo", ".")).toAbsolutePath().resolve("native-hooks");
		assumeTrue(Files.isRegularFile(hooks.resolve("Makefile")), "no native-hooks (-Dphos.repo)");
		Process make = new ProcessBuilder("make", "-s", "-C", hooks.toString(), "all", "build/fake_app")
				.redirectErrorStream(true).start();
		String log = new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assumeTrue(make.waitFor(300, TimeUnit.SECONDS) && make.exitValue() == 0, "native-hooks does not build: " + log);
		Path build = hooks.resolve("build");
		ProcessBuilder pb = new ProcessBuilder(build.resolve("fake_app").toString(), "live", "/dev/null");
		pb.environment().keySet().removeIf(k -> k.startsWith("PHOS_"));
		pb.environment().put("LD_LIBRARY_PATH", build.resolve("fake").toString());
		pb.environment().put("PHOS_FAKE_CKPT_MS", "200");
		pb.redirectError(ProcessBuilder.Redirect.DISCARD);
		Process app = pb.start();
		try {
			Writer in = new OutputStreamWriter(app.getOutputStream(), StandardCharsets.UTF_8);
			BufferedReader out = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8));
			String ready = out.readLine();
			assertTrue(ready != null && ready.startsWith("ready "), String.valueOf(ready));
			long pid = Long.parseLong(ready.substring(6).trim());
			CheckpointHelper helper = new CheckpointHelper(build.resolve(CheckpointHelper.NAME), build.resolve("fake"));
			ProcessCheckpoint m = new ProcessCheckpoint(pid);
			List<CheckpointEvent> seen = new ArrayList<>();
			m.begin(ALL);
			List<CheckpointEvent> events = helper.run(pid, ALL, 5000, e -> {
				seen.add(e);
				m.accept(e);
			});
			assertEquals(seen, events);
			assertEquals(ProcessCheckpoint.Outcome.DONE, m.lastRun().outcome(), m.stateText() + " " + events);
			assertEquals(ProcessState.RUNNING, m.state());
			assertEquals(4, m.phases().size());
			assertTrue(m.phases().get(1).ms() >= 195, "the fake's checkpoint takes 200 ms: " + m.phases().get(1));
			assertTrue(m.lastRun().stallMs() >= m.phases().get(1).ms() + m.phases().get(2).ms(), m.lastRun().toString());

			// the process waits while locked: a launch sent during a lock returns only after Unlock
			m.begin(List.of(CheckpointStep.LOCK));
			helper.run(pid, List.of(CheckpointStep.LOCK), 5000, m::accept);
			assertEquals(ProcessState.LOCKED, m.state());
			in.write("launch 3\n");
			in.flush();
			Thread.sleep(300);
			assertFalse(out.ready(), "a locked process does not answer");
			m.begin(List.of(CheckpointStep.UNLOCK));
			helper.run(pid, List.of(CheckpointStep.UNLOCK), 5000, m::accept);
			assertEquals("ok 7", out.readLine());
			assertEquals(ProcessState.RUNNING, m.state());

			// a refusal set in the process: explained, and the process is running again afterwards
			in.write("refuse checkpoint:801\n");
			in.flush();
			assertEquals("ok 7", out.readLine());
			m.begin(ALL);
			helper.run(pid, ALL, 5000, m::accept);
			assertEquals(ProcessCheckpoint.Outcome.REFUSED, m.lastRun().outcome());
			assertEquals(ProcessState.RUNNING, m.state());
			assertTrue(m.lastRefusalText().contains("801 CUDA_ERROR_NOT_SUPPORTED"), m.lastRefusalText());

			// no driver at all: the helper says so
			CheckpointHelper noDriver = new CheckpointHelper(build.resolve(CheckpointHelper.NAME), tmp);
			ProcessCheckpoint n = new ProcessCheckpoint(pid);
			n.begin(ALL);
			noDriver.run(pid, ALL, 5000, n::accept);
			assertEquals(ProcessCheckpoint.Outcome.HELPER_FAILED, n.lastRun().outcome());
			assertTrue(n.helperProblem().startsWith("no CUDA driver on this machine"), n.helperProblem());
		} finally {
			app.destroyForcibly();
		}
	}
}
