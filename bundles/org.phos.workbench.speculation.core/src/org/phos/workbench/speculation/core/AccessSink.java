package org.phos.workbench.speculation.core;

/**
 * Receives the accesses an engine speculates for one launch, as primitives so that speculating allocates nothing.
 * An engine may report the same allocation several times (two parameters pointing into it, a read range and a write
 * range); consumers merge. The bits of {@code mode} are {@link SpeculatedAccess#READ}, {@link SpeculatedAccess#WRITE},
 * {@link SpeculatedAccess#INDIRECT} and {@link SpeculatedAccess#WHOLE_ALLOCATION}.
 */
@FunctionalInterface
public interface AccessSink {

	/**
	 * @param allocationId the live allocation's id (the event index of its Alloc event)
	 * @param allocationBase its base address, as observed accesses name it
	 * @param begin first byte speculated (absolute device address, inside the allocation)
	 * @param end one past the last byte speculated
	 * @param mode bit set of READ, WRITE, INDIRECT, WHOLE_ALLOCATION
	 * @param paramIndex the kernel parameter the pointer came from, -1 when not from a parameter (indirect)
	 * @param paramOffset the byte offset of the pointer in the parameter buffer, -1 when not from a parameter
	 */
	void access(long allocationId, long allocationBase, long begin, long end, int mode, int paramIndex,
			int paramOffset);
}
