package org.phos.workbench.live;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationWorkload;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.cr.core.TimelineSink;
import org.phos.workbench.trace.core.Trace;

/**
 * The correctness checks of live checkpoints, the same on a GPU ({@code LiveMain}, the {@code gpu}-tagged test) and
 * on the tests' host-memory device: a run's concurrent image must equal, bitwise, the stop-the-world image of the
 * same instant (taken in the same replay when the device is drained at the instant, before the engine starts, so
 * that both images hold the same device addresses in relocated pointer words).
 */
public final class LiveChecks {
	private LiveChecks() {
	}

	/** A trace to check with, and its workload (the sets). */
	public record Subject(String name, Trace trace, SimulationWorkload workload) {
	}

	/**
	 * One randomized run's outcome.
	 *
	 * @param seed the run's seed (it chose everything below)
	 * @param trace the subject's name
	 * @param options the engine's options
	 * @param planted launch number whose speculated writes lost a buffer, or -1
	 * @param difference the first difference of image and reference, null when bitwise equal
	 * @param reference how the reference was taken: "same replay" (drained at the instant before the engine started)
	 *        or "second replay" (a fresh replay stopped at the instant, stop-the-world)
	 * @param comparable false when a second replay placed buffers at other addresses (relocated pointer words then
	 *        differ by construction): not compared, not counted as equal
	 */
	public record Outcome(long seed, String trace, LiveCrEngine.Options options, long planted, long imageBytes,
			int buffers, int surrogates, int real, int validationFallbacks, long cowCount, long budgetFallbacks,
			long stallNs, @Nullable String difference, String reference, boolean comparable) {

		public boolean equal() {
			return comparable && difference == null;
		}

		/** One line for logs. */
		public String line() {
			return String.format(Locale.ROOT,
					"seed %d %s %s at %s chunk %d budget %d window %d%s: %d buffers %d B, %d surrogate + %d real launches, "
							+ "cow %d, budget fallbacks %d, validation fallbacks %d, stall %.3f ms: %s vs %s",
					seed, trace, options.mode() == LiveCrEngine.Mode.REPEATED
							? "repeated every " + org.phos.workbench.cr.core.Units.formatNs(options.intervalNs())
							: options.mode().policyName(),
					options.at(), options.chunkBytes(), options.budgetBytes(),
					options.window(), planted >= 0 ? ", planted mis-speculation at launch " + planted : "", buffers,
					imageBytes, surrogates, real, cowCount, budgetFallbacks, validationFallbacks, stallNs / 1e6,
					!comparable ? "NOT COMPARED (" + difference + ")"
							: difference == null ? "EQUAL" : "DIFFERENT (" + difference + ")",
					reference);
		}
	}

	/** Launches of a workload. */
	public static long launches(SimulationWorkload w) {
		long n = 0;
		for (Iterator<Operation> it = w.operations(); it.hasNext();) {
			if (it.next().kind() == OperationKind.LAUNCH) {
				n++;
			}
		}
		return n;
	}

	/**
	 * One randomized run: the seed picks the subject, the instant (a launch), the policy (stop-the-world or soft
	 * copy-on-write), chunk size, copy-on-write budget (none, small or 14 GiB) and copier window; with
	 * {@code plant} the first writing launch at or after the instant loses a buffer from its speculated writes
	 * (and the copier keeps one chunk in flight). A planted write to a buffer the copier already took is harmless
	 * and not a fallback; the image comparison judges every run.
	 */
	public static Outcome randomized(long seed, List<Subject> subjects, LiveDevice device, boolean plant)
			throws ReplayException {
		return randomized(seed, subjects, device, plant, false);
	}

	/**
	 * As {@link #randomized(long, List, LiveDevice, boolean)}; with {@code secondReplay} the reference is a fresh
	 * replay of the same workload stopped at the instant with a stop-the-world image, run first.
	 */
	public static Outcome randomized(long seed, List<Subject> subjects, LiveDevice device, boolean plant,
			boolean secondReplay) throws ReplayException {
		SplittableRandom r = new SplittableRandom(seed);
		Subject s = subjects.get(r.nextInt(subjects.size()));
		long launches = Math.max(1, launches(s.workload()));
		long at = r.nextLong(launches);
		LiveCrEngine.Mode mode = plant || r.nextBoolean() ? LiveCrEngine.Mode.SOFT_COW
				: LiveCrEngine.Mode.STOP_THE_WORLD;
		long[] chunks = { 64L << 10, 1L << 20, 4L << 20, 64L << 20 };
		long[] budgets = { 0, 1L << 20, 64L << 20, 14L << 30 };
		LiveCrEngine.Options o = LiveCrEngine.Options.of(mode, CheckpointInstant.atLaunch(at))
				.withChunk(chunks[r.nextInt(chunks.length)]).withBudget(budgets[r.nextInt(budgets.length)])
				.withWindow(1 + r.nextInt(8)).withReference(true);
		SimulationWorkload w = s.workload();
		long planted = -1;
		if (plant) {
			// one chunk in flight: the copier has not reached most buffers when the planted launch runs
			o = o.withWindow(1);
			planted = MisSpeculation.firstWritingLaunch(w, at, LiveCrEngine.liveAt(w, o.at()).keySet());
			if (planted >= 0) {
				w = new MisSpeculation(w, planted);
			}
		}
		return secondReplay ? checkAgainstSecondReplay(seed, s, w, device, o, planted)
				: check(seed, s, w, device, o, planted);
	}

	/**
	 * Runs a fresh replay stopped at the instant (stop-the-world image), then the run under test, and compares their
	 * images when both replays placed the image's buffers at the same addresses.
	 */
	public static Outcome checkAgainstSecondReplay(long seed, Subject s, SimulationWorkload w, LiveDevice device,
			LiveCrEngine.Options o, long planted) throws ReplayException {
		LiveCrEngine.Options stop = new LiveCrEngine.Options(LiveCrEngine.Mode.STOP_THE_WORLD, o.at(), 64L << 20, 0,
				1, false, true, true);
		LiveRunResult first = LiveCrEngine.run(s.trace(), w, device, stop, TimelineSink.NONE);
		try {
			LiveRunResult res = LiveCrEngine.run(s.trace(), w, device, o.withReference(false), new TimelineModel(false));
			try {
				LiveImage image = res.image();
				LiveImage ref = first.image();
				var a = first.snapshotAddresses();
				var b = res.snapshotAddresses();
				long moved = a.keySet().stream().filter(k -> !a.get(k).equals(b.get(k))).count();
				boolean comparable = a.keySet().equals(b.keySet());
				// the replays place buffers where the driver puts them: pointer words compare up to that placement
				LiveImage.Relocation relocation = new LiveImage.Relocation(res.placements(), first.placements());
				String diff = !comparable ? "the replays' images hold other buffers"
						: image == null || ref == null ? "no image" : image.firstDifference(ref, relocation);
				String how = "second replay (" + moved + " of " + a.size() + " buffers elsewhere, "
						+ relocation.matched() + " pointer words equal up to placement)";
				var cp = res.metrics().checkpoints();
				long budgetFallbacks = cp.isEmpty() ? 0 : cp.get(0).fallbackCount() - res.validationFallbacks();
				return new Outcome(seed, s.name(), o, planted, image == null ? 0 : image.bytes(),
						image == null ? 0 : image.regions().size(), res.surrogateLaunches(), res.realLaunches(),
						res.validationFallbacks(), res.metrics().cowCount(), budgetFallbacks,
						res.metrics().stallTotalNs(), diff, how, comparable);
			} finally {
				res.close();
			}
		} finally {
			first.close();
		}
	}

	/**
	 * One randomized run of soft recopy or repeated checkpoints (seeded as {@link #randomized}): the seed picks the
	 * subject, the instant, the policy, chunk, budget, window and, for repeated checkpoints, the interval (a fifth to
	 * a half of the subject's recorded span, so that two to five checkpoints run). Every image is compared with the
	 * stop-the-world image of its own instant: for recopy the state at the stop, for repeated checkpoints each
	 * checkpoint's drain; with {@code secondReplay} (recopy only) the reference is a second replay stopped at the
	 * launch where the recopy stopped, run after the run under test. With {@code plant} the first writing launch
	 * after the instant loses a buffer from its speculated writes, and every later launch writing it too
	 * ({@link MisSpeculation#MisSpeculation(SimulationWorkload, long, boolean)}).
	 */
	public static Outcome randomizedLatest(long seed, List<Subject> subjects, LiveDevice device, boolean plant,
			boolean secondReplay) throws ReplayException {
		SplittableRandom r = new SplittableRandom(seed);
		Subject s = subjects.get(r.nextInt(subjects.size()));
		long launches = Math.max(1, launches(s.workload()));
		long at = r.nextLong(launches);
		LiveCrEngine.Mode mode = secondReplay || r.nextBoolean() ? LiveCrEngine.Mode.SOFT_RECOPY
				: LiveCrEngine.Mode.REPEATED;
		long[] chunks = { 64L << 10, 1L << 20, 4L << 20, 64L << 20 };
		long[] budgets = { 0, 1L << 20, 64L << 20, 14L << 30 };
		long span = Math.max(1, span(s.workload()));
		LiveCrEngine.Options o = LiveCrEngine.Options.of(mode, CheckpointInstant.atLaunch(at))
				.withChunk(chunks[r.nextInt(chunks.length)]).withBudget(budgets[r.nextInt(budgets.length)])
				.withWindow(1 + r.nextInt(8)).withInterval(Math.max(1, span / (2 + r.nextInt(4))));
		SimulationWorkload w = s.workload();
		long planted = -1;
		if (plant) {
			o = o.withWindow(1);
			planted = MisSpeculation.firstWritingLaunch(w, at, LiveCrEngine.liveAt(w, o.at()).keySet());
			if (planted >= 0) {
				w = new MisSpeculation(w, planted, true);
			}
		}
		if (!secondReplay) {
			return check(seed, s, w, device, o, planted);
		}
		LiveRunResult res = LiveCrEngine.run(s.trace(), w, device, o.withReference(false), new TimelineModel(false));
		try {
			long stopLaunch = res.rounds().isEmpty() ? -1 : res.rounds().get(0).launches();
			LiveCrEngine.Options stop = new LiveCrEngine.Options(LiveCrEngine.Mode.STOP_THE_WORLD,
					CheckpointInstant.atLaunch(stopLaunch), 64L << 20, 0, 1, false, true, true);
			LiveRunResult first = LiveCrEngine.run(s.trace(), w, device, stop, TimelineSink.NONE);
			try {
				LiveImage image = res.image();
				LiveImage ref = first.image();
				boolean comparable = image != null && ref != null
						&& image.regions().keySet().equals(ref.regions().keySet());
				LiveImage.Relocation relocation = new LiveImage.Relocation(res.placements(), first.placements());
				String diff = !comparable
						? "the replays' images hold other buffers: "
								+ (image == null ? "none" : image.regions().keySet()) + " vs "
								+ (ref == null ? "none" : ref.regions().keySet())
						: image.firstDifference(ref, relocation);
				String how = "second replay stopped at launch " + stopLaunch + " (" + relocation.matched()
						+ " pointer words equal up to placement)";
				return outcome(seed, s, o, planted, res, diff, how, comparable);
			} finally {
				first.close();
			}
		} finally {
			res.close();
		}
	}

	/** The span of recorded host time of a workload's operations. */
	static long span(SimulationWorkload w) {
		long lo = Long.MAX_VALUE;
		long hi = Long.MIN_VALUE;
		for (Iterator<Operation> it = w.operations(); it.hasNext();) {
			long t = it.next().hostTimeNs();
			lo = Math.min(lo, t);
			hi = Math.max(hi, t);
		}
		return hi < lo ? 0 : hi - lo;
	}

	private static Outcome outcome(long seed, Subject s, LiveCrEngine.Options o, long planted, LiveRunResult res,
			@Nullable String diff, String how, boolean comparable) {
		LiveImage image = res.image();
		long bytes = 0;
		int buffers = 0;
		if (res.rounds().isEmpty()) {
			bytes = image == null ? 0 : image.bytes();
			buffers = image == null ? 0 : image.regions().size();
		}
		for (LiveRunResult.Round r : res.rounds()) {
			bytes += r.image().bytes();
			buffers += r.image().regions().size();
		}
		var cp = res.metrics().checkpoints();
		long fallbacks = cp.stream().mapToLong(c -> c.fallbackCount()).sum();
		return new Outcome(seed, s.name(), o, planted, bytes, buffers, res.surrogateLaunches(), res.realLaunches(),
				res.validationFallbacks(), res.metrics().cowCount(), fallbacks - res.validationFallbacks(),
				res.metrics().stallTotalNs(), diff, how, comparable);
	}

	/** Runs once with a reference image and compares. */
	public static Outcome check(long seed, Subject s, SimulationWorkload w, LiveDevice device,
			LiveCrEngine.Options o, long planted) throws ReplayException {
		TimelineModel timeline = new TimelineModel(false);
		LiveRunResult res = LiveCrEngine.run(s.trace(), w, device, o.withReference(true), timeline);
		try {
			if (!res.rounds().isEmpty()) { // recopy and repeated checkpoints: every image against its own reference
				String diff = null;
				StringBuilder how = new StringBuilder("same replay, at its drain:");
				for (LiveRunResult.Round r : res.rounds()) {
					how.append(" checkpoint ").append(r.number()).append(r.opIndex() < 0 ? " at the end"
							: " before launch " + r.launches());
					String d = r.reference() == null ? "no reference" : r.image().firstDifference(r.reference());
					if (d != null && diff == null) {
						diff = "checkpoint " + r.number() + ": " + d;
					}
				}
				return outcome(seed, s, o, planted, res, diff, how.toString(), true);
			}
			LiveImage image = res.image();
			LiveImage ref = res.reference();
			String diff = image == null || ref == null ? "no image" : image.firstDifference(ref);
			var cp = res.metrics().checkpoints();
			long budgetFallbacks = cp.isEmpty() ? 0 : cp.get(0).fallbackCount() - res.validationFallbacks();
			return new Outcome(seed, s.name(), o, planted, image == null ? 0 : image.bytes(),
					image == null ? 0 : image.regions().size(), res.surrogateLaunches(), res.realLaunches(),
					res.validationFallbacks(), res.metrics().cowCount(), budgetFallbacks, res.metrics().stallTotalNs(),
					diff, "same replay", true);
		} finally {
			res.close();
		}
	}

	/**
	 * The restore check: an uninterrupted replay, then a replay restored on demand at a random launch (its image
	 * taken, its buffers destroyed, restored on demand and in the background); every device-to-host copy of the
	 * trace after the instant must read the same bytes in both (pointer words up to the two replays' placements).
	 */
	public static Outcome restoreCheck(long seed, List<Subject> subjects, LiveDevice device) throws ReplayException {
		SplittableRandom r = new SplittableRandom(seed);
		Subject s = subjects.get(r.nextInt(subjects.size()));
		long launches = Math.max(1, launches(s.workload()));
		CheckpointInstant at = CheckpointInstant.atLaunch(r.nextLong(launches));
		long[] chunks = { 64L << 10, 1L << 20, 4L << 20, 64L << 20 };
		LiveCrEngine.Options o = LiveCrEngine.Options.of(LiveCrEngine.Mode.ON_DEMAND_RESTORE, at)
				.withChunk(chunks[r.nextInt(chunks.length)]).withWindow(1 + r.nextInt(8)).withReference(true);
		LiveRunResult plain = LiveCrEngine.run(s.trace(), s.workload(), device,
				LiveCrEngine.Options.of(LiveCrEngine.Mode.NONE, at).withReference(true), TimelineSink.NONE);
		LiveRunResult restored = LiveCrEngine.run(s.trace(), s.workload(), device, o, new TimelineModel(false));
		try {
			LiveImage.Relocation relocation = new LiveImage.Relocation(restored.placements(), plain.placements());
			String diff = restored.readBacks().isEmpty() ? "no device-to-host copy after the instant"
					: readBacksDiffer(restored.readBacks(), plain.readBacks(), relocation);
			var m = restored.metrics();
			return new Outcome(seed, s.name(), o, -1, restored.image() == null ? 0 : restored.image().bytes(),
					restored.image() == null ? 0 : restored.image().regions().size(), restored.surrogateLaunches(),
					restored.realLaunches(), restored.validationFallbacks(), 0, 0, m.stallTotalNs(), diff,
					"uninterrupted run (" + restored.readBacks().size() + " device-to-host copies after the instant, "
							+ relocation.matched() + " pointer words equal up to placement; first kernel "
							+ String.format(Locale.ROOT, "%.3f", m.restoreFirstKernelNs() / 1e6) + " ms, all back "
							+ String.format(Locale.ROOT, "%.3f", m.restoreFullStateNs() / 1e6) + " ms after the "
							+ "restore start)",
					!restored.readBacks().isEmpty()); // nothing read back after the instant: nothing to compare
		} finally {
			plain.close();
			restored.close();
		}
	}

	/** The first difference of two replays' read-backs, or null. */
	static @Nullable String readBacksDiffer(List<LiveRunResult.ReadBack> a, List<LiveRunResult.ReadBack> b,
			LiveImage.Relocation relocation) {
		if (a.size() != b.size()) {
			return a.size() + " vs " + b.size() + " device-to-host copies";
		}
		for (int i = 0; i < a.size(); i++) {
			LiveRunResult.ReadBack x = a.get(i);
			LiveRunResult.ReadBack y = b.get(i);
			if (x.op() != y.op() || x.buffer() != y.buffer() || x.offset() != y.offset()
					|| x.bytes().length != y.bytes().length) {
				return "copy " + i + " is another copy (op " + x.op() + " vs " + y.op() + ")";
			}
			byte[] p = x.bytes();
			byte[] q = y.bytes();
			int from = 0;
			while (true) {
				int m = java.util.Arrays.mismatch(p, from, p.length, q, from, q.length);
				if (m < 0) {
					break;
				}
				int at = from + m;
				int word = (int) (at - Math.floorMod(x.offset() + at, 8L)); // 8-byte aligned in its buffer
				if (word < 0 || word + 8 > p.length || !relocation.same(
						java.nio.ByteBuffer.wrap(p, word, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(),
						java.nio.ByteBuffer.wrap(q, word, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong())) {
					return "copy " + i + " (op " + x.op() + ", buffer " + x.buffer() + ") differs at byte " + at;
				}
				from = word + 8;
			}
		}
		return null;
	}

	/**
	 * Checks the surrogate kernel's bytes against {@link SurrogateKernels#pattern}: writes {@code bytes} at an odd
	 * offset of a fresh allocation and reads all back; the bytes around must stay zero.
	 *
	 * @return null when right, else the first wrong byte in words
	 */
	public static @Nullable String surrogateSelfTest(LiveDevice device, int bytes, long seed, long first)
			throws ReplayException {
		long a = device.allocate(bytes + 64L);
		try {
			long s = device.createStream(true);
			device.spin(200_000, s);
			device.surrogateWrite(a + 3, bytes, seed, first, s);
			device.synchronize(s);
			byte[] back = new byte[bytes + 64];
			device.copyToHost(a, back, 0, back.length);
			for (int i = 0; i < back.length; i++) {
				byte want = i >= 3 && i < 3 + bytes ? SurrogateKernels.pattern(seed, first + i - 3) : 0;
				if (back[i] != want) {
					return "byte " + i + ": " + back[i] + ", expected " + want;
				}
			}
			return null;
		} finally {
			device.free(a);
		}
	}

	/** The median of some values. */
	public static double median(double[] v) {
		double[] c = v.clone();
		Arrays.sort(c);
		return c.length == 0 ? Double.NaN
				: c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
	}

	/**
	 * Pinned device-to-host bandwidth of plain copies in GB/s (10^9 bytes), one value per round: {@code bytes} from
	 * one allocation into one pinned block, timed with events.
	 */
	public static double[] pinnedD2H(LiveDevice device, long bytes, int rounds) throws ReplayException {
		long d = device.allocate(bytes);
		long h = device.allocateHost(bytes);
		long s = device.createStream(true);
		long e0 = device.createEvent();
		long e1 = device.createEvent();
		double[] out = new double[rounds];
		try {
			for (int i = 0; i < rounds; i++) {
				device.recordEvent(e0, s);
				device.copyToHostAsync(h, 0, d, bytes, s);
				device.recordEvent(e1, s);
				device.synchronize(s);
				out[i] = bytes / (device.elapsedMs(e0, e1) * 1e6);
			}
		} finally {
			device.free(d);
			device.freeHost(h);
		}
		return out;
	}

	/** Runs with no sink beyond the metrics (timed figure runs). */
	public static LiveRunResult timed(Subject s, LiveDevice device, LiveCrEngine.Options o, @Nullable LiveImage into)
			throws ReplayException {
		return into == null ? LiveCrEngine.run(s.trace(), s.workload(), device, o, TimelineSink.NONE)
				: LiveCrEngine.run(s.trace(), s.workload(), device, o, TimelineSink.NONE, into);
	}

	/** The outcomes that failed. */
	public static List<Outcome> failures(List<Outcome> outcomes) {
		List<Outcome> f = new ArrayList<>();
		for (Outcome o : outcomes) {
			if (!o.equal()) {
				f.add(o);
			}
		}
		return f;
	}
}
