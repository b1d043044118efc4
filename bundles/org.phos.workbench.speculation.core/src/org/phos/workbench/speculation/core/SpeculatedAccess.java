package org.phos.workbench.speculation.core;

/**
 * One access an engine predicts for a launch: bytes {@code [begin, end)} of a live allocation, read and/or written.
 * A whole-allocation access means the engine could not tell which bytes; an indirect one was found through a pointer
 * stored in device memory rather than in the parameters.
 *
 * @param allocationId the allocation's id (event index of its Alloc event)
 * @param allocationBase the allocation's base address
 * @param begin first byte (absolute address)
 * @param end one past the last byte
 * @param read whether it may be read
 * @param written whether it may be written
 * @param indirect found through a pointer stored in device memory
 * @param wholeAllocation the engine could not bound the bytes
 * @param paramIndex the parameter the pointer came from, -1 when none
 * @param paramOffset the pointer's byte offset in the parameter buffer, -1 when none
 */
public record SpeculatedAccess(long allocationId, long allocationBase, long begin, long end, boolean read,
		boolean written, boolean indirect, boolean wholeAllocation, int paramIndex, int paramOffset) {

	/** Mode bit: the bytes may be read. */
	public static final int READ = 1;
	/** Mode bit: the bytes may be written. */
	public static final int WRITE = 2;
	/** Mode bit: the allocation was reached through a pointer stored in device memory. */
	public static final int INDIRECT = 4;
	/** Mode bit: the engine could not bound the bytes and speculates the whole allocation. */
	public static final int WHOLE_ALLOCATION = 8;
	/** Read and write. */
	public static final int READ_WRITE = READ | WRITE;

	/** @return the access a sink received */
	public static SpeculatedAccess of(long allocationId, long allocationBase, long begin, long end, int mode,
			int paramIndex, int paramOffset) {
		return new SpeculatedAccess(allocationId, allocationBase, begin, end, (mode & READ) != 0,
				(mode & WRITE) != 0, (mode & INDIRECT) != 0, (mode & WHOLE_ALLOCATION) != 0, paramIndex, paramOffset);
	}

	/** @return the number of bytes speculated */
	public long length() {
		return end - begin;
	}

	/** @return "R", "W", "RW" or "-" */
	public String direction() {
		return direction((read ? READ : 0) | (written ? WRITE : 0));
	}

	/** @return "R", "W", "RW" or "-" for the direction bits of a mode */
	public static String direction(int mode) {
		return switch (mode & READ_WRITE) {
			case READ -> "R";
			case WRITE -> "W";
			case READ_WRITE -> "RW";
			default -> "-";
		};
	}

	@Override
	public String toString() {
		return "alloc " + allocationId + " [0x" + Long.toHexString(begin) + ", 0x" + Long.toHexString(end) + ") "
				+ direction() + (wholeAllocation ? " whole" : "") + (indirect ? " indirect" : "")
				+ (paramIndex >= 0 ? " param " + paramIndex + "@" + paramOffset : "");
	}
}
