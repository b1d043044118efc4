package org.phos.workbench.live;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.phos.workbench.internal.live.HostLiveDevice;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CheckpointSummary;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.TimelineModel;

/**
 * Soft recopy and repeated checkpoints live, against {@link HostLiveDevice}: every image equals the stop-the-world
 * image of its own instant (the recopy's stop, each repeated checkpoint's drain; for recopy also a second replay
 * stopped at the same launch), a planted mis-speculation is caught, and without validation the comparison fails.
 */
class LiveRecopyAndRepeatedTest {

	@TempDir
	static Path dir;

	static LiveChecks.Subject generated(long seed, int allocations, int observedEvery) throws Exception {
		Path f = dir.resolve("gen-" + seed + "-" + allocations + "-" + observedEvery + ".phos");
		if (!Files.exists(f)) {
			SyntheticTraceGenerator.generate(f, SyntheticTraceOptions.defaults(300).withLiveAllocations(allocations)
					.withObservedEvery(observedEvery).withSeed(seed), null);
		}
		Trace t = TraceReader.read(f, null).trace();
		return new LiveChecks.Subject(f.getFileName().toString(), t, TraceWorkload.withBestAvailableSets(t, "gen"));
	}

	private static List<LiveChecks.Subject> subjects() throws Exception {
		return List.of(generated(1, 6, 1), generated(3, 12, 1),
				generated(6, 6, 1), generated(3, 12, 0));
	}

	@Test
	void recopyAndRepeatedImagesEqualStopTheWorldImagesOverRandomizedRuns() throws Exception {
		List<LiveChecks.Subject> subjects = subjects();
		List<LiveChecks.Outcome> outcomes = new ArrayList<>();
		Map<LiveCrEngine.Mode, Integer> modes = new HashMap<>();
		int caught = 0;
		int planted = 0;
		int severalCheckpoints = 0;
		for (long seed = 500; seed < 516; seed++) {
			try (HostLiveDevice d = new HostLiveDevice(seed)) {
				boolean plant = seed % 4 == 0;
				LiveChecks.Outcome o = LiveChecks.randomizedLatest(seed, subjects, d, plant, false);
				outcomes.add(o);
				modes.merge(o.options().mode(), 1, Integer::sum);
				if (o.planted() >= 0) {
					planted++;
					caught += o.validationFallbacks() > 0 ? 1 : 0;
				}
				if (o.reference().contains("checkpoint 1")) {
					severalCheckpoints++;
				}
			}
		}
		assertEquals(List.of(), LiveChecks.failures(outcomes).stream().map(LiveChecks.Outcome::line).toList());
		assertEquals(2, modes.size(), "both policies drawn: " + modes);
		assertTrue(planted >= 3 && caught >= 2, "planted " + planted + ", caught " + caught);
		assertTrue(severalCheckpoints > 0, "some repeated runs took more than one checkpoint");
	}

	@Test
	void recopyImageEqualsASecondReplayStoppedWhereTheRecopyStopped() throws Exception {
		List<LiveChecks.Subject> subjects = subjects();
		for (long seed = 600; seed < 606; seed++) {
			try (HostLiveDevice d = new HostLiveDevice(seed)) {
				LiveChecks.Outcome o = LiveChecks.randomizedLatest(seed, subjects, d, seed % 3 == 0, true);
				assertTrue(o.equal(), o.line());
				assertTrue(o.reference().startsWith("second replay stopped at launch"), o.line());
			}
		}
	}

	@Test
	void recopyRecopiesTheDirtyBuffersAtTheStop() throws Exception {
		LiveChecks.Subject s = generated(1, 6, 1);
		TimelineModel t = new TimelineModel(true);
		try (HostLiveDevice d = new HostLiveDevice(9)) {
			LiveRunResult r = LiveCrEngine.run(s.trace(), s.workload(), d,
					LiveCrEngine.Options.of(LiveCrEngine.Mode.SOFT_RECOPY, CheckpointInstant.atLaunch(100))
							.withChunk(64 << 10).withReference(true),
					t);
			try {
				assertEquals("soft-recopy", r.metrics().policy());
				assertEquals(1, r.rounds().size());
				LiveRunResult.Round round = r.rounds().get(0);
				assertTrue(round.launches() > 100, "the stop comes after the pre-copy: " + round.launches());
				CheckpointSummary c = r.metrics().checkpoints().get(0);
				assertTrue(c.recopyBytes() > 0, "the generated workload writes buffers after the instant");
				assertEquals(c.recopyBytes(), c.dirtyBytes());
				assertNull(round.image().firstDifference(round.reference()));
				assertTrue(t.stalls().stream().anyMatch(x -> x.cause() == StallCause.RECOPY));
				assertTrue(t.markers().stream().anyMatch(m -> m.label().contains("stop for recopy")));
			} finally {
				r.close();
			}
		}
	}

	@Test
	void repeatedCheckpointsTakeOneImagePerInterval() throws Exception {
		LiveChecks.Subject s = generated(3, 12, 1);
		long span = LiveChecks.span(s.workload());
		try (HostLiveDevice d = new HostLiveDevice(4)) {
			LiveRunResult r = LiveCrEngine.run(s.trace(), s.workload(), d,
					LiveCrEngine.Options.of(LiveCrEngine.Mode.REPEATED, CheckpointInstant.atLaunch(10))
							.withChunk(1 << 20).withInterval(span / 5).withReference(true),
					new TimelineModel(true));
			try {
				assertTrue(r.rounds().size() >= 2, "checkpoints taken: " + r.rounds().size());
				assertEquals(r.rounds().size(), r.metrics().checkpoints().size());
				for (int i = 0; i < r.rounds().size(); i++) {
					LiveRunResult.Round round = r.rounds().get(i);
					assertEquals(i, round.number());
					assertEquals(i, r.metrics().checkpoints().get(i).number());
					assertNull(round.image().firstDifference(round.reference()), "checkpoint " + i);
					if (i > 0) {
						assertTrue(round.launches() > r.rounds().get(i - 1).launches());
					}
				}
			} finally {
				r.close();
			}
		}
	}

	@Test
	void withoutValidationAMissedWriteSpoilsTheRecopyImage() throws Exception {
		// the negative control: a write the sets miss, to a buffer the pre-copy already took, after which no launch
		// writes it inside the sets; validation marks it dirty, and without validation the image keeps it stale
		LiveChecks.Subject s = generated(1, 6, 1);
		int spoiled = 0;
		int runs = 0;
		for (long seed = 700; seed < 706; seed++) {
			long at = 20 + seed % 50;
			LiveCrEngine.Options o = LiveCrEngine.Options.of(LiveCrEngine.Mode.SOFT_RECOPY,
					CheckpointInstant.atLaunch(at)).withChunk(64 << 10).withWindow(1);
			long stop;
			try (HostLiveDevice d = new HostLiveDevice(seed)) {
				LiveRunResult plain = LiveCrEngine.run(s.trace(), s.workload(), d, o, new TimelineModel(false));
				stop = plain.rounds().get(0).launches();
				plain.close();
			}
			var live = LiveCrEngine.liveAt(s.workload(), CheckpointInstant.atLaunch(at)).keySet();
			// the last launch before the stop that is the first, since the instant, to write a buffer of the image
			long planted = -1;
			java.util.Set<Integer> written = new java.util.HashSet<>();
			long n = 0;
			for (var it = s.workload().operations(); it.hasNext();) {
				var op = it.next();
				boolean launch = op.kind() == org.phos.workbench.cr.core.OperationKind.LAUNCH;
				if (n >= at && n < stop && !op.writes().isEmpty()) {
					int b = op.writes().get(0).buffer();
					if (launch && live.contains(b) && !written.contains(b)) {
						planted = n;
					}
					op.writes().forEach(r -> written.add(r.buffer()));
				}
				if (launch) {
					n++;
				}
			}
			if (planted < 0) {
				continue;
			}
			runs++;
			try (HostLiveDevice d = new HostLiveDevice(seed)) {
				var w = new MisSpeculation(s.workload(), planted, true);
				LiveChecks.Outcome on = LiveChecks.check(seed, s, w, d, o, planted);
				assertTrue(on.equal(), on.line());
				LiveChecks.Outcome off = LiveChecks.check(seed, s, w, d, o.withValidate(false), planted);
				if (!off.equal()) {
					spoiled++;
				}
			}
		}
		assertTrue(runs >= 4, "runs with a launch between instant and stop: " + runs);
		assertTrue(spoiled >= 2, "without validation the missed write leaves a stale buffer: " + spoiled + " of " + runs);
	}
}
