package org.phos.workbench.speculation.core;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.replay.ReplayEngine;

/**
 * Random access to the state engines speculate against, so that one launch deep in a large trace can be speculated
 * without walking the engines from the start. Built once per trace by one walk ({@link #build}), it keeps, every
 * {@link #interval()} events, a keyframe of what a {@link TraceSpeculator} carries: the live allocations (the
 * {@link ReplayEngine}'s copy-on-write checkpoints) and the pointers stored by host-to-device copies
 * ({@link StoredPointers}, compact copies); and, for engines that remember first launches
 * ({@link SpeculationEngine.Memory#FIRST_LAUNCH_OF_FUNCTION}), the event of each function's first launch.
 * <p>
 * A speculator made with {@link TraceSpeculator#forEngines(Trace, List, SpeculationKeyframes)} then reaches a part's
 * first launch by showing its remembering engines those first launches (each reached from the keyframe before it)
 * and restoring the keyframe before the part, followed by at most {@link #interval()} events of replay: the
 * engines are in exactly the state a walk from the start would have left them in, at a cost bounded by the
 * interval instead of the launch's position. Engines that remember every launch still walk from the start.
 * <p>
 * Immutable once built, and shared by any number of speculators on any threads.
 */
public final class SpeculationKeyframes {

	private final Trace trace;
	private final ReplayEngine replay;
	private final StoredPointers[] pointers;
	private final int[] firstLaunches;
	private final long buildNanos;

	private SpeculationKeyframes(Trace trace, ReplayEngine replay, StoredPointers[] pointers, int[] firstLaunches,
			long buildNanos) {
		this.trace = trace;
		this.replay = replay;
		this.pointers = pointers;
		this.firstLaunches = firstLaunches;
		this.buildNanos = buildNanos;
	}

	/**
	 * Builds the keyframes of a trace in one walk of its events (replay and copy payloads; no engine runs).
	 *
	 * @param trace the trace
	 * @param monitor progress (in events) and cancellation, may be null
	 * @return the keyframes
	 * @throws OperationCanceledException when cancelled
	 */
	public static SpeculationKeyframes build(Trace trace, @Nullable IProgressMonitor monitor) {
		return build(trace, ReplayEngine.DEFAULT_CHECKPOINT_INTERVAL, monitor);
	}

	/**
	 * {@link #build(Trace, IProgressMonitor)} with a chosen distance between keyframes (tests use small ones).
	 *
	 * @param interval events between keyframes, at least 1
	 */
	public static SpeculationKeyframes build(Trace trace, int interval, @Nullable IProgressMonitor monitor) {
		long start = System.nanoTime();
		IProgressMonitor progress = monitor != null ? monitor : new NullProgressMonitor();
		int events = trace.eventCount();
		progress.beginTask("Indexing the replay state", Math.max(1, events >> 16));
		ReplayEngine replay = new ReplayEngine(trace, interval);
		TraceSpeculator walker = new TraceSpeculator(trace, true, replay);
		List<StoredPointers> frames = new ArrayList<>();
		List<Integer> first = new ArrayList<>();
		java.util.BitSet seen = new java.util.BitSet();
		for (int i = 0; i < events; i++) {
			if (i % interval == 0) {
				frames.add(walker.storedPointers().compactCopy());
			}
			if ((i & 0xffff) == 0xffff) {
				if (progress.isCanceled()) {
					throw new OperationCanceledException();
				}
				progress.worked(1);
			}
			EventKind kind = trace.kind(i);
			if (kind == EventKind.LAUNCH) {
				int bit = TraceSpeculator.functionBit(trace.functionId(i));
				if (!seen.get(bit)) {
					seen.set(bit);
					first.add(i);
				}
			} else {
				walker.keepStateBeforeStep(i, kind);
			}
			replay.step();
		}
		if (events % interval == 0) {
			frames.add(walker.storedPointers().compactCopy()); // the state at the end, where a seek may go
		}
		progress.done();
		return new SpeculationKeyframes(trace, replay, frames.toArray(new StoredPointers[0]),
				first.stream().mapToInt(Integer::intValue).toArray(), System.nanoTime() - start);
	}

	/** @return the trace */
	public Trace trace() {
		return trace;
	}

	/** @return events between keyframes */
	public int interval() {
		return replay.checkpointInterval();
	}

	/** @return how many keyframes there are */
	public int count() {
		return pointers.length;
	}

	/** @return how long {@link #build} took, in nanoseconds */
	public long buildNanos() {
		return buildNanos;
	}

	/** A replay engine of its own for a speculator: at position 0, holding every keyframe's allocations. */
	ReplayEngine newReplay() {
		return replay.withCheckpoints();
	}

	/** @return the stored pointers at keyframe {@code k} (event {@code k * interval()}); do not change them */
	StoredPointers pointers(int k) {
		return pointers[k];
	}

	/** @return the event of each function's first launch (unknown functions counted as one), ascending */
	int[] firstLaunches() {
		return firstLaunches;
	}
}
