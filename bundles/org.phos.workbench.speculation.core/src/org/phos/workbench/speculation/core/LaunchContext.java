package org.phos.workbench.speculation.core;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.replay.ReplayEngine;

/**
 * What an engine sees of one launch: the launch's fields, and the device state just before it (the live
 * allocations and the pointers copied into device memory). One instance is reused for every launch of a walk, so
 * engines must not keep it. Allocations are named by id, the event index of their Alloc event; their base, size and
 * kind come from the trace.
 */
public final class LaunchContext {

	private final Trace trace;
	private final ReplayEngine replay;
	private final StoredPointers storedPointers;
	private final FunctionInfo[] functionsById;
	private int event;
	private int launchIndex;
	private int functionId;
	private byte[] params = new byte[256];
	private int paramsCopiedFor = -1;
	private int paramLength = -1;
	/** The allocation {@link #findAllocation} found last, with its range, so that its base and size cost nothing. */
	private long lastId = -1;
	private final long[] lastRange = new long[2];
	/** [liveLow, liveLow + liveSpan) holds every live allocation: addresses outside are rejected before searching. */
	private long liveLow;
	private long liveSpan;
	/**
	 * The kind of each allocation by id (its Alloc's event index), as {@code ordinal + 1}, 0 before the walk passes
	 * it: a byte per event, filled as the walk passes each Alloc, so that a launch's lookups of kinds read one byte
	 * (a cache of a fixed size missed for every allocation older than its size in events, and then read the trace's
	 * columns).
	 */
	private final byte @Nullable [] kinds;
	private static final AllocKind[] KINDS = AllocKind.values();
	private static final java.lang.invoke.VarHandle LONG_LE = java.lang.invoke.MethodHandles
			.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

	LaunchContext(Trace trace, ReplayEngine replay, StoredPointers storedPointers) {
		this(trace, replay, storedPointers, true);
	}

	/**
	 * @param cacheKinds whether to keep the kinds table (a byte per event: worth it for a walk of the whole trace;
	 *        a walk from a keyframe to one launch reads the trace's column instead of zeroing megabytes)
	 */
	LaunchContext(Trace trace, ReplayEngine replay, StoredPointers storedPointers, boolean cacheKinds) {
		this.trace = trace;
		this.replay = replay;
		this.storedPointers = storedPointers;
		this.kinds = cacheKinds ? new byte[trace.eventCount()] : null;
		int maxId = 0;
		for (FunctionInfo f : trace.functions()) {
			maxId = Math.max(maxId, f.id());
		}
		functionsById = new FunctionInfo[maxId + 1];
		for (FunctionInfo f : trace.functions()) {
			if (f.id() >= 0) {
				functionsById[f.id()] = f;
			}
		}
	}

	void moveTo(int launchEvent) {
		event = launchEvent;
		launchIndex = trace.launchIndex(launchEvent);
		functionId = trace.functionId(launchEvent);
		paramLength = -1;
		lastId = -1;
		liveLow = replay.liveLowestBase();
		liveSpan = replay.liveHighestEnd() - liveLow;
	}

	/** @return the trace */
	public Trace trace() {
		return trace;
	}

	/** @return the launch's event index */
	public int event() {
		return event;
	}

	/** @return the launch's dense launch index */
	public int launchIndex() {
		return launchIndex;
	}

	/** @return the launched function's id */
	public int functionId() {
		return functionId;
	}

	/** @return the launched function, or null when the trace lacks it */
	public @Nullable FunctionInfo function() {
		FunctionInfo f = functionId >= 0 && functionId < functionsById.length ? functionsById[functionId] : null;
		// i14-livebest: a live stream's trace learns functions after the walk began (the table is taken at the start)
		return f != null || functionId < 0 ? f : trace.functionById(functionId);
	}

	/** @return the length of the parameter buffer */
	public int paramLength() {
		int length = paramLength;
		if (length < 0) {
			length = trace.paramLength(event);
			paramLength = length;
		}
		return length;
	}

	/**
	 * @param offset byte offset in the parameter buffer
	 * @return the little-endian 64-bit word there (bytes past the end read as 0)
	 */
	public long paramLong(int offset) {
		byte[] bytes = paramBytes(); // copied once per launch, then each word is one load
		if (offset >= 0 && offset <= paramLength()) { // the 8 bytes after the end are zeros
			return wordAt(bytes, offset);
		}
		return trace.paramLong(event, offset);
	}

	/**
	 * The little-endian 64-bit word at {@code offset} of a buffer from {@link #paramBytes()}, for engines that scan
	 * every word in a loop (cheaper there than {@link #paramLong}, whose checks the JIT does not always remove).
	 *
	 * @param paramBytes the buffer {@link #paramBytes()} returned for this launch
	 * @param offset in {@code [0, paramLength()]}
	 * @return the word (bytes past the parameter buffer's end read as 0)
	 */
	public static long wordAt(byte[] paramBytes, int offset) {
		return (long) LONG_LE.get(paramBytes, offset);
	}

	/**
	 * The parameter bytes in a buffer reused from launch to launch: valid up to {@link #paramLength()}, at least 8
	 * zero bytes after that; do not keep or change it.
	 *
	 * @return the buffer
	 */
	public byte[] paramBytes() {
		if (paramsCopiedFor != event) {
			int length = paramLength();
			if (params.length < length + 8) {
				params = new byte[Math.max(length + 8, params.length * 2)];
			}
			trace.copyParams(event, params, 0);
			LONG_LE.set(params, length, 0L); // room for it was made above
			paramsCopiedFor = event;
		}
		return params;
	}

	/**
	 * @param address a device address
	 * @return the id of the live allocation containing it, or -1
	 */
	public long findAllocation(long address) {
		if (Long.compareUnsigned(address - liveLow, liveSpan) >= 0) { // outside every live allocation
			return -1;
		}
		long id = replay.find(address, lastRange);
		if (id >= 0) {
			lastId = id;
		}
		return id;
	}

	/** @return the base address of allocation {@code id} */
	public long allocationBase(long id) {
		return id == lastId ? lastRange[0] : trace.address((int) id);
	}

	/** @return the size of allocation {@code id} */
	public long allocationSize(long id) {
		return id == lastId ? lastRange[1] - lastRange[0] : trace.size((int) id);
	}

	/** @return how allocation {@code id} was made */
	public AllocKind allocationKind(long id) {
		byte[] table = kinds;
		if (table == null) {
			return trace.allocKind((int) id);
		}
		int known = table[(int) id];
		return known != 0 ? KINDS[known - 1] : noteAllocation((int) id);
	}

	/** Reads the kind of the allocation made by event {@code alloc} into the table (the walk calls it per Alloc). */
	AllocKind noteAllocation(int alloc) {
		AllocKind kind = trace.allocKind(alloc);
		byte[] table = kinds;
		if (table != null) {
			table[alloc] = (byte) (kind.ordinal() + 1);
		}
		return kind;
	}

	/** @return the pointers found in host-to-device copy payloads, per destination allocation */
	public StoredPointers storedPointers() {
		return storedPointers;
	}
}
