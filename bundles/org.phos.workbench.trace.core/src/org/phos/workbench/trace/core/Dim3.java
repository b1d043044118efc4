package org.phos.workbench.trace.core;

/** A CUDA launch dimension (grid or block); components are unsigned 32-bit values held in {@code int}s. */
public record Dim3(int x, int y, int z) {
    /** Total count {@code x * y * z} as an unsigned product. */
    public long volume() {
        return Integer.toUnsignedLong(x) * Integer.toUnsignedLong(y) * Integer.toUnsignedLong(z);
    }

    @Override
    public String toString() {
        return "(" + Integer.toUnsignedString(x) + "," + Integer.toUnsignedString(y) + "," + Integer.toUnsignedString(z) + ")";
    }
}
