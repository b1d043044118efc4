package org.phos.workbench.internal.speculation.core.engines;

import static org.phos.workbench.speculation.core.SpeculatedAccess.INDIRECT;
import static org.phos.workbench.speculation.core.SpeculatedAccess.READ_WRITE;
import static org.phos.workbench.speculation.core.SpeculatedAccess.WHOLE_ALLOCATION;
import static org.phos.workbench.speculation.core.SpeculatedAccess.WRITE;

import java.util.Arrays;
import java.util.function.LongConsumer;

import org.phos.workbench.speculation.core.AccessSink;
import org.phos.workbench.speculation.core.LaunchContext;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.StoredPointers;
import org.phos.workbench.trace.core.Trace;

/**
 * The {@code +indirect} modifier: adds to another engine's speculation the allocations whose addresses were copied
 * into device memory (captured host-to-device payloads, see {@link StoredPointers}) that the launch can reach: held
 * in an allocation the base engine speculated, or, transitively, in one found that way. Each is a whole allocation,
 * flagged {@link org.phos.workbench.speculation.core.SpeculatedAccess#INDIRECT}, read unless evidence says the kernel
 * may write through such pointers ({@link IndirectDirections}: its PTX, else its signature; read-write when neither
 * tells). This covers pointer
 * tables built on the host (arrays of device pointers, structures of arrays); pointers a kernel writes into memory
 * itself are not visible in a trace. Pointers are followed {@value #MAX_DEPTH} levels deep (a table of tables of
 * buffers): following them further makes every allocation of a pointer-rich heap reachable from every launch.
 */
public final class IndirectEngine extends ModifierEngine {

	/** The suffix naming the modifier. */
	public static final String SUFFIX = "+indirect";
	/** How many levels of stored pointers are followed. */
	public static final int MAX_DEPTH = 2;
	/** i14-livebest: entries of the per-launch sets kept before they are cleared. */
	private static final int SETS_KEPT = 1 << 14;

	/** Allocations queued for expansion this launch, and the generation-stamped sets of queued and emitted ones. */
	private long[] queue = new long[16];
	private int[] queueDepth = new int[16];
	/** i15-val: the direction given to the allocations found through each queued one (that of its root). */
	private int[] queueMode = new int[16];
	private int mode = READ_WRITE;
	private final @org.eclipse.jdt.annotation.Nullable IndirectDirections directions;
	private int queued;
	private int depth;
	private final LongIntMap expanded = new LongIntMap(256);
	private final LongIntMap emitted = new LongIntMap(256);
	/**
	 * i15-val: those of {@link #expanded} and {@link #emitted} done with a written direction: an allocation reached
	 * read-only first and then through a table the kernel writes through is expanded or emitted again, written.
	 */
	private final LongIntMap expandedWritten = new LongIntMap(64);
	private final LongIntMap emittedWritten = new LongIntMap(64);
	private int generation;
	private LaunchContext launch;
	private AccessSink out;
	private final AccessSink forward = this::forward;
	private final LongConsumer follow = this::follow;

	/**
	 * An engine that marks every allocation it finds read-write (no evidence of direction).
	 *
	 * @param base the engine whose accesses are the roots
	 */
	public IndirectEngine(SpeculationEngine base) {
		super(base, SUFFIX);
		this.directions = null;
	}

	/**
	 * @param base the engine whose accesses are the roots
	 * @param trace the trace it will speculate: the kernels' PTX and signatures give the direction of what is found
	 */
	public IndirectEngine(SpeculationEngine base, Trace trace) {
		super(base, SUFFIX);
		this.directions = new IndirectDirections(trace);
	}

	@Override
	public boolean usesStoredPointers() {
		return true;
	}

	@Override
	public boolean speculate(LaunchContext launch, AccessSink sink) {
		StoredPointers stored = launch.storedPointers();
		if (stored.allocationCount() == 0) {
			return base.speculate(launch, sink);
		}
		this.launch = launch;
		this.out = sink;
		// i14-livebest: the generation-stamped sets hold every allocation ever reached; an engine fed a live stream for
		// hours would keep them all, so they start again once large (one launch's reach is far smaller)
		if (++generation == LongIntMap.MISSING || expanded.size() + emitted.size() > SETS_KEPT) {
			generation = 1;
			expanded.clear();
			emitted.clear();
			expandedWritten.clear();
			emittedWritten.clear();
		}
		queued = 0;
		depth = 0;
		boolean covered = base.speculate(launch, forward);
		for (int next = 0; next < queued; next++) {
			depth = queueDepth[next] + 1;
			mode = queueMode[next];
			stored.forEach(queue[next], follow);
		}
		return covered;
	}

	private void forward(long id, long allocationBase, long begin, long end, int access, int param, int offset) {
		out.access(id, allocationBase, begin, end, access, param, offset);
		if (depth < MAX_DEPTH && launch.storedPointers().holdsPointers(id)) {
			IndirectDirections d = directions;
			mode = d == null ? READ_WRITE : d.mode(launch.functionId(), param, offset);
			enqueue(id);
		}
	}

	private void enqueue(long id) {
		boolean written = (mode & WRITE) != 0;
		if (depth >= MAX_DEPTH || expanded.get(id) == generation && (!written || expandedWritten.get(id) == generation)
				|| !launch.storedPointers().holdsPointers(id)) {
			return;
		}
		expanded.put(id, generation);
		if (written) {
			expandedWritten.put(id, generation);
		}
		if (queued == queue.length) {
			queue = Arrays.copyOf(queue, queued * 2);
			queueDepth = Arrays.copyOf(queueDepth, queued * 2);
			queueMode = Arrays.copyOf(queueMode, queued * 2);
		}
		queueDepth[queued] = depth;
		queueMode[queued] = mode;
		queue[queued++] = id;
	}

	private void follow(long pointer) {
		long id = launch.findAllocation(pointer);
		boolean written = (mode & WRITE) != 0;
		if (id < 0 || emitted.get(id) == generation && (!written || emittedWritten.get(id) == generation)) {
			return;
		}
		emitted.put(id, generation);
		if (written) {
			emittedWritten.put(id, generation);
		}
		long b = launch.allocationBase(id);
		out.access(id, b, b, b + launch.allocationSize(id), mode | WHOLE_ALLOCATION | INDIRECT, -1, -1);
		enqueue(id);
	}
}
