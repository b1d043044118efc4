package org.phos.workbench.internal.trace.core.model;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Shared storage for many small byte strings (launch parameter buffers, copy payloads): 256 KiB pages filled one
 * after another, a string never straddling two pages so it can be handed out as a {@link ByteBuffer} view without
 * copying. Strings larger than a quarter page get an array of their own. Pages stay below G1's humongous-object
 * threshold (half a region, at least 512 KiB): a 1 MiB page would take a whole 2 MiB region.
 * <p>
 * A string is named by a {@code long} reference: 0 for the empty string; for a paged string
 * {@code length << 40 | position}; for a big one {@code -(index + 1)}.
 */
public final class ByteArena {
    private static final int PAGE_SHIFT = 18;
    private static final int PAGE = 1 << PAGE_SHIFT;
    private static final int BIG = PAGE / 4;

    private byte[][] pages = new byte[4][];
    private int pageCount;
    /** Write position in the current page ({@code pageCount - 1}). */
    private int fill = PAGE;
    private final List<byte[]> bigs = new ArrayList<>();
    private long totalLength;

    /** Copies {@code len} bytes of {@code src} from {@code off} into the arena; returns their reference. */
    public long add(byte[] src, int off, int len) {
        if (len == 0) {
            return 0;
        }
        totalLength += len;
        if (len > BIG) {
            bigs.add(Arrays.copyOfRange(src, off, off + len));
            return -bigs.size();
        }
        if (len > PAGE - fill) {
            if (pageCount == pages.length) {
                pages = Arrays.copyOf(pages, pageCount * 2);
            }
            pages[pageCount++] = new byte[PAGE];
            fill = 0;
        }
        int page = pageCount - 1;
        System.arraycopy(src, off, pages[page], fill, len);
        long ref = ((long) len << 40) | ((long) page << PAGE_SHIFT) | fill;
        fill += len;
        return ref;
    }

    public static int length(long ref) {
        return ref >= 0 ? (int) (ref >>> 40) : -1;
    }

    /** Length of the string {@code ref} names. */
    public int lengthOf(long ref) {
        return ref >= 0 ? (int) (ref >>> 40) : bigs.get((int) (-ref - 1)).length;
    }

    /** A read-only little-endian view of the string. */
    public ByteBuffer view(long ref) {
        ByteBuffer b;
        if (ref == 0) {
            b = ByteBuffer.allocate(0);
        } else if (ref < 0) {
            b = ByteBuffer.wrap(bigs.get((int) (-ref - 1)));
        } else {
            int pos = (int) (ref & (PAGE - 1));
            b = ByteBuffer.wrap(pages[(int) ((ref & ((1L << 40) - 1)) >>> PAGE_SHIFT)], pos, length(ref)).slice();
        }
        return b.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Copies the string into {@code dst} at {@code dstOffset}; returns its length. */
    public int copy(long ref, byte[] dst, int dstOffset) {
        if (ref == 0) {
            return 0;
        }
        if (ref < 0) {
            byte[] big = bigs.get((int) (-ref - 1));
            System.arraycopy(big, 0, dst, dstOffset, big.length);
            return big.length;
        }
        int len = length(ref);
        System.arraycopy(pages[(int) ((ref & ((1L << 40) - 1)) >>> PAGE_SHIFT)], (int) (ref & (PAGE - 1)), dst,
                dstOffset, len);
        return len;
    }

    /** Byte {@code k} of the string (no bounds check against the string length beyond the caller's). */
    public byte byteAt(long ref, int k) {
        if (ref < 0) {
            return bigs.get((int) (-ref - 1))[k];
        }
        return pages[(int) ((ref & ((1L << 40) - 1)) >>> PAGE_SHIFT)][(int) (ref & (PAGE - 1)) + k];
    }

    /** Little-endian long at {@code offset} of the string; bytes past its end read as 0. */
    public long longAt(long ref, int offset) {
        if (ref == 0) {
            return 0;
        }
        int len = lengthOf(ref);
        long v = 0;
        for (int k = 7; k >= 0; k--) {
            int at = offset + k;
            v = (v << 8) | (at >= 0 && at < len ? byteAt(ref, at) & 0xff : 0);
        }
        return v;
    }

    /** Total length of all strings added. */
    public long totalLength() {
        return totalLength;
    }

    /** A position to {@link #rollback(long[])} to. */
    public long[] mark() {
        return new long[] { pageCount, fill, bigs.size(), totalLength };
    }

    public void rollback(long[] mark) {
        for (int p = (int) mark[0]; p < pageCount; p++) {
            pages[p] = null;
        }
        pageCount = (int) mark[0];
        fill = (int) mark[1];
        while (bigs.size() > mark[2]) {
            bigs.remove(bigs.size() - 1);
        }
        totalLength = mark[3];
    }

    /** Cuts the last page to its used length; no more strings may be added afterwards. */
    public void trim() {
        pages = Arrays.copyOf(pages, Math.max(pageCount, 1));
        if (pageCount > 0 && fill < PAGE) {
            pages[pageCount - 1] = Arrays.copyOf(pages[pageCount - 1], fill);
        }
        fill = Integer.MAX_VALUE;
    }

    public long footprintBytes() {
        long bytes = Pages.ARRAY_HEADER + 4L * pages.length;
        for (int p = 0; p < pageCount; p++) {
            bytes += Pages.ARRAY_HEADER + pages[p].length;
        }
        for (byte[] b : bigs) {
            bytes += Pages.ARRAY_HEADER + 4 + b.length;
        }
        return bytes;
    }
}
