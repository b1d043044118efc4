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
		this.trace = trace;
		this.trackStoredPointers = trackStoredPointers;
		this.replay = new ReplayEngine(trace);
		this.context = new LaunchContext(trace, replay, storedPointers);
		this.liveFind = this::findLive;
	}

	/** @return a walker that tracks what the given engines need */
	public static TraceSpeculator forEngines(Trace trace, List<SpeculationEngine> engines) {
		return new TraceSpeculator(trace, engines.stream().anyMatch(SpeculationEngine::usesStoredPointers));
	}

	/**
	 * Walks every event once, from the start.
	 *
	 * @param monitor progress (in events) and cancellation, may be null
	 * @param visitor called for each launch
	 * @throws OperationCanceledException when cancelled
	 */
	public void run(@Nullable IProgressMonitor monitor, LaunchVisitor visitor) {
		if (replay.position() != 0) {
			throw new IllegalStateException("a TraceSpeculator walks its trace once");
		}
		int events = trace.eventCount();
		// driven directly: SubMonitor needs OSGi classes at run time, and core runs on a plain classpath too
		IProgressMonitor progress = monitor != null ? monitor : new NullProgressMonitor();
		progress.beginTask("Speculating launches", Math.max(1, events >> 16));
		for (int i = 0; i < events; i++) {
			if ((i & 0xffff) == 0xffff) {
				if (progress.isCanceled()) {
					throw new OperationCanceledException();
				}
				progress.worked(1);
			}
			EventKind kind = trace.kind(i);
			if (kind == EventKind.LAUNCH) {
				context.moveTo(i);
				visitor.launch(context);
			} else if (kind == EventKind.ALLOC) {
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
			replay.step();
		}
		progress.done();
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
