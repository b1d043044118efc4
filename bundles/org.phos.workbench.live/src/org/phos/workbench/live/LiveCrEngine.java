package org.phos.workbench.live;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cr.core.BufferRange;
import org.phos.workbench.cr.core.BufferState;
import org.phos.workbench.cr.core.BufferStateChange;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CheckpointSummary;
import org.phos.workbench.cr.core.ConsistencyReport;
import org.phos.workbench.cr.core.CopyDirection;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.LaneKind;
import org.phos.workbench.cr.core.Marker;
import org.phos.workbench.cr.core.Operation;
import org.phos.workbench.cr.core.OperationKind;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.SimulationWorkload;
import org.phos.workbench.cr.core.SoftCheckpointOptions;
import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.StallInterval;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.TimelineSink;
import org.phos.workbench.speculation.core.instrument.AddressRelocation;
import org.phos.workbench.speculation.core.ptx.PtxFunction;
import org.phos.workbench.speculation.core.ptx.PtxParam;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;

/**
 * Live checkpoint of a replayed trace on a GPU: the application's operations (a {@link SimulationWorkload} made from
 * the trace, so the buffers and sets are the simulator's) run on one device stream in issue order (one valid order of
 * the recorded happens-before: the recorded streams' events are honoured trivially), launches as their recorded PTX
 * or as surrogates ({@link LaunchPlanner}); at the checkpoint instant the engine drains the device and takes the image
 * of every live buffer into pinned host memory ({@link LiveImage}) by one of two policies:
 * <ul>
 * <li><b>stop-the-world</b>: every buffer copied to the host while the application waits;</li>
 * <li><b>soft copy-on-write</b>: the application resumes at once; a copier commits buffers to the host on its own
 * stream in chunks (a few in flight, so the application's copies can go between them), and before an operation whose
 * speculated write set holds a buffer not yet taken, the buffer is copied on the device into the spare budget first
 * (the application's stream waits for that copy only), or, budget spent, straight to the host; a buffer the copier is
 * copying right now is waited for.</li>
 * </ul>
 * And <b>soft on-demand restore</b> ({@link Mode#ON_DEMAND_RESTORE}): the image of the instant is taken, the buffers'
 * contents destroyed, and the application resumes while the buffers come back on demand and in the background.
 * <p>
 * <b>Validation</b>: before each operation after the instant, its observed writes (where the trace has them) are
 * checked against the speculated sets; a write to a buffer not yet taken that the sets did not foresee makes that
 * buffer fall back to stop-and-copy (the device drained, the buffer copied to the host) before the operation runs,
 * shown on the timeline as a {@link StallCause#STOP_THE_WORLD} stall with a marker: the image is never silently wrong.
 * Launches running real code without observed accesses cannot be checked and are counted.
 * <p>
 * Everything the run did is reported into a {@link TimelineSink} with GPU times from events (one clock: nanoseconds
 * from the run's first event), as the simulator reports its runs, and summed up in {@link SimulationMetrics}.
 */
public final class LiveCrEngine {

	/** The checkpoint policy. */
	public enum Mode {
		/** No checkpoint: the baseline. */
		NONE,
		/** Stop-the-world checkpoint. */
		STOP_THE_WORLD,
		/** Soft copy-on-write checkpoint. */
		SOFT_COW,
		/**
		 * The driver's stop-the-world checkpoint and restore of this process ({@code cuCheckpointProcess*}), run by
		 * the native helper named in the system property {@value LiveCrEngine#DRIVER_HELPER}: the anchor. Its image
		 * stays in the driver; with a reference image the buffers are copied once more after the restore, so the
		 * comparison checks that the driver brought every byte back.
		 */
		DRIVER_CHECKPOINT,
		/**
		 * Soft on-demand restore of the image of the instant: the image is taken stop-the-world (not counted), the
		 * buffers' contents are then destroyed (filled with 0xA5) and the application resumes at once; a buffer an
		 * operation's sets (or observed accesses) need that is not back yet is restored first (the application
		 * waits), the others in the background in chunks on the copier stream.
		 */
		ON_DEMAND_RESTORE,
		/**
		 * Soft recopy (the simulator's {@code SoftRecopyPolicy}; the latest state, for migration): a soft
		 * copy-on-write pre-copy from the instant while the buffers written after it (by the speculated sets, by
		 * observed writes outside them, or allocated after it) are tracked as dirty; at the first launch after the
		 * pre-copy completed, the application stops (drain) and the dirty buffers still live are copied again. The
		 * image is that of the stop, not of the instant. The log-and-recompute path past a dirty threshold is not run
		 * live.
		 */
		SOFT_RECOPY,
		/**
		 * Repeated soft copy-on-write checkpoints (the simulator's {@code RepeatedCheckpointPolicy}): the first at the
		 * instant, each later one due {@code intervalNs} of recorded host time after the previous one was requested,
		 * started at the first launch at or after that time once the previous one completed (later: "delayed"). One
		 * image per checkpoint ({@link LiveRunResult#rounds()}).
		 */
		REPEATED;

		public String policyName() {
			return switch (this) {
				case NONE -> "none";
				case STOP_THE_WORLD -> "stop-the-world";
				case SOFT_COW -> "soft-cow";
				case DRIVER_CHECKPOINT -> "driver-checkpoint";
				case ON_DEMAND_RESTORE -> "on-demand-restore";
				case SOFT_RECOPY -> "soft-recopy";
				case REPEATED -> "repeated";
			};
		}
	}

	/**
	 * @param mode the policy
	 * @param at the checkpoint instant
	 * @param chunkBytes copier chunk (&gt; 0)
	 * @param budgetBytes spare device memory for copy-on-write copies
	 * @param window copier chunks in flight at once (&gt;= 1)
	 * @param reference whether to take a stop-the-world reference image at the drain instant first (verification)
	 * @param stopAtInstant whether to stop the application at the instant (after the image is complete)
	 * @param validate whether to check observed writes against the speculated sets (off only to show, in tests,
	 *        what a mis-speculation does to an image without it)
	 * @param intervalNs {@link Mode#REPEATED}: recorded host time between checkpoints (&gt; 0 there, else unused)
	 */
	public record Options(Mode mode, CheckpointInstant at, long chunkBytes, long budgetBytes, int window,
			boolean reference, boolean stopAtInstant, boolean validate, long intervalNs) {
		public Options {
			if (chunkBytes <= 0 || window < 1 || (budgetBytes < 0 && budgetBytes != SoftCheckpointOptions.AUTO_BUDGET)) {
				throw new IllegalArgumentException("chunk " + chunkBytes + ", window " + window + ", budget "
						+ budgetBytes + ": chunk and window must be positive, the budget not negative");
			}
			if (mode == Mode.REPEATED && intervalNs <= 0) {
				throw new IllegalArgumentException("repeated checkpoints need an interval > 0 ns, was " + intervalNs);
			}
		}

		public Options(Mode mode, CheckpointInstant at, long chunkBytes, long budgetBytes, int window,
				boolean reference, boolean stopAtInstant, boolean validate) {
			this(mode, at, chunkBytes, budgetBytes, window, reference, stopAtInstant, validate,
					mode == Mode.REPEATED ? 1_000_000_000L : 0);
		}

		public Options withInterval(long ns) {
			return new Options(mode, at, chunkBytes, budgetBytes, window, reference, stopAtInstant, validate, ns);
		}

		/** PhOS-like defaults: 4 MiB chunks, 4 in flight, 14 GiB budget, no reference. */
		public static Options of(Mode mode, CheckpointInstant at) {
			return new Options(mode, at, 4L << 20, 14L << 30, 4, false, false, true);
		}

		public Options withReference(boolean r) {
			return new Options(mode, at, chunkBytes, budgetBytes, window, r, stopAtInstant, validate, intervalNs);
		}

		public Options withBudget(long b) {
			return new Options(mode, at, chunkBytes, b, window, reference, stopAtInstant, validate, intervalNs);
		}

		public Options withChunk(long c) {
			return new Options(mode, at, c, budgetBytes, window, reference, stopAtInstant, validate, intervalNs);
		}

		public Options withWindow(int w) {
			return new Options(mode, at, chunkBytes, budgetBytes, w, reference, stopAtInstant, validate, intervalNs);
		}

		public Options withValidate(boolean v) {
			return new Options(mode, at, chunkBytes, budgetBytes, window, reference, stopAtInstant, v, intervalNs);
		}
	}

	/** System property naming the native driver-checkpoint helper (native-hooks/live/driver_checkpoint.c). */
	public static final String DRIVER_HELPER = "phos.driverCheckpoint";

	/** Lane of stop-and-copy fallbacks (budget spent, mis-speculation): device-to-host copies on the app's stream. */
	public static final int LANE_FALLBACK_D2H = 9;
	private static final int MAX_NOTES = 200;

	private enum State {
		UNTOUCHED, COPYING, COPYING_WAITED, COW_DONE, COMMITTED
	}

	/** One buffer of the snapshot. */
	private static final class Snap {
		final int buffer;
		final long device;
		final long size;
		final long recorded;
		State state = State.UNTOUCHED;
		long source; // where the copier reads: the buffer, or its CoW copy
		long issued; // bytes handed to the copier
		long lastChunkEvent = -1;
		long cowEvent = -1;
		int chunksPending;

		Snap(int buffer, long device, long size, long recorded) {
			this.buffer = buffer;
			this.device = device;
			this.size = size;
			this.recorded = recorded;
			this.source = device;
		}
	}

	private record Chunk(Snap snap, long startEvent, long endEvent, long bytes) {
	}

	/** A time: an event (resolved at the end) or a host time. */
	private record Stamp(long event, long hostNs) {
	}

	private record PendingInterval(int lane, Stamp start, Stamp end, String label, String category, int buffer,
			long bytes, long opIndex) {
	}

	private record PendingStall(Stamp start, Stamp end, StallCause cause, int buffer, long opIndex) {
	}

	private record PendingState(Stamp at, int buffer, BufferState from, BufferState to) {
	}

	private record PendingMarker(Stamp at, String label) {
	}

	private final Trace trace;
	private final SimulationWorkload workload;
	private final LiveDevice dev;
	private final Options o;
	private final TimelineSink sink;
	private final LaunchPlanner planner;
	private final AddressRelocation relocation = new AddressRelocation();
	private final Map<Integer, Long> address = new HashMap<>();
	private final Map<Integer, Long> size = new HashMap<>();
	private final Map<Integer, Long> recordedBase = new HashMap<>();
	private final Map<Integer, Long> modules = new HashMap<>();
	private final Map<String, Long> functions = new HashMap<>();
	private final List<String> notes = new ArrayList<>();
	private final List<Long> deferredFrees = new ArrayList<>();
	private final List<LiveRunResult.Placement> placements = new ArrayList<>();
	private final Map<Integer, Snap> snaps = new LinkedHashMap<>();
	private final ArrayDeque<Snap> copierQueue = new ArrayDeque<>();
	private final ArrayDeque<Snap> cowQueue = new ArrayDeque<>();
	private final ArrayDeque<Chunk> inFlight = new ArrayDeque<>();
	private final List<PendingInterval> intervals = new ArrayList<>();
	private final List<PendingStall> stalls = new ArrayList<>();
	private final List<PendingState> states = new ArrayList<>();
	private final List<PendingMarker> markers = new ArrayList<>();
	private final Set<Integer> stallLanesUsed = new HashSet<>();
	private @Nullable Snap copying;
	private @Nullable LiveImage image;
	private @Nullable LiveImage reference;
	private long app;
	private long copier;
	private long t0Event;
	private long hostT0;
	private boolean checkpointed;
	private boolean active;
	private long pool = -1;
	private long poolUsed;
	private int realLaunches;
	private int surrogateLaunches;
	private int validationFallbacks;
	private long validationBytes;
	private int budgetFallbacks;
	private long budgetFallbackBytes;
	private int unvalidated;
	private long observedLaunches;
	private int cowCount;
	private long cowBytes;
	private long copyBytes;
	private @Nullable Stamp firstCopy;
	private @Nullable Stamp lastCopy;
	private @Nullable Stamp requested;
	private @Nullable Stamp drained;
	private long operations;
	private long launches;
	private boolean restoring;
	private boolean pastInstant;
	private @Nullable Stamp restoreStart;
	private @Nullable Stamp firstKernelAfterRestore;
	private final List<LiveRunResult.ReadBack> readBacks = new ArrayList<>();
	private long readBackBytes;
	private static final long READ_BACK_LIMIT = 256L << 20;
	// soft recopy and repeated checkpoints
	private final Set<Integer> dirty = new HashSet<>();
	private final List<LiveRunResult.Round> rounds = new ArrayList<>();
	private final List<PendingSummary> summaries = new ArrayList<>();
	private int round;
	private long nextDueNs = Long.MAX_VALUE;
	private long roundLaunches;
	private long roundOp = -1;
	private long roundCow;
	private long roundCowBytes;
	private long roundFallbacks;
	private long roundFallbackBytes;
	private long peakPool;
	private @Nullable Map<Integer, Long> imageAddresses;

	private record PendingSummary(int number, Stamp requested, Stamp drained, @Nullable Stamp completed, int buffers,
			long bytes, long cow, long cowBytes, long fallbacks, long fallbackBytes, long dirtyBytes, long recopyBytes,
			long peakBudget) {
	}

	private boolean latest() {
		return o.mode() == Mode.SOFT_RECOPY || o.mode() == Mode.REPEATED;
	}

	private LiveCrEngine(Trace trace, SimulationWorkload workload, LiveDevice dev, Options o, TimelineSink sink) {
		this.trace = trace;
		this.workload = workload;
		this.dev = dev;
		this.o = o;
		this.sink = sink;
		this.planner = new LaunchPlanner(trace, dev.computeCapability());
	}

	/**
	 * Runs the workload live.
	 *
	 * @param trace the trace the workload was made from (payloads, modules, parameters by event index)
	 * @param workload the operations and sets (a {@code TraceWorkload} of {@code trace}, possibly wrapped)
	 * @param device the GPU (not closed here)
	 * @param options policy and knobs
	 * @param sink receives the timeline
	 * @return what happened; the caller closes it (pinned images)
	 */
	public static LiveRunResult run(Trace trace, SimulationWorkload workload, LiveDevice device, Options options,
			TimelineSink sink) throws ReplayException {
		return new LiveCrEngine(trace, workload, device, options, sink).run(null);
	}

	/**
	 * Runs the workload live into an image the caller made (for repeated timed runs: pinned memory is slow to
	 * allocate) and keeps; its buffers must be {@link #liveAt} the instant. The result's {@code image} is that image.
	 */
	public static LiveRunResult run(Trace trace, SimulationWorkload workload, LiveDevice device, Options options,
			TimelineSink sink, LiveImage into) throws ReplayException {
		return new LiveCrEngine(trace, workload, device, options, sink).run(into);
	}

	/**
	 * The buffers live when the instant is reached, with their sizes (a pass over the operations, no GPU): what an
	 * image of that instant holds.
	 */
	public static Map<Integer, Long> liveAt(SimulationWorkload workload, CheckpointInstant at) {
		Map<Integer, Long> live = new TreeMap<>();
		long launches = 0;
		for (Iterator<Operation> it = workload.operations(); it.hasNext();) {
			Operation op = it.next();
			if (at.reached(op.hostTimeNs(), launches, op)) {
				return live;
			}
			switch (op.kind()) {
				case ALLOC -> live.put(op.buffer(), op.bytes());
				case FREE -> live.remove(op.buffer());
				case LAUNCH -> launches++;
				default -> {
				}
			}
		}
		return live;
	}

	private void note(String s) {
		if (notes.size() < MAX_NOTES) {
			notes.add(s);
		}
	}

	private final List<Long> createdEvents = new ArrayList<>();

	private Stamp ev(long stream) throws ReplayException {
		long e = dev.createEvent();
		createdEvents.add(e);
		dev.recordEvent(e, stream);
		return new Stamp(e, -1);
	}

	private Stamp host() {
		return new Stamp(-1, System.nanoTime());
	}

	private LiveRunResult run(@Nullable LiveImage into) throws ReplayException {
		app = dev.createStream(true);
		copier = dev.createStream(true);
		Map<Integer, Long> sizes = o.mode() == Mode.NONE ? Map.of() : liveAt(workload, o.at());
		if (o.mode() != Mode.NONE) {
			image = into != null ? into : new LiveImage(dev, sizes);
			if (o.reference()) {
				reference = new LiveImage(dev, sizes);
			}
		}
		try {
			Stamp t0 = ev(app);
			t0Event = t0.event();
			dev.synchronize();
			hostT0 = System.nanoTime();
			for (Iterator<Operation> it = workload.operations(); it.hasNext();) {
				Operation op = it.next();
				if (!pastInstant && o.at().reached(op.hostTimeNs(), launches, op)) {
					pastInstant = true; // from here on, device-to-host copies are digested (reference runs)
				}
				if (active && latest()) {
					pump();
					if (inFlight.isEmpty()) { // the pre-copy (this round) is complete
						if (o.mode() == Mode.REPEATED) {
							endRound();
						} else if (op.kind() == OperationKind.LAUNCH) {
							stopForRecopy(op.index(), true);
						}
					}
				}
				if (!checkpointed && o.mode() != Mode.NONE && o.at().reached(op.hostTimeNs(), launches, op)) {
					roundLaunches = launches;
					roundOp = op.index();
					nextDueNs = op.hostTimeNs() + o.intervalNs();
					checkpoint();
					if (o.stopAtInstant()) {
						break;
					}
				} else if (o.mode() == Mode.REPEATED && checkpointed && !active && op.kind() == OperationKind.LAUNCH
						&& op.hostTimeNs() >= nextDueNs) {
					startRound(op);
				}
				if (active) {
					protect(op);
					pump();
				}
				execute(op);
				operations++;
			}
			if (!checkpointed && o.mode() != Mode.NONE) {
				note("the checkpoint instant " + o.at() + " was not reached: checkpoint at the end of the trace");
				roundLaunches = launches;
				checkpoint();
			}
			Stamp appEnd = ev(app);
			waitFor(appEnd.event());
			if (active && latest()) {
				drainCopier();
				if (o.mode() == Mode.REPEATED) {
					endRound();
				} else {
					stopForRecopy(-1, false);
				}
			}
			finishCopier();
			dev.synchronize();
			for (long a : deferredFrees) {
				dev.free(a);
			}
			for (long a : address.values()) {
				dev.free(a);
			}
			if (pool >= 0) {
				dev.free(pool);
			}
			LiveRunResult result = report(appEnd);
			for (long ev : createdEvents) {
				dev.destroyEvent(ev);
			}
			return result;
		} catch (ReplayException | RuntimeException e) {
			for (LiveRunResult.Round r : rounds) {
				if (r.image() != into) {
					r.image().close();
				}
				if (r.reference() != null) {
					r.reference().close();
				}
			}
			if (image != null && image != into) {
				image.close();
			}
			if (reference != null) {
				reference.close();
			}
			throw e;
		}
	}

	/** Waits on the host for an event, keeping the copier busy meanwhile. */
	private void waitFor(long event) throws ReplayException {
		while (!dev.done(event)) {
			if (active) {
				pump();
			}
			Thread.onSpinWait();
		}
	}

	// ---- the checkpoint

	private @Nullable Stamp requestAt;

	private void checkpoint() throws ReplayException {
		checkpointed = true;
		requested = requestAt != null ? requestAt : host();
		requestAt = null;
		markers.add(new PendingMarker(requested, (round > 0 ? "checkpoint " + round + " requested ("
				: "checkpoint requested (") + o.mode().policyName() + ")"));
		dev.synchronize();
		Stamp drainEnd = host();
		stalls.add(new PendingStall(requested, drainEnd, StallCause.DRAIN, -1, -1));
		for (Map.Entry<Integer, Long> e : address.entrySet()) {
			snaps.put(e.getKey(), new Snap(e.getKey(), e.getValue(), size.get(e.getKey()), recordedBase.get(e.getKey())));
		}
		if (image == null || !image.regions().keySet().equals(snaps.keySet())) {
			throw new ReplayException("live buffers at the instant " + snaps.keySet() + " are not those planned "
					+ (image == null ? "[]" : image.regions().keySet()));
		}
		LiveImage ref = o.mode() == Mode.SOFT_RECOPY ? null : reference; // recopy: the reference is of the stop
		if (ref != null) {
			for (Snap s : snaps.values()) {
				ref.copyIn(s.buffer, 0, s.device, s.size, copier);
			}
			dev.synchronize(copier);
		}
		Stamp start = host();
		drained = start;
		markers.add(new PendingMarker(start, "image instant (drained)"));
		if (o.mode() == Mode.DRIVER_CHECKPOINT) {
			driverCheckpoint(start);
			return;
		}
		if (o.mode() == Mode.ON_DEMAND_RESTORE) {
			beginRestore();
			return;
		}
		if (o.mode() == Mode.STOP_THE_WORLD) {
			Stamp first = ev(copier);
			for (Snap s : snaps.values()) {
				for (long at = 0; at < s.size; at += o.chunkBytes()) {
					long n = Math.min(o.chunkBytes(), s.size - at);
					image.copyIn(s.buffer, at, s.device + at, n, copier);
				}
				copyBytes += s.size;
			}
			Stamp last = ev(copier);
			dev.synchronize(copier);
			Stamp end = host();
			intervals.add(new PendingInterval(Lane.CR_COMMIT_D2H, first, last, "stop-the-world copy",
					TimelineInterval.COMMIT, -1, copyBytes, -1));
			stalls.add(new PendingStall(start, end, StallCause.STOP_THE_WORLD, -1, -1));
			firstCopy = first;
			lastCopy = last;
			for (Snap s : snaps.values()) {
				s.state = State.COMMITTED;
				states.add(new PendingState(last, s.buffer, BufferState.UNTOUCHED, BufferState.COMMITTED));
			}
			markers.add(new PendingMarker(end, "checkpoint complete"));
			return;
		}
		// soft copy-on-write: the copier's order is the recorded address order (PhOS's pointer order)
		List<Snap> order = new ArrayList<>(snaps.values());
		order.sort((a, b) -> Long.compareUnsigned(a.recorded, b.recorded));
		copierQueue.addAll(order);
		long total = order.stream().mapToLong(s -> s.size).sum();
		long budget = o.budgetBytes();
		if (budget == SoftCheckpointOptions.AUTO_BUDGET && pool < 0) {
			long free = dev.freeMemory();
			budget = Math.max(0, free - SoftCheckpointOptions.AUTO_BUDGET_HEADROOM);
			note(String.format(Locale.ROOT, "copy-on-write budget auto: %.2f GiB (%.2f GiB free on the device at the "
					+ "instant, less %d GiB headroom)", budget / (double) (1L << 30), free / (double) (1L << 30),
					SoftCheckpointOptions.AUTO_BUDGET_HEADROOM >> 30));
		}
		long want = Math.min(budget, total);
		if (want > 0 && pool < 0) {
			try {
				pool = dev.allocateUninitialized(want);
			} catch (ReplayException e) {
				note("copy-on-write budget of " + want + " bytes could not be allocated (" + e.getMessage()
						+ "): every write before the copier is a fallback");
				pool = -1;
			}
		}
		if (round == 0) {
			poolCapacity = pool >= 0 ? want : 0;
		}
		roundCow = cowCount;
		roundCowBytes = cowBytes;
		roundFallbacks = budgetFallbacks + validationFallbacks;
		roundFallbackBytes = budgetFallbackBytes + validationBytes;
		Stamp end = host();
		stalls.add(new PendingStall(start, end, StallCause.DRAIN, -1, -1));
		active = true;
		pump();
	}

	private long poolCapacity;

	/** Repeated checkpoints: the next one, into a new image of the buffers live now (reserved in its drain stall). */
	private void startRound(Operation op) throws ReplayException {
		round++;
		requestAt = host(); // the application waits while the image is reserved: counted in the drain stall
		markers.add(new PendingMarker(requestAt, "checkpoint " + round + ": pinned image reserved (in its drain stall)"));
		Map<Integer, Long> sizes = new TreeMap<>(size);
		image = new LiveImage(dev, sizes);
		reference = o.reference() ? new LiveImage(dev, sizes) : null;
		snaps.clear();
		copierQueue.clear();
		cowQueue.clear();
		copying = null;
		poolUsed = 0; // the previous checkpoint's copy-on-write copies are all committed
		if (op.hostTimeNs() > nextDueNs) {
			markers.add(new PendingMarker(host(), "checkpoint " + round + " delayed by "
					+ org.phos.workbench.cr.core.Units.formatNs(op.hostTimeNs() - nextDueNs) + " of recorded time"));
		}
		nextDueNs = op.hostTimeNs() + o.intervalNs();
		roundLaunches = launches;
		roundOp = op.index();
		checkpoint();
	}

	/** Repeated checkpoints: this one is complete (every chunk retired). */
	private void endRound() throws ReplayException {
		dev.synchronize(copier);
		Stamp done = lastCopy == null ? host() : lastCopy;
		markers.add(new PendingMarker(done, "checkpoint " + round + " complete"));
		long bytes = snaps.values().stream().mapToLong(x -> x.size).sum();
		peakPool = Math.max(peakPool, poolUsed);
		summaries.add(new PendingSummary(round, requested, drained, done, snaps.size(), bytes, cowCount - roundCow,
				cowBytes - roundCowBytes, budgetFallbacks + validationFallbacks - roundFallbacks,
				budgetFallbackBytes + validationBytes - roundFallbackBytes, 0, 0, poolUsed));
		Map<Integer, Long> at = new TreeMap<>();
		snaps.values().forEach(x -> at.put(x.buffer, x.device));
		imageAddresses = at;
		rounds.add(new LiveRunResult.Round(round, image, reference, roundLaunches, roundOp));
		active = false;
	}

	/**
	 * Soft recopy: the pre-copy is complete; the application stops (drain) and the dirty buffers still live are
	 * copied again, so that the image is the state at this stop. Buffers allocated after the instant get regions
	 * (pinned memory reserved now: the application waits, counted as a recopy stall), freed ones leave the image.
	 *
	 * @param opIndex the launch before which the application stops, -1 at the end of the trace
	 * @param appRunning false at the end of the trace (no stall: the application is done)
	 */
	private void stopForRecopy(long opIndex, boolean appRunning) throws ReplayException {
		LiveImage img = image;
		LiveImage ref = reference;
		Stamp reserve = host();
		int added = 0;
		for (Integer b : new ArrayList<>(img.regions().keySet())) {
			if (!address.containsKey(b)) {
				img.drop(b);
				if (ref != null) {
					ref.drop(b);
				}
			}
		}
		for (Map.Entry<Integer, Long> e : new TreeMap<>(size).entrySet()) {
			if (img.region(e.getKey()) == null) {
				img.extend(e.getKey(), e.getValue());
				if (ref != null) {
					ref.extend(e.getKey(), e.getValue());
				}
				dirty.add(e.getKey());
				added++;
			}
		}
		Stamp stop = host();
		if (added > 0 && appRunning) {
			// the application waits while pinned memory is reserved for them: a stall of the recopy
			stalls.add(new PendingStall(reserve, stop, StallCause.RECOPY, -1, opIndex));
			markers.add(new PendingMarker(reserve, "pinned image regions reserved for " + added
					+ " buffers allocated after the instant"));
		}
		markers.add(new PendingMarker(stop, "checkpoint 0 stop for recopy"));
		dev.synchronize();
		Stamp drainEnd = host();
		if (appRunning) {
			stalls.add(new PendingStall(stop, drainEnd, StallCause.DRAIN, -1, opIndex));
		}
		if (ref != null) { // verification: the state at the stop, as a stop-the-world checkpoint would take it
			for (Map.Entry<Integer, Long> e : address.entrySet()) {
				ref.copyIn(e.getKey(), 0, e.getValue(), size.get(e.getKey()), copier);
			}
			dev.synchronize(copier);
		}
		Stamp start = host();
		List<Integer> todo = new ArrayList<>(new TreeMap<>(address).keySet());
		todo.retainAll(dirty);
		long bytes = 0;
		Stamp a = ev(copier);
		for (int b : todo) {
			long n = size.get(b);
			for (long at = 0; at < n; at += o.chunkBytes()) {
				img.copyIn(b, at, address.get(b) + at, Math.min(o.chunkBytes(), n - at), copier);
			}
			bytes += n;
		}
		Stamp z = ev(copier);
		dev.synchronize(copier);
		Stamp end = host();
		if (bytes > 0) {
			copied(a, z, bytes);
			intervals.add(new PendingInterval(Lane.CR_COMMIT_D2H, a, z, "recopy " + todo.size() + " dirty buffers",
					TimelineInterval.RECOPY, -1, bytes, opIndex));
		}
		if (appRunning) {
			stalls.add(new PendingStall(start, end, StallCause.RECOPY, -1, opIndex));
		}
		markers.add(new PendingMarker(end, "checkpoint 0 image complete (latest state: " + todo.size()
				+ " dirty buffers recopied)"));
		long liveBytes = size.values().stream().mapToLong(Long::longValue).sum();
		summaries.add(new PendingSummary(0, requested, drained, z, address.size(), liveBytes, cowCount, cowBytes,
				budgetFallbacks + validationFallbacks, budgetFallbackBytes + validationBytes, bytes, bytes, poolUsed));
		imageAddresses = new TreeMap<>(address);
		rounds.add(new LiveRunResult.Round(0, img, ref, launches, opIndex));
		active = false;
	}

	/** Runs the driver's checkpoint and restore of this process from the helper; the application waits for it. */
	private void driverCheckpoint(Stamp start) throws ReplayException {
		String helper = System.getProperty(DRIVER_HELPER);
		if (helper == null || helper.isBlank()) {
			throw new ReplayException("driver-checkpoint needs the native helper: -D" + DRIVER_HELPER
					+ "=PATH (build native-hooks/live/driver_checkpoint.c)");
		}
		String line;
		int rc;
		try {
			Process p = new ProcessBuilder(helper, Long.toString(ProcessHandle.current().pid()))
					.redirectErrorStream(true).start();
			line = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
			if (!p.waitFor(300, java.util.concurrent.TimeUnit.SECONDS)) {
				p.destroyForcibly();
				throw new ReplayException("driver checkpoint helper did not finish in 300 s");
			}
			rc = p.exitValue();
		} catch (java.io.IOException e) {
			throw new ReplayException("cannot run the driver checkpoint helper " + helper + ": " + e.getMessage(), e);
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new ReplayException("interrupted while the driver checkpoints this process", e);
		}
		Stamp end = host();
		if (rc != 0) {
			throw new ReplayException("the driver checkpoint failed (helper exit " + rc + "): " + line);
		}
		note(line);
		String[] w = line.split("\\s+");
		long at = start.hostNs();
		for (int i = 0; i + 1 < w.length; i++) {
			if (w[i].endsWith("_ms")) {
				try {
					at += Math.round(Double.parseDouble(w[i + 1]) * 1e6);
				} catch (NumberFormatException e) {
					continue;
				}
				markers.add(new PendingMarker(new Stamp(-1, at), "driver " + w[i].replace("_ms", "") + " done"));
			}
		}
		stalls.add(new PendingStall(start, end, StallCause.STOP_THE_WORLD, -1, -1));
		markers.add(new PendingMarker(end, "checkpoint complete (driver)"));
		lastCopy = end;
		if (reference != null) {
			// verification, after the restore: the buffers as the restored process sees them
			for (Snap s : snaps.values()) {
				image.copyIn(s.buffer, 0, s.device, s.size, copier);
			}
			dev.synchronize(copier);
		}
		for (Snap s : snaps.values()) {
			s.state = State.COMMITTED;
		}
	}

	/** Takes the image (not counted), destroys the buffers' contents, and starts restoring on demand. */
	private void beginRestore() throws ReplayException {
		for (Snap s : snaps.values()) {
			for (long at = 0; at < s.size; at += 64L << 20) {
				image.copyIn(s.buffer, at, s.device + at, Math.min(64L << 20, s.size - at), copier);
			}
		}
		dev.synchronize(copier);
		for (Snap s : snaps.values()) {
			dev.fill(s.device, 0xA5, 1, s.size, app); // the state is gone: only the image holds it
		}
		dev.synchronize(app);
		restoring = true;
		restoreStart = ev(app); // on the GPU clock, as the first kernel and the last restore copy
		markers.add(new PendingMarker(restoreStart, "restore start (image taken, buffers destroyed)"));
		List<Snap> order = new ArrayList<>(snaps.values());
		order.sort((a, b) -> Long.compareUnsigned(a.recorded, b.recorded));
		copierQueue.addAll(order);
		for (Snap s : order) {
			states.add(new PendingState(restoreStart, s.buffer, BufferState.PRESENT, BufferState.ABSENT));
		}
		active = true;
		pump();
	}

	/** Before {@code op} runs after a restore began: the buffers it needs come back first. */
	private void needRestored(Operation op) throws ReplayException {
		Set<Integer> spec = new HashSet<>();
		op.reads().forEach(r -> spec.add(r.buffer()));
		op.writes().forEach(r -> spec.add(r.buffer()));
		Set<Integer> truth = new HashSet<>();
		if (o.validate()) {
			if (op.observedReads() != null) {
				op.observedReads().forEach(r -> truth.add(r.buffer()));
			}
			if (op.observedWrites() != null) {
				op.observedWrites().forEach(r -> truth.add(r.buffer()));
			}
		}
		truth.removeAll(spec);
		for (int b : spec) {
			restoreNow(snaps.get(b), op, false);
		}
		for (int b : truth) {
			restoreNow(snaps.get(b), op, true);
		}
	}

	private void restoreNow(@Nullable Snap s, Operation op, boolean missed) throws ReplayException {
		if (s == null || !unsafe(s)) {
			return;
		}
		if (missed) {
			validationFallbacks++;
			validationBytes += s.size;
			markers.add(new PendingMarker(host(), "validation: op " + op.index() + " accesses buffer " + s.buffer
					+ " outside the speculated sets: restored before it runs"));
		}
		if (s.state == State.COPYING) {
			waitForCopier(s, op, StallCause.RESTORE_ON_DEMAND);
			return;
		}
		Stamp a = ev(app);
		for (long at = 0; at < s.size; at += o.chunkBytes()) {
			image.copyOut(s.buffer, at, s.device + at, Math.min(o.chunkBytes(), s.size - at), app);
		}
		Stamp b = ev(app);
		copied(a, b, s.size);
		intervals.add(new PendingInterval(LANE_FALLBACK_D2H, a, b, "restore buf " + s.buffer + " on demand",
				TimelineInterval.RESTORE, s.buffer, s.size, op.index()));
		stalls.add(new PendingStall(a, b, StallCause.RESTORE_ON_DEMAND, s.buffer, op.index()));
		change(s, State.COMMITTED, b);
	}

	/** Before {@code op} runs: validation, then copy-on-write of the buffers its speculated sets write. */
	private void protect(Operation op) throws ReplayException {
		if (restoring) {
			needRestored(op);
			return;
		}
		Set<Integer> spec = new HashSet<>();
		for (BufferRange w : op.writes()) {
			spec.add(w.buffer());
		}
		List<BufferRange> truth = op.observedWrites();
		if (op.kind() == OperationKind.LAUNCH) {
			if (truth != null) {
				observedLaunches++;
			} else if (!planner.plan(op).surrogate()) {
				unvalidated++;
			}
		}
		if (o.mode() == Mode.SOFT_RECOPY) {
			dirty.addAll(spec);
		}
		if (truth != null && o.validate()) {
			for (BufferRange w : truth) {
				Snap s = snaps.get(w.buffer());
				if (o.mode() == Mode.SOFT_RECOPY) {
					if (!spec.contains(w.buffer()) && address.containsKey(w.buffer()) && dirty.add(w.buffer())) {
						validationFallbacks++;
						validationBytes += size.get(w.buffer());
						markers.add(new PendingMarker(host(), "validation: op " + op.index() + " writes buffer "
								+ w.buffer() + " outside the speculated sets: dirty, recopied at the stop"));
					}
				} else if (s != null && !spec.contains(w.buffer()) && unsafe(s)) {
					stopAndCopy(s, op);
				}
			}
		}
		for (int b : spec) {
			Snap s = snaps.get(b);
			if (s == null) {
				continue;
			}
			switch (s.state) {
				case UNTOUCHED -> copyOnWrite(s, op);
				case COPYING -> waitForCopier(s, op, StallCause.WAIT_FOR_COPIER);
				default -> {
				}
			}
		}
	}

	private static boolean unsafe(Snap s) {
		return s.state == State.UNTOUCHED || s.state == State.COPYING;
	}

	private void stopAndCopy(Snap s, Operation op) throws ReplayException {
		validationFallbacks++;
		validationBytes += s.size;
		Stamp h0 = host();
		markers.add(new PendingMarker(h0, "validation: op " + op.index() + " writes buffer " + s.buffer
				+ " outside the speculated sets: stop-and-copy"));
		if (s.state == State.COPYING) {
			waitForCopier(s, op, StallCause.STOP_THE_WORLD);
			dev.synchronize(app);
		} else {
			dev.synchronize(app);
			Stamp a = ev(app);
			image.copyIn(s.buffer, 0, s.device, s.size, app);
			Stamp b = ev(app);
			dev.synchronize(app);
			copied(a, b, s.size);
			intervals.add(new PendingInterval(LANE_FALLBACK_D2H, a, b, "stop-and-copy buf " + s.buffer,
					TimelineInterval.COMMIT, s.buffer, s.size, op.index()));
			change(s, State.COMMITTED, b);
		}
		stalls.add(new PendingStall(h0, host(), StallCause.STOP_THE_WORLD, s.buffer, op.index()));
	}

	private void copyOnWrite(Snap s, Operation op) throws ReplayException {
		if (pool >= 0 && poolUsed + s.size <= poolCapacity) {
			long spare = pool + poolUsed;
			poolUsed += s.size;
			Stamp a = ev(app);
			dev.copyOnDevice(spare, s.device, s.size, app);
			Stamp b = ev(app);
			s.source = spare;
			s.cowEvent = b.event();
			cowCount++;
			cowBytes += s.size;
			intervals.add(new PendingInterval(Lane.CR_COW_D2D, a, b, "cow buf " + s.buffer, TimelineInterval.COW,
					s.buffer, s.size, op.index()));
			stalls.add(new PendingStall(a, b, StallCause.COPY_ON_WRITE, s.buffer, op.index()));
			change(s, State.COW_DONE, b);
			cowQueue.add(s);
		} else {
			budgetFallbacks++;
			budgetFallbackBytes += s.size;
			Stamp a = ev(app);
			image.copyIn(s.buffer, 0, s.device, s.size, app);
			Stamp b = ev(app);
			copied(a, b, s.size);
			intervals.add(new PendingInterval(LANE_FALLBACK_D2H, a, b, "fallback buf " + s.buffer,
					TimelineInterval.COMMIT, s.buffer, s.size, op.index()));
			stalls.add(new PendingStall(a, b, StallCause.BUDGET_FALLBACK, s.buffer, op.index()));
			change(s, State.COMMITTED, b);
		}
	}

	/** The copier is copying {@code s}: hand it the rest now and make the application's stream wait for it. */
	private void waitForCopier(Snap s, Operation op, StallCause cause) throws ReplayException {
		while (s.issued < s.size) {
			issueChunk(s);
		}
		Stamp a = ev(app);
		dev.waitEvent(app, s.lastChunkEvent);
		Stamp b = ev(app);
		stalls.add(new PendingStall(a, b, cause, s.buffer, op.index()));
		s.state = State.COPYING_WAITED;
	}

	private void change(Snap s, State to, Stamp at) {
		states.add(new PendingState(at, s.buffer, restoring ? restoreState(s.state) : public_(s.state),
				restoring ? restoreState(to) : public_(to)));
		s.state = to;
	}

	private static BufferState restoreState(State s) {
		return switch (s) {
			case UNTOUCHED -> BufferState.ABSENT;
			case COPYING, COPYING_WAITED, COW_DONE -> BufferState.RESTORING;
			case COMMITTED -> BufferState.PRESENT;
		};
	}

	private static BufferState public_(State s) {
		return switch (s) {
			case UNTOUCHED -> BufferState.UNTOUCHED;
			case COPYING, COPYING_WAITED -> BufferState.COPYING;
			case COW_DONE -> BufferState.COW_DONE;
			case COMMITTED -> BufferState.COMMITTED;
		};
	}

	private void copied(Stamp a, Stamp b, long bytes) {
		copyBytes += bytes;
		if (firstCopy == null) {
			firstCopy = a;
		}
		lastCopy = b;
	}

	/** Retires completed chunks and keeps {@code window} chunks in flight. */
	private void pump() throws ReplayException {
		while (!inFlight.isEmpty() && dev.done(inFlight.peekFirst().endEvent())) {
			retire(inFlight.pollFirst());
		}
		while (inFlight.size() < o.window()) {
			Snap next = nextToCopy();
			if (next == null) {
				break;
			}
			issueChunk(next);
		}
	}

	private @Nullable Snap nextToCopy() {
		if (copying != null && copying.issued < copying.size) {
			return copying;
		}
		Snap s = cowQueue.pollFirst();
		while (s == null && !copierQueue.isEmpty()) {
			Snap c = copierQueue.pollFirst();
			if (c.state == State.UNTOUCHED) {
				s = c;
			}
		}
		copying = s;
		return s;
	}

	private void issueChunk(Snap s) throws ReplayException {
		if (s.issued == 0) {
			if (s.cowEvent >= 0) {
				dev.waitEvent(copier, s.cowEvent); // the CoW copy must have landed
			} else {
				change(s, State.COPYING, host());
			}
		}
		long n = Math.min(o.chunkBytes(), s.size - s.issued);
		Stamp a = ev(copier);
		if (restoring) {
			image.copyOut(s.buffer, s.issued, s.device + s.issued, n, copier);
		} else {
			image.copyIn(s.buffer, s.issued, s.source + s.issued, n, copier);
		}
		Stamp b = ev(copier);
		s.issued += n;
		s.lastChunkEvent = b.event();
		s.chunksPending++;
		inFlight.addLast(new Chunk(s, a.event(), b.event(), n));
		copied(a, b, n);
		intervals.add(restoring
				? new PendingInterval(Lane.CR_RESTORE_H2D, a, b, "restore buf " + s.buffer, TimelineInterval.RESTORE,
						s.buffer, n, -1)
				: new PendingInterval(Lane.CR_COMMIT_D2H, a, b, "commit buf " + s.buffer, TimelineInterval.COMMIT,
						s.buffer, n, -1));
	}

	private void retire(Chunk c) {
		Snap s = c.snap();
		s.chunksPending--;
		if (s.chunksPending == 0 && s.issued == s.size && s.state != State.COMMITTED) {
			change(s, State.COMMITTED, new Stamp(c.endEvent(), -1));
		}
	}

	private void drainCopier() throws ReplayException {
		while (true) {
			pump();
			if (inFlight.isEmpty() && nextToCopy() == null) {
				break;
			}
			Thread.onSpinWait();
		}
		dev.synchronize(copier);
	}

	private void finishCopier() throws ReplayException {
		if (!active) {
			return;
		}
		drainCopier();
		active = false;
		markers.add(new PendingMarker(lastCopy == null ? host() : lastCopy,
				restoring ? "restore complete" : "checkpoint complete"));
	}

	// ---- the application's operations

	private void execute(Operation op) throws ReplayException {
		int e = (int) op.index();
		Stamp a = null;
		boolean timed = op.kind() == OperationKind.LAUNCH || op.kind() == OperationKind.COPY
				|| op.kind() == OperationKind.SET;
		if (timed) {
			a = ev(app);
			if (restoring && firstKernelAfterRestore == null && op.kind() == OperationKind.LAUNCH) {
				firstKernelAfterRestore = a;
			}
		}
		switch (op.kind()) {
			case ALLOC -> {
				long base = dev.allocate(op.bytes());
				placements.add(new LiveRunResult.Placement(op.buffer(), base, op.bytes()));
				address.put(op.buffer(), base);
				size.put(op.buffer(), op.bytes());
				// the buffer's recorded address (a CUDA array's is its handle: i16-rec, the event is not an Alloc)
				recordedBase.put(op.buffer(), op.address());
				relocation.map(op.address(), op.bytes(), base);
				if (active && o.mode() == Mode.SOFT_RECOPY) {
					dirty.add(op.buffer()); // allocated after the instant: not in the pre-copy
				}
			}
			case FREE -> {
				Long base = address.remove(op.buffer());
				size.remove(op.buffer());
				Long rec = recordedBase.remove(op.buffer());
				if (rec != null) {
					relocation.unmap(rec);
				}
				Snap s = snaps.get(op.buffer());
				if (base != null) {
					if (active && s != null && s.state != State.COMMITTED) {
						deferredFrees.add(base); // its image is not taken yet
					} else {
						waitFor(ev(app).event());
						dev.free(base);
					}
				}
			}
			case COPY -> copy(op, e);
			case SET -> {
				BufferRange t = op.writes().isEmpty() ? null : op.writes().get(0);
				if (t != null) {
					int es = Math.max(1, trace.memsetElementSize(e));
					dev.fill(address.get(t.buffer()) + t.begin(), trace.memsetValue(e), es, t.length() / es, app);
				}
			}
			case LAUNCH -> launch(op, e);
			case STREAM_SYNC, DEVICE_SYNC, EVENT_SYNC -> waitFor(ev(app).event());
			default -> {
				// event record and wait: the application's operations run on one stream in issue order
			}
		}
		if (op.kind() == OperationKind.LAUNCH) {
			launches++;
		}
		if (timed && sink.wantsApplicationIntervals()) {
			Stamp b = ev(app);
			String category = op.kind() == OperationKind.LAUNCH ? TimelineInterval.KERNEL
					: op.kind() == OperationKind.COPY ? TimelineInterval.COPY : TimelineInterval.SET;
			intervals.add(new PendingInterval(Lane.FIRST_STREAM + op.stream(), a, b, op.label(), category, -1,
					op.bytes(), op.index()));
		}
	}

	private void copy(Operation op, int e) throws ReplayException {
		CopyDirection d = op.direction();
		if (d == CopyDirection.HOST_TO_DEVICE && !op.writes().isEmpty()) {
			BufferRange w = op.writes().get(0);
			long dst = address.get(w.buffer()) + w.begin();
			long bytes = w.length();
			int captured = (int) Math.min(trace.payloadLength(e), bytes);
			if (captured > 0) {
				byte[] data = new byte[trace.payloadLength(e)];
				trace.copyPayload(e, data, 0);
				relocation.relocateWords(data, 0, captured, trace.dst(e));
				dev.copyToDevice(dst, data, 0, captured, app);
			}
			if (captured < bytes) {
				dev.fill(dst + captured, 0, 1, bytes - captured, app);
			}
		} else if (d == CopyDirection.DEVICE_TO_DEVICE && !op.writes().isEmpty() && !op.reads().isEmpty()) {
			BufferRange w = op.writes().get(0);
			BufferRange r = op.reads().get(0);
			long n = Math.min(w.length(), r.length());
			dev.copyOnDevice(address.get(w.buffer()) + w.begin(), address.get(r.buffer()) + r.begin(), n, app);
		}
		// device-to-host and host-to-host copies change no device state; in reference runs those after the instant
		// are read back and kept (the restore check compares them with an uninterrupted run's)
		if (d == CopyDirection.DEVICE_TO_HOST && o.reference() && pastInstant && !op.reads().isEmpty()) {
			BufferRange r = op.reads().get(0);
			if (readBackBytes + r.length() > READ_BACK_LIMIT) {
				note("device-to-host copies beyond " + READ_BACK_LIMIT + " bytes after the instant are not kept");
			} else {
				byte[] data = new byte[(int) r.length()];
				dev.copyToHost(address.get(r.buffer()) + r.begin(), data, 0, data.length);
				readBacks.add(new LiveRunResult.ReadBack(op.index(), r.buffer(), r.begin(), data));
				readBackBytes += data.length;
			}
		}
	}

	private void launch(Operation op, int e) throws ReplayException {
		LaunchPlan plan = planner.plan(op);
		PtxFunction fn = plan.ptx();
		if (fn == null) {
			surrogateLaunches++;
			dev.spin(plan.durationNs(), app);
			for (BufferRange w : plan.writes()) {
				Long base = address.get(w.buffer());
				if (base != null) {
					dev.surrogateWrite(base + w.begin(), w.length(), e, w.begin(), app);
				}
			}
			return;
		}
		Long m = modules.get(plan.moduleId());
		if (m == null) {
			m = dev.loadModule(planner.ptx(plan.moduleId()));
			modules.put(plan.moduleId(), m);
		}
		FunctionInfo f = trace.functionById(trace.functionId(e));
		String key = plan.moduleId() + "/" + fn.name();
		Long h = functions.get(key);
		if (h == null) {
			h = dev.function(m, fn.name());
			functions.put(key, h);
		}
		byte[] params = new byte[(int) Math.max(trace.paramLength(e), fn.paramBufferSize())];
		trace.copyParams(e, params, 0);
		relocation.relocateWords(params, 0, trace.paramLength(e), 0);
		List<byte[]> split = new ArrayList<>(fn.params().size());
		for (PtxParam p : fn.params()) {
			byte[] b = new byte[(int) p.size()];
			System.arraycopy(params, (int) p.offset(), b, 0, b.length);
			split.add(b);
		}
		dev.launch(h, trace.grid(e), trace.block(e), trace.sharedMem(e), app, split);
		realLaunches++;
		if (f == null) {
			note("event " + e + ": function unknown");
		}
	}

	// ---- the report

	private long resolve(Stamp s) throws ReplayException {
		if (s.event() >= 0) {
			return Math.round(dev.elapsedMs(t0Event, s.event()) * 1e6);
		}
		return s.hostNs() - hostT0;
	}

	private LiveRunResult report(Stamp appEndStamp) throws ReplayException {
		Map<Integer, Lane> lanes = new TreeMap<>();
		lanes.put(Lane.HOST, new Lane(Lane.HOST, "host (API calls)", LaneKind.APPLICATION));
		for (PendingInterval p : intervals) {
			lanes.computeIfAbsent(p.lane(), id -> switch (id) {
				case Lane.CR_COW_D2D -> new Lane(id, "C/R CoW D2D", LaneKind.CHECKPOINT_RESTORE);
				case Lane.CR_COMMIT_D2H -> new Lane(id, "C/R commit D2H", LaneKind.CHECKPOINT_RESTORE);
				case LANE_FALLBACK_D2H -> new Lane(id, restoring ? "C/R restore on demand H2D" : "C/R stop-and-copy D2H",
						LaneKind.CHECKPOINT_RESTORE);
				case Lane.CR_RESTORE_H2D -> new Lane(id, "C/R restore H2D", LaneKind.CHECKPOINT_RESTORE);
				default -> new Lane(id, "stream " + (id - Lane.FIRST_STREAM), LaneKind.APPLICATION);
			});
		}
		lanes.values().forEach(sink::lane);
		Map<String, Long> bytesPerLane = new TreeMap<>();
		for (PendingInterval p : intervals) {
			long s = resolve(p.start());
			long en = Math.max(s, resolve(p.end()));
			sink.interval(new TimelineInterval(p.lane(), s, en, p.label(), p.category(), p.buffer(), p.bytes(),
					p.opIndex()));
			if (p.lane() < Lane.FIRST_STREAM) {
				bytesPerLane.merge(lanes.get(p.lane()).name(), p.bytes(), Long::sum);
			}
		}
		Map<StallCause, Long> byCause = new EnumMap<>(StallCause.class);
		long total = 0;
		long longest = 0;
		int stallCount = 0;
		for (PendingStall p : stalls) {
			long s = resolve(p.start());
			long en = Math.max(s, resolve(p.end()));
			if (en == s) {
				continue;
			}
			sink.stall(new StallInterval(Lane.HOST, s, en, p.cause(), p.buffer(), p.opIndex()));
			byCause.merge(p.cause(), en - s, Long::sum);
			total += en - s;
			stallCount++;
			longest = Math.max(longest, en - s);
		}
		for (PendingMarker m : markers) {
			sink.marker(new Marker(resolve(m.at()), m.label(), 0));
		}
		for (PendingState p : states) {
			sink.bufferState(new BufferStateChange(resolve(p.at()), p.buffer(), p.from(), p.to(), 0));
		}
		long appEnd = resolve(appEndStamp);
		long completed = lastCopy == null ? (checkpointed ? resolve(drained) : -1) : resolve(lastCopy);
		List<CheckpointSummary> cps = new ArrayList<>();
		for (PendingSummary p : summaries) {
			cps.add(new CheckpointSummary(p.number(), resolve(p.requested()), resolve(p.drained()),
					p.completed() == null ? -1 : resolve(p.completed()), p.buffers(), p.bytes(), p.cow(), p.cowBytes(),
					p.fallbacks(), p.fallbackBytes(), p.dirtyBytes(), p.recopyBytes(), 0, p.peakBudget()));
		}
		if (summaries.isEmpty() && checkpointed && requested != null && drained != null) {
			long snapBytes = snaps.values().stream().mapToLong(s -> s.size).sum();
			cps.add(new CheckpointSummary(0, resolve(requested), resolve(drained), completed, snaps.size(), snapBytes,
					cowCount, cowBytes, budgetFallbacks + validationFallbacks,
					budgetFallbackBytes + validationBytes, 0, 0, 0, poolUsed));
		}
		long restoreAt = restoreStart == null ? -1 : resolve(restoreStart);
		long firstKernel = restoreAt < 0 || firstKernelAfterRestore == null ? -1
				: resolve(firstKernelAfterRestore) - restoreAt;
		long fullState = restoreAt < 0 || lastCopy == null ? -1 : Math.max(0, resolve(lastCopy) - restoreAt);
		if (restoring) {
			cps.clear(); // a restore, not a checkpoint
		}
		SimulationMetrics m = new SimulationMetrics(o.mode().policyName(), "live: " + dev.deviceName(), operations,
				launches, appEnd, -1, Math.max(appEnd, completed), total, longest, stallCount, byCause, cps, restoreAt,
				firstKernel, fullState, 0, bytesPerLane, cowCount, cowBytes,
				new ConsistencyReport(false, observedLaunches, List.of(), 0));
		long busy = firstCopy == null || lastCopy == null ? 0 : resolve(lastCopy) - resolve(firstCopy);
		Map<Integer, Long> addresses = new TreeMap<>();
		for (Snap x : snaps.values()) {
			addresses.put(x.buffer, x.device);
		}
		if (imageAddresses != null && o.mode() == Mode.SOFT_RECOPY) {
			addresses = imageAddresses;
		}
		LiveImage img = image;
		LiveImage ref = reference;
		if (!rounds.isEmpty()) { // the first checkpoint's image is the result's; every one is in rounds
			img = rounds.get(0).image();
			ref = rounds.get(0).reference();
			if (o.mode() == Mode.REPEATED) {
				Map<Integer, Long> first = new TreeMap<>();
				// the first round's addresses: the buffers live then are those its image holds
				for (Integer b : img.regions().keySet()) {
					for (LiveRunResult.Placement p : placements) {
						if (p.buffer() == b) {
							first.put(b, p.address());
						}
					}
				}
				addresses = first;
			}
		}
		return new LiveRunResult(m, img, ref, realLaunches, surrogateLaunches, validationFallbacks,
				unvalidated, copyBytes, busy, notes, addresses, placements, readBacks, rounds);
	}
}
