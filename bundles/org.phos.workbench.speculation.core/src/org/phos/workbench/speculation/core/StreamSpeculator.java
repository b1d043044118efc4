package org.phos.workbench.speculation.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToLongFunction;

/**
 * Speculation of a stream that is still being recorded, fed each event exactly once, in stream order, for the whole
 * attach: one set of engines and one device state (live allocations, the pointers copied into device memory) live as
 * long as the attach, as they live for one walk of a saved trace. So every engine of the catalog, {@code best} and
 * any {@code X+modifier} included, says of each launch what a walk of the saved stream says ({@link TraceSpeculator}):
 * {@code +indirect} follows pointer tables copied long before the launch (a live window no longer holds those
 * copies), {@code phos} remembers each function's first launch, {@code ptx-flow} analyses each function once per
 * attach (by function id: a live stream's ids are the recorder's, the same in every generation).
 * <p>
 * A live stream is published as generations (immutable snapshots of a bounded window); {@link #feed} is given each
 * generation and the index of its first event not fed before, and walks the events from there (the window's events
 * are never replayed again). The events are read from the generations they came in ({@code StreamTrace}); what is kept
 * in between is bounded: the live allocations (base, size, kind), the stored pointers of live allocations
 * ({@link StoredPointers}, compacted as copies replace them), the generations since the last launch, and the
 * engines' own caches (per function; {@code +indirect}'s per-launch sets, cleared when large). {@link #state} says how
 * much. Thread-safe (calls are serialized).
 */
public final class StreamSpeculator {

	/** What the speculator holds, for the status line and the benchmark. */
	public record State(long eventsFed, long launchesFed, int liveAllocations, int allocationRecords,
			int pointerTables, int pointerWords, int pointerRegions, long pointerBytes, int generationsHeld) {
	}

	private final List<String> specs;
	private final StreamTrace stream = new StreamTrace();
	private final List<SpeculationEngine> engines;
	private final TraceSpeculator walker;
	private long launchesFed;
	private int lastLaunch = -1;

	/**
	 * @param catalog where the engines come from
	 * @param specs the engines, as {@link EngineCatalog#create} names them ({@code best}, {@code arg-scan+indirect}, ...)
	 * @throws IllegalArgumentException for a name the catalog does not know
	 */
	public StreamSpeculator(EngineCatalog catalog, List<String> specs) {
		this.specs = List.copyOf(specs);
		List<SpeculationEngine> made = new ArrayList<>();
		for (String s : specs) {
			made.add(catalog.create(s, stream));
		}
		this.engines = List.copyOf(made);
		this.walker = TraceSpeculator.growing(stream, made.stream().anyMatch(SpeculationEngine::usesStoredPointers));
	}

	/** @return the engines' specifications, in the order of {@link #engines()} */
	public List<String> specs() {
		return specs;
	}

	/** @return the engines, one instance each for the whole attach (not to be called outside a visitor) */
	public List<SpeculationEngine> engines() {
		return engines;
	}

	/**
	 * Feeds the events of {@code generation} from {@code fromEvent} on, in order, and hands each launch among them to
	 * the visitor (which runs {@link #engines()} on it; every engine must be given every launch).
	 *
	 * @param generation the newest generation of the stream
	 * @param fromEvent its first event not fed before (the events before it must have been)
	 * @param launchNumber the stream's number of each launch of the generation (by its launch index); a launch's
	 *        {@link LaunchContext#launchIndex()} is that number
	 * @param visitor called for each launch, with the state just before it
	 * @throws IllegalArgumentException when {@code fromEvent} is outside the generation
	 */
	public synchronized void feed(org.phos.workbench.trace.core.Trace generation, int fromEvent,
			IntToLongFunction launchNumber, TraceSpeculator.LaunchVisitor visitor) {
		if (fromEvent < 0 || fromEvent > generation.eventCount()) {
			throw new IllegalArgumentException("event " + fromEvent + " is outside the generation's "
					+ generation.eventCount());
		}
		if (fromEvent == generation.eventCount()) {
			return;
		}
		stream.append(generation, fromEvent, launchNumber);
		walker.advance(stream.eventCount(), launch -> {
			lastLaunch = launch.event();
			launchesFed++;
			visitor.launch(launch);
		});
		stream.fed(lastLaunch);
	}

	/** @return what is held now */
	public synchronized State state() {
		StoredPointers p = walker.storedPointers();
		return new State(stream.eventCount(), launchesFed, walker.liveAllocations(), stream.allocationRecords(),
				p.allocationCount(), p.pointerWords(), p.regionCount(), p.footprintBytes(), stream.segmentsHeld());
	}
}
