package org.phos.workbench.trace.core;

/** A half-open range {@code [begin, end)} of device addresses (unsigned 64-bit values in {@code long}s). */
public record AddressRange(long begin, long end) {
    /** {@code end - begin}. */
    public long length() {
        return end - begin;
    }
}
