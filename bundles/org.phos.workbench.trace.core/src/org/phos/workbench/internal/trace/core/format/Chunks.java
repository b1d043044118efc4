package org.phos.workbench.internal.trace.core.format;

/** Constants of the v1 framing (docs/trace-format.md). */
public final class Chunks {
    public static final byte[] FILE_MAGIC = { 0x50, 0x48, 0x4F, 0x53, 0x0D, 0x0A, 0x1A, 0x0A };
    public static final int FILE_HEADER_SIZE = 16;
    public static final int CHUNK_MAGIC = 0x4B484350; // "PCHK" read little-endian
    public static final int CHUNK_HEADER_SIZE = 24;
    public static final int MAX_LENGTH = 256 << 20;

    public static final int TRACE_HEADER = 1;
    public static final int MODULE = 2;
    public static final int FUNCTION = 3;
    public static final int EVENT_BATCH = 4;
    public static final int OBSERVED_BATCH = 5;
    public static final int TRACE_END = 6;
    /** Live attach stream only (docs/trace-format.md "Live attach"). */
    public static final int EVENT_GAP = 7;
    public static final int STREAM_START = 8;
    /** i14-liveacc: live attach stream only: observations dropped for this reader (its queue was full). */
    public static final int OBSERVED_GAP = 9;

    public static final int CODEC_NONE = 0;
    public static final int CODEC_ZSTD = 1;

    private Chunks() {
    }

    public static String typeName(int type) {
        return switch (type) {
            case TRACE_HEADER -> "TraceHeader";
            case MODULE -> "Module";
            case FUNCTION -> "Function";
            case EVENT_BATCH -> "EventBatch";
            case OBSERVED_BATCH -> "ObservedBatch";
            case TRACE_END -> "TraceEnd";
            case EVENT_GAP -> "EventGap";
            case STREAM_START -> "StreamStart";
            case OBSERVED_GAP -> "ObservedGap"; // i14-liveacc
            default -> "type " + type;
        };
    }

    /**
     * Why a chunk that passed its checks did not decode: a {@link WireFormatException}'s message, or a decoding
     * defect of ours (any other runtime exception), named as such.
     */
    static String doesNotDecode(int type, Exception e) {
        return typeName(type) + (e instanceof WireFormatException ? " chunk does not decode: " + e.getMessage()
                : " chunk does not decode (internal error " + e + ")");
    }

    static int getIntLE(byte[] b, int off) {
        return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8 | (b[off + 2] & 0xff) << 16 | (b[off + 3] & 0xff) << 24;
    }

    static void putIntLE(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }
}
