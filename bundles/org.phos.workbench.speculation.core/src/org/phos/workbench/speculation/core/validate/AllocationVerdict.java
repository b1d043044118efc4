package org.phos.workbench.speculation.core.validate;

/**
 * One engine's verdict for one launch and one allocation, with the byte counts behind it.
 *
 * @param launchEvent event index of the launch
 * @param functionId the launched function
 * @param allocationBase the allocation's base address
 * @param verdict the verdict
 * @param speculatedBytes bytes speculated (read or written)
 * @param observedBytes bytes observed (read or written)
 * @param usefulBytes observed bytes that were speculated
 * @param missedWriteBytes observed written bytes not speculated as written
 * @param missedReadBytes observed read bytes not speculated as read
 * @param indirect the engine reached the allocation only through stored pointers
 * @param speculatedReadBytes bytes speculated read (i15-val)
 * @param speculatedWrittenBytes bytes speculated written
 * @param observedReadBytes bytes observed read
 * @param observedWrittenBytes bytes observed written
 */
public record AllocationVerdict(int launchEvent, int functionId, long allocationBase, AccessVerdict verdict,
		long speculatedBytes, long observedBytes, long usefulBytes, long missedWriteBytes, long missedReadBytes,
		boolean indirect, long speculatedReadBytes, long speculatedWrittenBytes, long observedReadBytes,
		long observedWrittenBytes) {

	/** @return whether both sides name the pair with the same direction class (read only, write only, read-write) */
	public boolean directionMatches() {
		return (speculatedReadBytes > 0) == (observedReadBytes > 0)
				&& (speculatedWrittenBytes > 0) == (observedWrittenBytes > 0);
	}
}
