package org.phos.workbench.internal.trace.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** Varints of every length decode to what was encoded, on the fast path (enough bytes left) and the slow one. */
class VarintTest {
    @Test
    void everyLengthBothPaths() throws WireFormatException {
        SplittableRandom rnd = new SplittableRandom(5);
        long[] values = new long[2000];
        for (int k = 0; k < 64; k++) {
            values[3 * k] = 1L << k;
            values[3 * k + 1] = (1L << k) - 1;
            values[3 * k + 2] = -(1L << k);
        }
        for (int k = 192; k < values.length; k++) {
            values[k] = rnd.nextLong() >>> rnd.nextInt(64);
        }
        for (long v : values) {
            ProtoWriter w = new ProtoWriter(16);
            w.rawVarint(v);
            int n = w.len;
            // slow path: exactly the varint's bytes
            assertEquals(v, new ProtoReader(w.buf, 0, n).varint(), Long.toHexString(v));
            // fast path: padding after the varint
            byte[] padded = java.util.Arrays.copyOf(w.buf, n + 12);
            ProtoReader r = new ProtoReader(padded, 0, padded.length);
            assertEquals(v, r.varint(), Long.toHexString(v));
            assertEquals(n, r.pos);
        }
    }

    @Test
    void overlongAndTruncatedVarintsAreRejected() {
        byte[] overlong = new byte[20];
        java.util.Arrays.fill(overlong, (byte) 0xff);
        assertThrows(WireFormatException.class, () -> new ProtoReader(overlong, 0, overlong.length).varint());
        assertThrows(WireFormatException.class, () -> new ProtoReader(overlong, 0, 5).varint());
    }
}
