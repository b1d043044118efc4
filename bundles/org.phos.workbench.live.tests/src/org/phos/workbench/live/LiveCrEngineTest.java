package org.phos.workbench.live;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.live.HostLiveDevice;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.cr.core.TimelineSink;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.internal.live.JCudaExecutor;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * The live C/R engine against {@link HostLiveDevice} (host memory, streams run late in a random interleaving):
 * surrogate planning, concurrent images bitwise equal to the stop-the-world image of the same instant over randomized
 * runs, a planted mis-speculation caught (and, with validation off, shown to spoil the image), the timeline. Tagged
 * {@code gpu}: the same randomized check on the real GPU.
 */
class LiveCrEngineTest {

	@TempDir
	static Path dir;

	private static Path repo() {
		return Path.of(System.getProperty("phos.repo", "."));
	}

	private static LiveChecks.Subject sample(String name) throws Exception {
		Trace t = TraceReader.read(repo().resolve("sample-traces/" + name), null).trace();
		return new LiveChecks.Subject(name, t, TraceWorkload.withBestAvailableSets(t, name));
	}

	/** Small generated traces (a few MB to a few tens of MB live), with synthetic observed accesses. */
	static LiveChecks.Subject generated(long seed, int allocations, int observedEvery) throws Exception {
		Path f = dir.resolve("gen-" + seed + "-" + allocations + "-" + observedEvery + ".phos");
		SyntheticTraceGenerator.generate(f, SyntheticTraceOptions.defaults(300).withLiveAllocations(allocations)
				.withObservedEvery(observedEvery).withSeed(seed), null);
		Trace t = TraceReader.read(f, null).trace();
		return new LiveChecks.Subject(f.getFileName().toString(), t, TraceWorkload.withBestAvailableSets(t, "gen"));
	}

	private static List<LiveChecks.Subject> subjects() throws Exception {
		return List.of(generated(1, 6, 1), generated(3, 12, 1), generated(6, 6, 1), generated(3, 12, 0),
				sample("ptx-driver.phos"), sample("jcuda-jacobi.phos"));
	}

	@Test
	void plansSurrogatesWhereCodeCannotRun() throws Exception {
		LiveChecks.Subject ptx = sample("ptx-driver.phos");
		LaunchPlanner p = new LaunchPlanner(ptx.trace(), 90);
		int real = 0;
		for (Iterator<Operation> it = ptx.workload().operations(); it.hasNext();) {
			Operation op = it.next();
			if (op.kind() == OperationKind.LAUNCH) {
				LaunchPlan plan = p.plan(op);
				assertFalse(plan.surrogate(), plan.reason());
				real++;
			}
		}
		assertTrue(real > 0);

		LiveChecks.Subject torch = sample("pytorch-train.phos");
		LaunchPlanner tp = new LaunchPlanner(torch.trace(), 90);
		int surrogates = 0;
		int observed = 0;
		for (Iterator<Operation> it = torch.workload().operations(); it.hasNext();) {
			Operation op = it.next();
			if (op.kind() == OperationKind.LAUNCH) {
				LaunchPlan plan = tp.plan(op);
				if (plan.surrogate()) {
					surrogates++;
					assertFalse(plan.reason().isEmpty());
					assertTrue(op.gpuDurationNs() < 0 || plan.durationNs() == op.gpuDurationNs());
					if (plan.writesSource().equals("observed")) {
						assertEquals(op.observedWrites(), plan.writes());
						observed++;
					}
				}
			}
		}
		assertTrue(surrogates > 100, "PyTorch's kernels (cubins, images not kept) run as surrogates: " + surrogates);
		assertTrue(observed > 0, "the sample carries observed accesses: surrogates write those");

		LiveChecks.Subject gen = generated(3, 12, 0);
		LaunchPlanner gp = new LaunchPlanner(gen.trace(), 90);
		for (Iterator<Operation> it = gen.workload().operations(); it.hasNext();) {
			Operation op = it.next();
			if (op.kind() == OperationKind.LAUNCH) {
				LaunchPlan plan = gp.plan(op);
				assertTrue(plan.surrogate());
				assertEquals("speculated", plan.writesSource(), "no observed accesses: the speculated writes");
				assertEquals(op.writes(), plan.writes());
			}
		}
	}

	@Test
	void concurrentImagesEqualStopTheWorldImagesOverRandomizedRuns() throws Exception {
		List<LiveChecks.Subject> subjects = subjects();
		List<LiveChecks.Outcome> outcomes = new ArrayList<>();
		Map<LiveCrEngine.Mode, Integer> modes = new HashMap<>();
		long cows = 0;
		long fallbacks = 0;
		for (long seed = 1; seed <= 20; seed++) {
			try (HostLiveDevice d = new HostLiveDevice(seed)) {
				LiveChecks.Outcome o = LiveChecks.randomized(seed, subjects, d, false);
				outcomes.add(o);
				modes.merge(o.options().mode(), 1, Integer::sum);
				cows += o.cowCount();
				fallbacks += o.budgetFallbacks();
			}
		}
		List<String> failed = LiveChecks.failures(outcomes).stream().map(LiveChecks.Outcome::line).toList();
		assertEquals(List.of(), failed);
		assertEquals(2, modes.size(), "both policies drawn: " + modes);
		assertTrue(cows > 0, "copy-on-write happened in some runs");
		assertTrue(fallbacks > 0, "budget fallbacks happened in some runs");
		assertTrue(outcomes.stream().anyMatch(o -> o.surrogates() > 0 && o.imageBytes() > 1_000_000));
	}

	@Test
	void concurrentImagesEqualTheImageOfASecondReplayStoppedAtTheInstant() throws Exception {
		List<LiveChecks.Subject> subjects = List.of(generated(1, 6, 1), generated(6, 6, 1), generated(3, 12, 0),
				sample("ptx-driver.phos"));
		int relocated = 0;
		for (long seed = 300; seed < 308; seed++) {
			try (HostLiveDevice d = new HostLiveDevice(seed)) {
				LiveChecks.Outcome o = LiveChecks.randomized(seed, subjects, d, seed % 4 == 0, true);
				assertTrue(o.equal(), o.line());
				assertTrue(o.reference().startsWith("second replay"), o.line());
				if (o.reference().matches(".* [1-9][0-9]* pointer words equal up to placement.*")) {
					relocated++;
				}
			}
		}
		assertTrue(relocated > 0, "some images hold relocated pointer words, compared up to placement");
	}

	@Test
	void anOnDemandRestoreReadsBackWhatTheUninterruptedRunReads() throws Exception {
		List<LiveChecks.Subject> subjects = List.of(generated(1, 6, 1), generated(6, 6, 1),
				sample("jcuda-jacobi.phos"), sample("ptx-driver.phos"));
		int compared = 0;
		for (long seed = 400; seed < 410; seed++) {
			try (HostLiveDevice d = new HostLiveDevice(seed)) {
				LiveChecks.Outcome o = LiveChecks.restoreCheck(seed, subjects, d);
				if (o.comparable()) {
					assertTrue(o.equal(), o.line());
					compared++;
				}
			}
		}
		assertTrue(compared >= 3, "restored runs that read device memory back after the instant: " + compared);
	}

	@Test
	void readBacksDifferUnlessOnlyRelocatedPointersDiffer() {
		var mine = List.of(new LiveRunResult.Placement(1, 0x1000, 256));
		var theirs = List.of(new LiveRunResult.Placement(1, 0x9000, 256));
		byte[] a = new byte[32];
		byte[] b = new byte[32];
		java.nio.ByteBuffer.wrap(a).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(8, 0x1010);
		java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(8, 0x9010);
		var ra = List.of(new LiveRunResult.ReadBack(7, 2, 0, a));
		var rb = List.of(new LiveRunResult.ReadBack(7, 2, 0, b));
		assertNull(LiveChecks.readBacksDiffer(ra, rb, new LiveImage.Relocation(mine, theirs)),
				"the same byte of buffer 1 in each replay");
		b[8] = 0x18; // 0x9018: another byte of buffer 1
		assertEquals("copy 0 (op 7, buffer 2) differs at byte 8",
				LiveChecks.readBacksDiffer(ra, rb, new LiveImage.Relocation(mine, theirs)));
		b[8] = 0x10;
		b[20] = 1;
		assertEquals("copy 0 (op 7, buffer 2) differs at byte 20",
				LiveChecks.readBacksDiffer(ra, rb, new LiveImage.Relocation(mine, theirs)));
	}

	@Test
	void plantedMisSpeculationIsCaughtAndTheImageStaysRight() throws Exception {
		List<LiveChecks.Subject> subjects = List.of(generated(1, 6, 1), generated(6, 6, 1), generated(3, 12, 0));
		int caught = 0;
		for (long seed = 100; seed < 110; seed++) {
			try (HostLiveDevice d = new HostLiveDevice(seed)) {
				LiveChecks.Outcome o = LiveChecks.randomized(seed, subjects, d, true);
				assertTrue(o.equal(), o.line());
				assertTrue(o.planted() >= 0, o.line());
				caught += o.validationFallbacks();
			}
		}
		assertTrue(caught >= 5, "mis-speculations caught by validation: " + caught);
	}

	@Test
	void withoutValidationAMisSpeculationSpoilsTheImage() throws Exception {
		// the negative control: the same planted runs with validation off must be caught by the image comparison
		LiveChecks.Subject s = generated(1, 6, 1);
		int spoiled = 0;
		int spoiledSecond = 0;
		for (long seed = 200; seed < 206; seed++) {
			long at = 20 + seed % 50;
			var live = LiveCrEngine.liveAt(s.workload(), CheckpointInstant.atLaunch(at)).keySet();
			long planted = MisSpeculation.firstWritingLaunch(s.workload(), at, live);
			assertTrue(planted >= 0);
			LiveCrEngine.Options o = LiveCrEngine.Options.of(LiveCrEngine.Mode.SOFT_COW, CheckpointInstant.atLaunch(at))
					.withChunk(64 << 10).withWindow(1);
			try (HostLiveDevice d = new HostLiveDevice(seed)) {
				var w = new MisSpeculation(s.workload(), planted);
				LiveChecks.Outcome on = LiveChecks.check(seed, s, w, d, o, planted);
				assertTrue(on.equal(), on.line());
				LiveChecks.Outcome off = LiveChecks.check(seed, s, w, d, o.withValidate(false), planted);
				if (!off.equal()) {
					spoiled++;
				}
				// against a second replay (other placement, pointer words compared up to it) as well
				LiveChecks.Outcome off2 = LiveChecks.checkAgainstSecondReplay(seed, s, w, d, o.withValidate(false),
						planted);
				if (!off2.equal()) {
					spoiledSecond++;
				}
			}
		}
		assertTrue(spoiled >= 3, "without validation the planted write lands in the image: " + spoiled + " of 6");
		assertTrue(spoiledSecond >= 3, "and the second replay's image shows it: " + spoiledSecond + " of 6");
	}

	// i13-cow: begin
	@Test
	void autoBudgetIsTheFreeDeviceMemoryAtTheInstantLessTheHeadroom() throws Exception {
		LiveChecks.Subject s = generated(3, 12, 1);
		LiveCrEngine.Options o = LiveCrEngine.Options.of(LiveCrEngine.Mode.SOFT_COW, CheckpointInstant.atLaunch(100))
				.withChunk(64 << 10).withBudget(SoftCheckpointOptions.AUTO_BUDGET);
		// plenty of memory: every first write is a copy-on-write copy, none falls back
		try (HostLiveDevice d = new HostLiveDevice(11).withMemory(SoftCheckpointOptions.AUTO_BUDGET_HEADROOM
				+ (1L << 30))) {
			LiveRunResult r = LiveCrEngine.run(s.trace(), s.workload(), d, o, TimelineSink.NONE);
			try {
				List<String> notes = r.notes().stream().filter(n -> n.contains("budget auto")).toList();
				assertEquals(1, notes.size(), r.notes().toString());
				assertTrue(notes.get(0).endsWith("less 2 GiB headroom)"), notes.get(0));
				var c = r.metrics().checkpoints().get(0);
				assertTrue(c.cowCount() > 0, "copies on write: " + c);
				assertEquals(0, c.fallbackCount(), "the budget holds every copy: " + c);
			} finally {
				r.close();
			}
			LiveChecks.Outcome check = LiveChecks.check(11, s, s.workload(), d, o, -1);
			assertTrue(check.equal(), check.line());
		}
		// less free memory than the headroom: budget 0, every first write falls back, the image still right
		try (HostLiveDevice d = new HostLiveDevice(12).withMemory(1 << 20)) {
			LiveChecks.Outcome check = LiveChecks.check(12, s, s.workload(), d, o, -1);
			assertTrue(check.equal(), check.line());
			assertEquals(0, check.cowCount());
			assertTrue(check.budgetFallbacks() > 0, check.line());
		}
	}
	// i13-cow: end

	@Test
	void imageComparisonFindsOneFlippedByte() throws Exception {
		try (HostLiveDevice d = new HostLiveDevice(1)) {
			long a = d.allocate(10_000);
			d.fill(a, 7, 1, 10_000, 0);
			LiveImage x = new LiveImage(d, Map.of(3, 10_000L));
			LiveImage y = new LiveImage(d, Map.of(3, 10_000L));
			x.copyIn(3, 0, a, 10_000, 0);
			y.copyIn(3, 0, a, 10_000, 0);
			d.synchronize();
			assertNull(x.firstDifference(y));
			d.fill(a + 9_999, 8, 1, 1, 0);
			y.copyIn(3, 9_000, a + 9_000, 1_000, 0);
			d.synchronize();
			assertEquals("buffer 3 differs at byte 9999 of 10000", x.firstDifference(y));
		}
	}

	@Test
	void reportsIntoTheSimulatorsTimelineModel() throws Exception {
		LiveChecks.Subject s = generated(1, 6, 1);
		for (LiveCrEngine.Mode mode : new LiveCrEngine.Mode[] { LiveCrEngine.Mode.STOP_THE_WORLD,
				LiveCrEngine.Mode.SOFT_COW }) {
			TimelineModel t = new TimelineModel(true);
			try (HostLiveDevice d = new HostLiveDevice(5)) {
				LiveRunResult r = LiveCrEngine.run(s.trace(), s.workload(), d,
						LiveCrEngine.Options.of(mode, CheckpointInstant.atLaunch(150)).withChunk(1 << 20), t);
				try {
					var m = r.metrics();
					assertEquals(mode.policyName(), m.policy());
					assertEquals(1, m.checkpoints().size());
					long bytes = r.image().bytes();
					assertEquals(bytes, m.checkpoints().get(0).snapshotBytes());
					assertTrue(m.checkpoints().get(0).completedNs() >= m.checkpoints().get(0).drainedNs());
					assertTrue(r.surrogateLaunches() > 0);
					assertTrue(t.intervals(Lane.CR_COMMIT_D2H).size() > 0);
					assertTrue(t.stalls().stream().anyMatch(x -> x.cause() == (mode == LiveCrEngine.Mode.SOFT_COW
							? StallCause.DRAIN : StallCause.STOP_THE_WORLD)));
					long stall = t.stalls().stream().filter(StallInterval::isHostStall)
							.mapToLong(StallInterval::durationNs).sum();
					assertEquals(m.stallTotalNs(), stall);
					for (var lane : t.lanes()) {
						List<TimelineInterval> iv = t.intervals(lane.id());
						for (int i = 1; i < iv.size(); i++) {
							assertTrue(iv.get(i).startNs() >= iv.get(i - 1).endNs(),
									"intervals of lane " + lane.name() + " overlap: " + iv.get(i - 1) + " " + iv.get(i));
						}
					}
					assertTrue(t.intervals(Lane.FIRST_STREAM).size() + t.intervals(Lane.FIRST_STREAM + 1).size() > 0,
							"application intervals on stream lanes");
					if (mode == LiveCrEngine.Mode.STOP_THE_WORLD) {
						assertEquals(bytes, m.bytesPerLane().get("C/R commit D2H"));
					}
				} finally {
					r.close();
				}
			}
		}
	}

	@Test
	@Tag("gpu")
	void concurrentImagesEqualOnTheGpu() throws Exception {
		List<LiveChecks.Subject> subjects = subjects();
		try (JCudaExecutor gpu = new JCudaExecutor()) {
			assertNull(LiveChecks.surrogateSelfTest(gpu, (1 << 20) + 13, 42, 7));
			List<LiveChecks.Outcome> outcomes = new ArrayList<>();
			for (long seed = 1; seed <= 20; seed++) {
				outcomes.add(LiveChecks.randomized(seed, subjects, gpu, seed % 5 == 0));
			}
			assertEquals(List.of(), LiveChecks.failures(outcomes).stream().map(LiveChecks.Outcome::line).toList());
		}
	}
}
