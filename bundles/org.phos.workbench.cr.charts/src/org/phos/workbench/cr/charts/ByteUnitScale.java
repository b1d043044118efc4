package org.phos.workbench.cr.charts;

/**
 * A binary unit for a byte axis chosen from the largest value shown (B, KiB, MiB, GiB).
 *
 * @param label unit symbol
 * @param bytes bytes per unit
 */
public record ByteUnitScale(String label, double bytes) {

    public static ByteUnitScale forMax(long maxBytes) {
        if (maxBytes >= 2L << 30) {
            return new ByteUnitScale("GiB", 1L << 30);
        }
        if (maxBytes >= 2L << 20) {
            return new ByteUnitScale("MiB", 1L << 20);
        }
        if (maxBytes >= 2L << 10) {
            return new ByteUnitScale("KiB", 1L << 10);
        }
        return new ByteUnitScale("B", 1);
    }

    public double of(long b) {
        return b / bytes;
    }
}
