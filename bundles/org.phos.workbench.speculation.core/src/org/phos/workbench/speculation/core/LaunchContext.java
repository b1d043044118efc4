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

	LaunchContext(Trace trace, ReplayEngine replay, StoredPointers storedPointers) {
		this.trace = trace;
		this.replay = replay;
		this.storedPointers = storedPointers;
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
		return functionId >= 0 && functionId < functionsById.length ? functionsById[functionId] : null;
	}

	/** @return the length of the parameter buffer */
	public int paramLength() {
		return trace.paramLength(event);
	}

	/**
	 * @param offset byte offset in the parameter buffer
	 * @return the little-endian 64-bit word there (bytes past the end read as 0)
	 */
	public long paramLong(int offset) {
		return trace.paramLong(event, offset);
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
			java.util.Arrays.fill(params, length, Math.min(params.length, length + 8), (byte) 0);
			paramsCopiedFor = event;
		}
		return params;
	}

	/**
	 * @param address a device address
	 * @return the id of the live allocation containing it, or -1
	 */
	public long findAllocation(long address) {
		return replay.find(address);
	}

	/** @return the base address of allocation {@code id} */
	public long allocationBase(long id) {
		return trace.address((int) id);
	}

	/** @return the size of allocation {@code id} */
	public long allocationSize(long id) {
		return trace.size((int) id);
	}

	/** @return how allocation {@code id} was made */
	public AllocKind allocationKind(long id) {
		return trace.allocKind((int) id);
	}

	/** @return the pointers found in host-to-device copy payloads, per destination allocation */
	public StoredPointers storedPointers() {
		return storedPointers;
	}
}
