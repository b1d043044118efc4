package org.phos.workbench.cli.simulate;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cli.CliRun;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.UsageException;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CrPolicies;
import org.phos.workbench.live.LiveCrEngine;
import org.phos.workbench.live.LiveDevice;
import org.phos.workbench.live.LiveDevices;
import org.phos.workbench.live.ReplayException;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.analysis.core.experiment.ExperimentStore;
import org.phos.workbench.analysis.core.experiment.SavedExperiment;
import org.phos.workbench.internal.live.HostLiveDevice;

/** {@code live}: the policy mapping, the refusal without a GPU, and (tag {@code gpu}) a run on the GPU. */
class LiveCommandTest {

	@TempDir
	Path dir;

	private static Path sample(String name) {
		return Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
	}

	private static boolean gpuPresent() {
		try (LiveDevice d = LiveDevices.gpu()) {
			return true;
		} catch (ReplayException | LinkageError e) {
			return false;
		}
	}

	@Test
	void mapsSimulatePoliciesOntoTheLiveEngine() throws Exception {
		CheckpointInstant at = CheckpointInstant.atLaunch(7);
		LiveCrEngine.Options soft = LiveCommand.liveOptions(
				CrPolicies.parse("soft-cow:at=launch:7,chunk=1MiB,budget=2GiB"), at, 3);
		assertEquals(LiveCrEngine.Mode.SOFT_COW, soft.mode());
		assertEquals(at, soft.at());
		assertEquals(1L << 20, soft.chunkBytes());
		assertEquals(2L << 30, soft.budgetBytes());
		assertEquals(3, soft.window());
		assertTrue(soft.validate());
		assertEquals(1L << 30, LiveCommand.liveOptions(CrPolicies.parse("soft-cow:at=launch:7"), at, 4).chunkBytes(),
				"whole buffers: copied in blocks of the image");
		LiveCrEngine.Options stw = LiveCommand.liveOptions(CrPolicies.parse("stop-the-world:at=launch:7"), at, 4);
		assertEquals(LiveCrEngine.Mode.STOP_THE_WORLD, stw.mode());
		assertEquals(at, stw.at());
		LiveCrEngine.Options restore = LiveCommand.liveOptions(CrPolicies.parse("on-demand-restore:at=launch:7"), at, 2);
		assertEquals(LiveCrEngine.Mode.ON_DEMAND_RESTORE, restore.mode());
		assertEquals(at, restore.at());
		assertEquals(2, restore.window());
		LiveCrEngine.Options recopy = LiveCommand.liveOptions(
				CrPolicies.parse("soft-recopy:at=launch:7,chunk=2MiB,budget=1GiB"), at, 5);
		assertEquals(LiveCrEngine.Mode.SOFT_RECOPY, recopy.mode());
		assertEquals(2L << 20, recopy.chunkBytes());
		assertEquals(1L << 30, recopy.budgetBytes());
		assertEquals(5, recopy.window());
		LiveCrEngine.Options repeated = LiveCommand.liveOptions(
				CrPolicies.parse("repeated:at=launch:7,interval=250ms"), at, 4);
		assertEquals(LiveCrEngine.Mode.REPEATED, repeated.mode());
		assertEquals(250_000_000L, repeated.intervalNs());
		assertEquals(at, repeated.at());
		UsageException e = assertThrows(UsageException.class,
				() -> LiveCommand.liveOptions(CrPolicies.parse("stop-the-world-restore"), at, 4));
		assertTrue(e.getMessage().contains("soft-recopy, repeated and on-demand-restore, not stop-the-world-restore"),
				e.getMessage());
	}

	@Test
	void refusesOtherPoliciesWithAUsageError() {
		CliRun r = CliRun.of("live", sample("ptx-driver.phos").toString(), "--policy", "stop-the-world-restore", "--out",
				dir.resolve("o").toString());
		assertEquals(ExitCode.USAGE, r.exit(), r.toString());
		assertTrue(r.err().contains("the live engine runs stop-the-world, soft-cow, soft-recopy, repeated and "
				+ "on-demand-restore, not"), r.toString());
	}

	@Test
	void withoutAGpuSaysSoAndWritesNothing() throws Exception {
		Assumptions.assumeFalse(gpuPresent(), "a GPU is present: the gpu-tagged test runs instead");
		Path out = dir.resolve("o");
		CliRun r = CliRun.of("live", sample("ptx-driver.phos").toString(), "--policy", "soft-cow", "--out",
				out.toString());
		assertEquals(ExitCode.FAILURE, r.exit(), r.toString());
		assertTrue(r.err().contains("live needs a CUDA GPU and driver on this machine"), r.toString());
		assertFalse(Files.exists(out.resolve("manifest.json")));
		assertFalse(Files.exists(out.resolve("metrics.csv")));
	}

	// i13-live2: begin
	@Test
	void savesALiveRunAsAnExperimentThatOpensWithoutTheDevice() throws Exception {
		// a live-shaped result: `workbench live` on the host-memory device (the engine's fake GPU), saved beside a
		// copy of the trace, then opened from its files with no device at all
		Path trace = dir.resolve("ptx-driver.phos");
		Files.copy(sample("ptx-driver.phos"), trace);
		Path out = dir.resolve("live-out");
		LiveCommand.DeviceOpener was = LiveCommand.devices;
		LiveCommand.devices = () -> new HostLiveDevice(11);
		CliRun r;
		try {
			r = CliRun.of("live", trace.toString(), "--policy", "soft-recopy", "--at", "launch:6", "--out",
					out.toString(), "--save-as", "recopy-host");
		} finally {
			LiveCommand.devices = was;
		}
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().contains("live baseline (same replay, no checkpoint): application end"), r.out());
		assertTrue(r.out().contains("saved experiment recopy-host"), r.out());
		ExperimentStore store = ExperimentStore.of(trace);
		SavedExperiment saved = store.get("recopy-host");
		assertEquals(SavedExperiment.State.READY, saved.state(), String.valueOf(saved.problem()));
		assertEquals("host memory (random interleaving)", store.liveDevice("recopy-host"));
		ExperimentResult opened = store.open("recopy-host");
		assertEquals(java.util.List.of("live soft-recopy", "simulated soft-recopy"),
				opened.runs().stream().map(CrRun::name).toList());
		var live = opened.runs().get(0).metrics();
		assertEquals("soft-recopy", live.policy());
		assertEquals("live: host memory (random interleaving)", live.machine());
		assertTrue(live.baselineEndNs() > 0, "the live baseline is kept: " + live.baselineEndNs());
		assertEquals(1, live.checkpoints().size());
		assertFalse(opened.runs().get(0).timeline().lanes().isEmpty(), "the live timeline is kept");
		// the metrics.csv of the run and of the saved experiment are the same file
		assertEquals(Files.readString(out.resolve("metrics.csv")),
				Files.readString(saved.folder().resolve(ExperimentStore.OUTPUTS).resolve("metrics.csv")));
		String manifest = Files.readString(saved.folder().resolve(ExperimentStore.OUTPUTS).resolve("manifest.json"));
		assertTrue(manifest.contains("\"device\"") && manifest.contains("host memory"), manifest);

		CliRun show = CliRun.of("experiment", "show", saved.folder().toString());
		assertEquals(ExitCode.OK, show.exit(), show.toString());
		assertTrue(show.out().contains("run live on host memory (random interleaving)"), show.out());
		assertTrue(show.out().contains("live soft-recopy"), show.out());
		CliRun rerun = CliRun.of("experiment", "run", saved.folder().toString());
		assertEquals(ExitCode.FAILURE, rerun.exit(), rerun.toString());
		assertTrue(rerun.err().contains("was run live on host memory (random interleaving)"), rerun.toString());
		CliRun again = CliRun.of("live", trace.toString(), "--policy", "soft-cow", "--out", dir.resolve("o2").toString(),
				"--save-as", "recopy-host");
		assertEquals(ExitCode.USAGE, again.exit(), again.toString());
		assertTrue(again.err().contains("option --save-as"), again.toString());
	}
	// i13-live2: end

	@Test
	@Tag("gpu")
	void runsLiveBesideTheSimulation() throws Exception {
		Path out = dir.resolve("o");
		CliRun r = CliRun.of("live", sample("pytorch-train.phos").toString(), "--policy", "soft-cow:chunk=4MiB",
				"--at", "launch:300", "--out", out.toString());
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		for (String f : new String[] { "timeline-live.json", "timeline-simulated.json", "intervals-live.csv",
				"metrics.csv", "comparison.png", "manifest.json" }) {
			assertTrue(Files.size(out.resolve(f)) > 0, f);
		}
		assertTrue(Files.readString(out.resolve("metrics.csv")).contains("live soft-cow"));
	}
}
