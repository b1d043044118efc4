package org.phos.workbench.trace.core.replay;

/**
 * One device allocation as replay sees it: its id (the event index of its Alloc event when it comes from a
 * {@link ReplayEngine}), its base address (unsigned) and its size in bytes.
 */
public record Allocation(long id, long base, long size) {

    /** The exclusive end address, {@code base + size}. */
    public long end() {
        return base + size;
    }

    /** Whether {@code address} (unsigned) lies in {@code [base, base + size)}. */
    public boolean contains(long address) {
        return Long.compareUnsigned(address, base) >= 0 && Long.compareUnsigned(address, base + size) < 0;
    }

    @Override
    public String toString() {
        return "Allocation[id=" + id + ", [0x" + Long.toHexString(base) + ", 0x" + Long.toHexString(base + size)
                + "), " + size + " bytes]";
    }
}
