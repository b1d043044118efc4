package org.phos.workbench.speculation.core;

import java.util.List;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.CopyKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.replay.ReplayEngine;
import org.phos.workbench.trace.core.replay.ReplayWarning;

/**
 * Walks a trace's events in issue order keeping the device state engines speculate against, and hands each launch
 * to a visitor, which runs the engines it wants on it. The state is the live allocation set (a
 * {@link ReplayEngine}) and, when asked for, the pointers found in captured host-to-device copy payloads
 * ({@link StoredPointers}). Engines keep per-trace state, so a visitor must give every engine every launch.
 * <p>
 * Usage: {@code new TraceSpeculator(trace, true).run(monitor, launch -> engine.speculate(launch, sink))}.
 */
public final class TraceSpeculator {

	/** Receives each launch, with the state just before it. */
	@FunctionalInterface
	public interface LaunchVisitor {
		/** @param launch the launch; reused for the next one, do not keep it */
		void launch(LaunchContext launch);
	}

	private final Trace trace;
	private final boolean trackStoredPointers;
	private final ReplayEngine replay;
	private final StoredPointers storedPointers = new StoredPointers();
	private final LaunchContext context;
	private final java.util.function.LongUnaryOperator liveFind;
	/** The engines shown the skipped launches of a part: the first launch of each function, or (the second) all. */
	private final List<SpeculationEngine> rememberFirst;
	private final List<SpeculationEngine> rememberEvery;
	/** Random access to the state, or null to walk from the start. */
	private final @Nullable SpeculationKeyframes keyframes;
	private byte[] payload = new byte[4096];
	/** [liveLow, liveLow + liveSpan) holds every live allocation while a copy payload is scanned. */
	private long liveLow;
	private long liveSpan;

	/**
	 * @param trace the trace to walk
	 * @param trackStoredPointers whether to record copy payloads (engines that report
	 *        {@link SpeculationEngine#usesStoredPointers()} need it)
	 */
	public TraceSpeculator(Trace trace, boolean trackStoredPointers) {
		this(trace, trackStoredPointers, List.of(), null, oneWay(trace));
	}

	/**
	 * The replay of a walker without keyframes: it only ever steps forward, so it keeps no checkpoints (each one
	 * snapshots the live set and makes later changes copy blocks, for seeks that never come).
	 */
	private static ReplayEngine oneWay(Trace trace) {
		return new ReplayEngine(trace, Integer.MAX_VALUE);
	}

	/** The walker {@link SpeculationKeyframes#build} drives with its own replay. */
	TraceSpeculator(Trace trace, boolean trackStoredPointers, ReplayEngine replay) {
		this(trace, trackStoredPointers, List.of(), null, replay);
	}

	private TraceSpeculator(Trace trace, boolean trackStoredPointers, List<SpeculationEngine> remembering,
			@Nullable SpeculationKeyframes keyframes, ReplayEngine replay) {
		this(trace, trackStoredPointers, remembering, keyframes, replay, keyframes == null);
	}

	private TraceSpeculator(Trace trace, boolean trackStoredPointers, List<SpeculationEngine> remembering,
			@Nullable SpeculationKeyframes keyframes, ReplayEngine replay, boolean cacheKinds) {
		this.trace = trace;
		this.trackStoredPointers = trackStoredPointers;
		this.keyframes = keyframes;
		this.replay = replay;
		this.context = new LaunchContext(trace, replay, storedPointers, cacheKinds);
		this.liveFind = this::findLive;
		this.rememberFirst = remembering.stream()
				.filter(e -> e.memory() == SpeculationEngine.Memory.FIRST_LAUNCH_OF_FUNCTION).toList();
		this.rememberEvery = remembering.stream().filter(e -> e.memory() == SpeculationEngine.Memory.EVERY_LAUNCH)
				.toList();
	}

	/**
	 * @return a walker that tracks what the given engines need, and that gives the engines which remember first
	 *         launches ({@link SpeculationEngine#memory()}) those of the launches it skips when it walks a part
	 */
	public static TraceSpeculator forEngines(Trace trace, List<SpeculationEngine> engines) {
		return forEngines(trace, engines, null);
	}

	/**
	 * {@link #forEngines(Trace, List)} that reaches the start of a part through keyframes instead of walking the
	 * events before it: same launches, same engine state, a cost bounded by the keyframe interval (engines that
	 * remember every launch still walk from the start). {@link #replayWarnings()} then covers only the events this
	 * walker replayed.
	 *
	 * @param keyframes the trace's keyframes, or null to walk from the start
	 */
	public static TraceSpeculator forEngines(Trace trace, List<SpeculationEngine> engines,
			@Nullable SpeculationKeyframes keyframes) {
		if (keyframes != null && keyframes.trace() != trace) {
			throw new IllegalArgumentException("keyframes of another trace");
		}
		return new TraceSpeculator(trace, engines.stream().anyMatch(SpeculationEngine::usesStoredPointers),
				engines.stream().filter(e -> e.memory() != SpeculationEngine.Memory.NONE).toList(), keyframes,
				keyframes != null ? keyframes.newReplay() : oneWay(trace));
	}

	// i14-livebest: begin
	/**
	 * A walker over a trace that grows while it is walked (a live stream, {@link StreamSpeculator}): it is moved on
	 * with {@link #advance}, never {@link #run}; it keeps no per-event table (the trace's event count grows).
	 */
	static TraceSpeculator growing(Trace trace, boolean trackStoredPointers) {
		return new TraceSpeculator(trace, trackStoredPointers, List.of(), null, oneWay(trace), false);
	}

	/**
	 * Walks on from where the last call stopped to event {@code end} (a growing walker's trace has grown), each event
	 * once, exactly as {@link #run} walks them.
	 */
	void advance(int end, LaunchVisitor visitor) {
		for (int i = replay.position(); i < end; i++) {
			EventKind kind = trace.kind(i);
			if (kind == EventKind.LAUNCH) {
				context.moveTo(i);
				visitor.launch(context);
			} else {
				keepState(i, kind);
			}
			replay.step();
		}
		storedPointers.compactIfWasteful();
	}

	/** @return the live allocations of the replay at its position */
	int liveAllocations() {
		return replay.liveCount();
	}
	// i14-livebest: end

	/**
	 * Walks every event once, from the start.
	 *
	 * @param monitor progress (in events) and cancellation, may be null
	 * @param visitor called for each launch
	 * @throws OperationCanceledException when cancelled
	 */
	public void run(@Nullable IProgressMonitor monitor, LaunchVisitor visitor) {
		run(monitor, 0, trace.launchCount(), visitor);
	}

	/**
	 * Walks the part of the trace that holds launches {@code [fromLaunch, toLaunch)} (by launch index) and calls the
	 * visitor for those launches only. The events before the part are replayed first (allocations, and copy payloads
	 * when tracked) without calling the visitor; engines from {@link #forEngines} that remember first launches are
	 * given the first launch of each function among them (with a sink that drops what they emit), so that on the
	 * part's first launch every engine is in the state a walk from the start would have left it in. This is what lets
	 * {@link PartedSpeculation} walk the parts of a trace on several threads.
	 *
	 * @param monitor progress (in events of the part) and cancellation, may be null
	 * @param fromLaunch the part's first launch index
	 * @param toLaunch past its last
	 * @param visitor called for each launch of the part
	 * @throws OperationCanceledException when cancelled
	 */
	public void run(@Nullable IProgressMonitor monitor, int fromLaunch, int toLaunch, LaunchVisitor visitor) {
		if (replay.position() != 0) {
			throw new IllegalStateException("a TraceSpeculator walks its trace once");
		}
		int launches = trace.launchCount();
		if (fromLaunch < 0 || toLaunch > launches || fromLaunch > toLaunch) {
			throw new IllegalArgumentException("launches [" + fromLaunch + ", " + toLaunch + ") are not within the "
					+ launches + " of the trace");
		}
		int from = fromLaunch == launches ? trace.eventCount() : trace.launchEvent(fromLaunch);
		int events = toLaunch == launches ? trace.eventCount() : trace.launchEvent(toLaunch);
		// driven directly: SubMonitor needs OSGi classes at run time, and core runs on a plain classpath too
		IProgressMonitor progress = monitor != null ? monitor : new NullProgressMonitor();
		progress.beginTask("Speculating launches", Math.max(1, (events - from) >> 16));
		if (keyframes != null && rememberEvery.isEmpty()) {
			jumpTo(keyframes, from);
		} else {
			skipTo(from, progress);
		}
		for (int i = from; i < events; i++) {
			if (((i - from) & 0xffff) == 0xffff) {
				if (progress.isCanceled()) {
					throw new OperationCanceledException();
				}
				progress.worked(1);
			}
			EventKind kind = trace.kind(i);
			if (kind == EventKind.LAUNCH) {
				context.moveTo(i);
				visitor.launch(context);
			} else {
				keepState(i, kind);
			}
			replay.step();
		}
		progress.done();
	}

	/**
	 * Replays events [0, end) keeping the device state, and shows remembering engines the launches they remember:
	 * the first of each function, or all of them to an engine that remembers every launch.
	 */
	private void skipTo(int end, IProgressMonitor progress) {
		boolean remember = !rememberFirst.isEmpty() || !rememberEvery.isEmpty();
		java.util.BitSet seen = new java.util.BitSet();
		for (int i = 0; i < end; i++) {
			if ((i & 0xfffff) == 0xfffff && progress.isCanceled()) {
				throw new OperationCanceledException();
			}
			EventKind kind = trace.kind(i);
			if (kind == EventKind.LAUNCH) {
				if (remember) {
					int bit = functionBit(trace.functionId(i)); // unknown functions: one entry
					boolean first = !seen.get(bit);
					seen.set(bit);
					if (first || !rememberEvery.isEmpty()) {
						context.moveTo(i);
						if (first) {
							show(rememberFirst);
						}
						show(rememberEvery);
					}
				}
			} else {
				keepState(i, kind);
			}
			replay.step();
		}
	}

	/**
	 * Brings the state to event {@code end} through keyframes: each remembering engine is shown the first launch of
	 * each function before it (in event order, with the state at that launch, as {@link #skipTo} shows them), then
	 * the state is restored from the keyframe before {@code end} and replayed up to it.
	 */
	private void jumpTo(SpeculationKeyframes frames, int end) {
		if (!rememberFirst.isEmpty()) {
			for (int first : frames.firstLaunches()) {
				if (first >= end) {
					break;
				}
				moveStateTo(frames, first);
				context.moveTo(first);
				show(rememberFirst);
			}
		}
		moveStateTo(frames, end);
	}

	/** Replays to event {@code target}, from the keyframe before it when that is nearer than the cursor. */
	private void moveStateTo(SpeculationKeyframes frames, int target) {
		int position = replay.position();
		int k = Math.min(target / frames.interval(), frames.count() - 1);
		int keyframe = k * frames.interval();
		if (target < position || keyframe > position) {
			replay.seek(keyframe);
			if (trackStoredPointers) {
				frames.pointers(k).copyInto(storedPointers);
			}
		}
		for (int i = replay.position(); i < target; i++) {
			EventKind kind = trace.kind(i);
			if (kind != EventKind.LAUNCH) {
				keepState(i, kind);
			}
			replay.step();
		}
	}

	/** The bit {@link #skipTo} marks a function's first launch with: one shared by every unknown function. */
	static int functionBit(int function) {
		return function < 0 ? Integer.MAX_VALUE - 1 : function;
	}

	/** {@link #keepState} for the keyframe builder, which steps the replay itself. */
	void keepStateBeforeStep(int i, EventKind kind) {
		keepState(i, kind);
	}

	/** Lets engines see the launch at the context (what they emit is dropped). */
	private void show(List<SpeculationEngine> engines) {
		for (SpeculationEngine e : engines) {
			e.speculate(context, DISCARD);
		}
	}

	private static final AccessSink DISCARD = (id, base, begin, end, mode, param, offset) -> {
	};

	/** The state kept across a non-launch event, before the replay applies it. */
	private void keepState(int i, EventKind kind) {
		if (kind == EventKind.ALLOC) {
			context.noteAllocation(i);
		} else if (trackStoredPointers) {
			if (kind == EventKind.MEMCPY) {
				recordCopy(i);
			} else if (kind == EventKind.FREE) {
				long id = replay.find(trace.address(i));
				if (id >= 0) {
					storedPointers.forget(id);
				}
			}
		}
	}

	private void recordCopy(int i) {
		int length = trace.payloadLength(i);
		if (length < 8 || trace.copyKind(i) != CopyKind.H2D) {
			return;
		}
		long dst = trace.dst(i);
		long id = replay.find(dst);
		if (id < 0) {
			return;
		}
		if (payload.length < length) {
			payload = new byte[Math.max(length, payload.length * 2)];
		}
		trace.copyPayload(i, payload, 0);
		liveLow = replay.liveLowestBase();
		liveSpan = replay.liveHighestEnd() - liveLow;
		storedPointers.recordCopy(id, dst, payload, length, liveFind);
	}

	/** The live allocation holding a payload word, or -1; words outside every live allocation cost one compare. */
	private long findLive(long address) {
		return Long.compareUnsigned(address - liveLow, liveSpan) < 0 ? replay.find(address) : -1;
	}

	/** @return what replay could not take as recorded (frees of unknown addresses, overlaps) */
	public List<ReplayWarning> replayWarnings() {
		return replay.warnings();
	}

	/** @return the stored pointers as the walk left them */
	public StoredPointers storedPointers() {
		return storedPointers;
	}
}
