package org.phos.workbench.speculation.core;

import java.util.List;

/**
 * A way of predicting which bytes of which allocations a kernel launch reads and writes, from what is known before it
 * runs. An instance belongs to one trace (it may remember earlier launches, as {@code phos} remembers each function's
 * first launch, and cache per-function analyses) and must see that trace's launches in order; create one with
 * {@link EngineRegistry#create(String, org.phos.workbench.trace.core.Trace)}. Not thread-safe.
 * <p>
 * For every launch it is given, an engine emits each speculated access into the sink, and says whether it could
 * speak for the launch at all. When an engine cannot bound an access it speculates the whole allocation; when it
 * cannot tell the direction it speculates read-write. An engine never emits an access outside a live allocation.
 */
public interface SpeculationEngine {

	/** @return the name it is registered under (for example {@code arg-scan}) */
	String name();

	/**
	 * Speculates one launch.
	 *
	 * @param launch the launch and the device state just before it
	 * @param sink receives the accesses
	 * @return false when the engine cannot speak for this launch (it then emitted nothing), true otherwise, even when
	 *         it found no access
	 */
	boolean speculate(LaunchContext launch, AccessSink sink);

	/** @return whether it reads {@link LaunchContext#storedPointers()} (the runner then tracks copy payloads) */
	default boolean usesStoredPointers() {
		return false;
	}

	/**
	 * What an engine carries from one launch to later ones, which decides whether a trace can be speculated in
	 * parts on several threads ({@link PartedSpeculation}): each part first walks the launches before it, giving the
	 * engine the ones it remembers, so that it is in the state one walk from the start would have left it in.
	 */
	enum Memory {
		/** Nothing (caches that do not depend on the launches seen are allowed): parts cost nothing extra. */
		NONE,
		/** Something from the first launch of each function ({@code phos}'s scan offsets). */
		FIRST_LAUNCH_OF_FUNCTION,
		/** Anything: the trace is walked in one part. */
		EVERY_LAUNCH
	}

	/**
	 * @return what it remembers of earlier launches; {@link Memory#EVERY_LAUNCH}, the safe answer, unless it says
	 *         less
	 */
	default Memory memory() {
		return Memory.EVERY_LAUNCH;
	}

	/** @return things worth telling the person: modules without PTX, compressed fatbin entries skipped, ... */
	default List<String> notes() {
		return List.of();
	}
}
