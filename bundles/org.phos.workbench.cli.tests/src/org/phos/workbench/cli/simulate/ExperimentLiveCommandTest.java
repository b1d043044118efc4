package org.phos.workbench.cli.simulate;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.analysis.core.experiment.ExperimentStore;
import org.phos.workbench.analysis.core.experiment.LiveRun;
import org.phos.workbench.analysis.core.experiment.SavedExperiment;
import org.phos.workbench.cli.CliRun;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.internal.live.HostLiveDevice;
import org.phos.workbench.live.LiveDevices;

/**
 * {@code experiment new|run --live} (issue #13): an experiment run through the live engine and saved through the
 * store, marked live in experiment.json, listed and shown as live, opened from its files with no device; a re-run
 * live replaces its outputs; without a CUDA device {@code --live} is refused in one line and nothing is saved. The
 * device of the untagged tests is the engine's host-memory device; the test tagged {@code gpu} runs on the GPU.
 */
class ExperimentLiveCommandTest {

	@TempDir
	Path dir;

	private Path copy(String name) throws Exception {
		Path trace = dir.resolve(name);
		Files.copy(Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name), trace);
		return trace;
	}

	private static CliRun onHostDevice(String... args) {
		LiveCommand.DeviceOpener was = LiveCommand.devices;
		LiveCommand.devices = () -> new HostLiveDevice(17);
		try {
			return CliRun.of(args);
		} finally {
			LiveCommand.devices = was;
		}
	}

	@Test
	void anExperimentRunLiveIsSavedMarkedLiveAndOpensWithoutTheDevice() throws Exception {
		Path trace = copy("ptx-driver.phos");
		CliRun r = onHostDevice("experiment", "new", trace.toString(), "live-two", "--policy",
				"stop-the-world;soft-cow:chunk=1MiB", "--at", "launch:6", "--live");
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().contains("live soft-cow"), r.out());
		assertTrue(r.out().contains("live baseline (same replay, no checkpoint)"), r.out());

		ExperimentStore store = ExperimentStore.of(trace);
		SavedExperiment saved = store.get("live-two");
		assertEquals(SavedExperiment.State.READY, saved.state(), String.valueOf(saved.problem()));
		LiveRun live = saved.live();
		assertNotNull(live, "marked live");
		assertEquals("host memory (random interleaving)", live.device());
		assertNotNull(live.finished());
		String json = Files.readString(saved.folder().resolve(ExperimentStore.CONFIG_FILE));
		assertTrue(json.contains("\"live\"") && json.contains("\"device\": \"host memory (random interleaving)\""),
				json);
		// the round trip: what the store reads back is what the live run made (metrics.csv of the outputs)
		ExperimentResult opened = store.open("live-two");
		assertEquals(List.of("live stop-the-world", "simulated stop-the-world", "live soft-cow:chunk=1MiB",
				"simulated soft-cow:chunk=1MiB"), opened.runs().stream().map(CrRun::name).toList());
		assertEquals("live: host memory (random interleaving)", opened.runs().get(0).metrics().machine());
		assertTrue(opened.runs().get(0).metrics().baselineEndNs() > 0, "the live baseline is kept");
		assertEquals(1, opened.runs().get(2).metrics().checkpoints().size());
		assertFalse(opened.runs().get(2).timeline().lanes().isEmpty(), "the live timeline is kept");
		String metrics = Files.readString(saved.folder().resolve("outputs/metrics.csv"));
		for (CrRun run : opened.runs()) {
			assertTrue(metrics.contains(run.name()), run.name() + " in " + metrics);
		}

		CliRun list = CliRun.of("experiment", "list", trace.toString());
		assertEquals(ExitCode.OK, list.exit(), list.toString());
		assertTrue(list.out().contains("live, host memory (random interleaving), " + live.finished().substring(0, 10)),
				list.out());
		CliRun show = CliRun.of("experiment", "show", saved.folder().toString());
		assertEquals(ExitCode.OK, show.exit(), show.toString());
		assertTrue(show.out().contains("run live on host memory (random interleaving), " + live.finished()),
				show.out());
		CliRun simulate = CliRun.of("experiment", "run", saved.folder().toString());
		assertEquals(ExitCode.FAILURE, simulate.exit(), simulate.toString());
		assertTrue(simulate.err().contains("experiment run --live"), simulate.toString());

		// re-run live: the outputs are replaced, the mark says when
		Thread.sleep(5);
		CliRun again = onHostDevice("experiment", "run", saved.folder().toString(), "--live");
		assertEquals(ExitCode.OK, again.exit(), again.toString());
		LiveRun later = store.get("live-two").live();
		assertNotNull(later);
		assertTrue(later.finished().compareTo(live.finished()) > 0, later + " after " + live);
		assertEquals(4, store.open("live-two").runs().size());
	}

	@Test
	void withoutADeviceLiveIsRefusedInOneLineAndNothingIsSaved() throws Exception {
		Assumptions.assumeFalse(LiveDevices.probe().present(), "a CUDA device is here: the gpu-tagged test runs");
		Path trace = copy("ptx-driver.phos");
		CliRun r = CliRun.of("experiment", "new", trace.toString(), "no-gpu", "--policy", "soft-cow", "--live");
		assertEquals(ExitCode.FAILURE, r.exit(), r.toString());
		assertEquals(1, r.err().lines().count(), "one line: " + r.err());
		assertTrue(r.err().contains("experiment new --live needs a CUDA GPU and driver on this machine: "), r.err());
		assertTrue(r.err().contains("without --live the experiment is simulated"), r.err());
		assertFalse(Files.exists(ExperimentStore.of(trace).folder("no-gpu")), "nothing saved");

		CliRun made = CliRun.of("experiment", "new", trace.toString(), "simulated", "--policy", "soft-cow");
		assertEquals(ExitCode.OK, made.exit(), made.toString());
		Path folder = ExperimentStore.of(trace).folder("simulated");
		String before = Files.readString(folder.resolve("outputs/metrics.csv"));
		CliRun rerun = CliRun.of("experiment", "run", folder.toString(), "--live");
		assertEquals(ExitCode.FAILURE, rerun.exit(), rerun.toString());
		assertEquals(1, rerun.err().lines().count(), "one line: " + rerun.err());
		assertTrue(rerun.err().contains("experiment run --live needs a CUDA GPU"), rerun.err());
		assertEquals(before, Files.readString(folder.resolve("outputs/metrics.csv")), "the outputs are untouched");
		assertNull(ExperimentStore.of(trace).get("simulated").live());

		CliRun misplaced = CliRun.of("experiment", "list", trace.toString(), "--live");
		assertEquals(ExitCode.USAGE, misplaced.exit(), misplaced.toString());
		assertTrue(misplaced.err().contains("option --live belongs to experiment new and run"), misplaced.toString());
	}

	@Test
	void liveRefusesWhatTheEngineCannotRun() throws Exception {
		Path trace = copy("ptx-driver.phos");
		CliRun r = onHostDevice("experiment", "new", trace.toString(), "restore", "--policy",
				"stop-the-world-restore", "--live");
		assertEquals(ExitCode.USAGE, r.exit(), r.toString());
		assertTrue(r.err().contains("the live engine runs stop-the-world, soft-cow, soft-recopy, repeated and "
				+ "on-demand-restore, not stop-the-world-restore"), r.toString());
		assertFalse(Files.exists(ExperimentStore.of(trace).folder("restore")), "nothing saved");
	}

	@Test
	@Tag("gpu")
	void runsAnExperimentLiveOnTheGpuAndOpensItFromItsFiles() throws Exception {
		Path trace = copy("pytorch-train.phos");
		CliRun r = CliRun.of("experiment", "new", trace.toString(), "live-gpu", "--policy",
				"stop-the-world;soft-cow:chunk=4MiB", "--at", "launch:300", "--live");
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		System.out.println(r.out());
		ExperimentStore store = ExperimentStore.of(trace);
		SavedExperiment saved = store.get("live-gpu");
		assertEquals(SavedExperiment.State.READY, saved.state(), String.valueOf(saved.problem()));
		assertNotNull(saved.live());
		assertTrue(saved.live().device().contains("NVIDIA"), saved.live().device());
		ExperimentResult opened = store.open("live-gpu");
		assertEquals(4, opened.runs().size());
		assertTrue(opened.runs().get(0).metrics().stallTotalNs() > 0, "stop-the-world stalls on the GPU");
		assertTrue(opened.runs().get(2).metrics().checkpoints().get(0).completedNs() > 0, "soft-cow completed");
		CliRun list = CliRun.of("experiment", "list", trace.toString());
		System.out.println(list.out());
		assertTrue(list.out().contains("live, " + saved.live().device()), list.out());
		CliRun show = CliRun.of("experiment", "show", saved.folder().toString());
		System.out.println(show.out());
		assertEquals(ExitCode.OK, show.exit(), show.toString());
	}
}
