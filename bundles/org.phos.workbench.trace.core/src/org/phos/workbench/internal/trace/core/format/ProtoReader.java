package org.phos.workbench.internal.trace.core.format;

import java.nio.charset.StandardCharsets;

/**
 * A cursor over protobuf wire data in a byte array, with the bounds checks that keep a damaged payload from
 * reading past its end: every length is checked against what remains before anything is read or allocated.
 */
final class ProtoReader {
    static final int VARINT = 0, I64 = 1, LEN = 2, SGROUP = 3, EGROUP = 4, I32 = 5;

    byte[] buf;
    int pos;
    int limit;

    ProtoReader(byte[] buf, int pos, int limit) {
        this.buf = buf;
        this.pos = pos;
        this.limit = limit;
    }

    void reset(byte[] b, int p, int l) {
        buf = b;
        pos = p;
        limit = l;
    }

    boolean more() {
        return pos < limit;
    }

    /**
     * Reads a varint. The fast path (at least 10 bytes left) decodes without per-byte limit checks, folding the
     * continuation bits out with xor as protobuf-java's CodedInputStream does; the slow path checks every byte.
     */
    long varint() throws WireFormatException {
        int p = pos;
        byte[] b = buf;
        if (limit - p >= 10) {
            long x;
            int y;
            if ((y = b[p++]) >= 0) {
                pos = p;
                return y;
            } else if ((y ^= (b[p++] << 7)) < 0) {
                x = y ^ (~0 << 7);
            } else if ((y ^= (b[p++] << 14)) >= 0) {
                x = y ^ ((~0 << 7) ^ (~0 << 14));
            } else if ((y ^= (b[p++] << 21)) < 0) {
                x = y ^ ((~0 << 7) ^ (~0 << 14) ^ (~0 << 21));
            } else if ((x = y ^ ((long) b[p++] << 28)) >= 0L) {
                x ^= (~0L << 7) ^ (~0L << 14) ^ (~0L << 21) ^ (~0L << 28);
            } else if ((x ^= ((long) b[p++] << 35)) < 0L) {
                x ^= (~0L << 7) ^ (~0L << 14) ^ (~0L << 21) ^ (~0L << 28) ^ (~0L << 35);
            } else if ((x ^= ((long) b[p++] << 42)) >= 0L) {
                x ^= (~0L << 7) ^ (~0L << 14) ^ (~0L << 21) ^ (~0L << 28) ^ (~0L << 35) ^ (~0L << 42);
            } else if ((x ^= ((long) b[p++] << 49)) < 0L) {
                x ^= (~0L << 7) ^ (~0L << 14) ^ (~0L << 21) ^ (~0L << 28) ^ (~0L << 35) ^ (~0L << 42)
                        ^ (~0L << 49);
            } else {
                x ^= ((long) b[p++] << 56);
                x ^= (~0L << 7) ^ (~0L << 14) ^ (~0L << 21) ^ (~0L << 28) ^ (~0L << 35) ^ (~0L << 42)
                        ^ (~0L << 49) ^ (~0L << 56);
                if (x < 0L && b[p++] < 0) {
                    throw new WireFormatException("varint longer than 10 bytes at payload byte " + pos);
                }
            }
            pos = p;
            return x;
        }
        return varintSlow();
    }

    private long varintSlow() throws WireFormatException {
        int p = pos;
        byte[] b = buf;
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p >= limit) {
                throw new WireFormatException("varint runs past the end of the message at payload byte " + p);
            }
            byte x = b[p++];
            result |= (long) (x & 0x7f) << shift;
            if (x >= 0) {
                pos = p;
                return result;
            }
        }
        throw new WireFormatException("varint longer than 10 bytes at payload byte " + pos);
    }

    int tag() throws WireFormatException {
        long t = varint();
        if (t >>> 32 != 0 || (t >>> 3) == 0) {
            throw new WireFormatException("invalid field tag " + t + " at payload byte " + pos);
        }
        return (int) t;
    }

    long fixed64() throws WireFormatException {
        need(8);
        long v = 0;
        for (int k = 7; k >= 0; k--) {
            v = (v << 8) | (buf[pos + k] & 0xff);
        }
        pos += 8;
        return v;
    }

    /** Reads a length prefix and checks the field fits; returns the length. The data starts at {@link #pos}. */
    int length() throws WireFormatException {
        long n = varint();
        if (n < 0 || n > limit - pos) {
            throw new WireFormatException("length-delimited field of " + Long.toUnsignedString(n)
                    + " bytes exceeds the " + (limit - pos) + " bytes left at payload byte " + pos);
        }
        return (int) n;
    }

    byte[] bytes() throws WireFormatException {
        int n = length();
        byte[] r = new byte[n];
        System.arraycopy(buf, pos, r, 0, n);
        pos += n;
        return r;
    }

    String string() throws WireFormatException {
        int n = length();
        String s = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }

    private void need(int n) throws WireFormatException {
        if (limit - pos < n) {
            throw new WireFormatException("field runs past the end of the message at payload byte " + pos);
        }
    }

    /** Skips a field of the given wire type whose tag was just read (protobuf rules for unknown fields). */
    void skip(int tag) throws WireFormatException {
        switch (tag & 7) {
            case VARINT -> varint();
            case I64 -> {
                need(8);
                pos += 8;
            }
            case LEN -> {
                int n = length(); // not "pos += length()": that adds to pos as it was before the length prefix
                pos += n;
            }
            case I32 -> {
                need(4);
                pos += 4;
            }
            case SGROUP -> skipGroup(tag >>> 3, 0);
            default -> throw new WireFormatException("invalid wire type " + (tag & 7) + " at payload byte " + pos);
        }
    }

    private void skipGroup(int field, int depth) throws WireFormatException {
        if (depth > 64) {
            throw new WireFormatException("groups nested too deeply at payload byte " + pos);
        }
        while (true) {
            if (!more()) {
                throw new WireFormatException("unterminated group at payload byte " + pos);
            }
            int t = tag();
            if ((t & 7) == EGROUP) {
                if (t >>> 3 != field) {
                    throw new WireFormatException("mismatched end of group at payload byte " + pos);
                }
                return;
            }
            if ((t & 7) == SGROUP) {
                skipGroup(t >>> 3, depth + 1);
            } else {
                skip(t);
            }
        }
    }
}
