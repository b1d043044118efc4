package org.phos.workbench.internal.trace.core.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer with protobuf wire encoding. Scalar helpers follow proto3: a field holding its default
 * (0, false, empty) is not written.
 */
final class ProtoWriter {
    byte[] buf;
    int len;

    ProtoWriter(int capacity) {
        buf = new byte[capacity];
    }

    void reset() {
        len = 0;
    }

    private void ensure(int n) {
        if (buf.length - len < n) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }

    void rawVarint(long v) {
        ensure(10);
        byte[] b = buf;
        int p = len;
        while ((v & ~0x7FL) != 0) {
            b[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        len = p;
    }

    void tag(int field, int wireType) {
        rawVarint((long) field << 3 | wireType);
    }

    /** uint64 / enum / bool field, omitted when 0. */
    void uint64(int field, long v) {
        if (v != 0) {
            tag(field, ProtoReader.VARINT);
            rawVarint(v);
        }
    }

    /** uint32 field, omitted when 0; the int is read as unsigned. */
    void uint32(int field, int v) {
        uint64(field, Integer.toUnsignedLong(v));
    }

    void bool(int field, boolean v) {
        uint64(field, v ? 1 : 0);
    }

    void fixed64(int field, long v) {
        if (v != 0) {
            tag(field, ProtoReader.I64);
            ensure(8);
            for (int k = 0; k < 8; k++) {
                buf[len++] = (byte) (v >>> (8 * k));
            }
        }
    }

    void bytes(int field, byte[] b, int off, int n) {
        if (n != 0) {
            bytesAlways(field, b, off, n);
        }
    }

    /** A length-delimited field written even when empty (repeated elements, messages). */
    void bytesAlways(int field, byte[] b, int off, int n) {
        tag(field, ProtoReader.LEN);
        rawVarint(n);
        ensure(n);
        System.arraycopy(b, off, buf, len, n);
        len += n;
    }

    void string(int field, String s) {
        if (!s.isEmpty()) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            bytesAlways(field, b, 0, b.length);
        }
    }

    void repeatedString(int field, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        bytesAlways(field, b, 0, b.length);
    }

    /** An embedded message (always written, so that a oneof member that is all defaults is still set). */
    void message(int field, ProtoWriter m) {
        bytesAlways(field, m.buf, 0, m.len);
    }
}
