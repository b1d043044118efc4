package org.phos.workbench.internal.trace.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceHeader;

/** The paged columns, arenas and the builder's rollback keep exactly what was appended and cost what they say. */
class ColumnsTest {
    @Test
    void columnsAcrossPagesTruncateAndTrim() {
        LongColumn c = new LongColumn();
        int n = 3 * Pages.SIZE + 17;
        for (int i = 0; i < n; i++) {
            c.add(i % 5 == 0 ? 0 : i * 31L);
        }
        c.truncate(Pages.SIZE + 3);
        for (int i = Pages.SIZE + 3; i < n; i++) {
            c.add(-i);
        }
        c.trim();
        for (int i = 0; i < n; i++) {
            assertEquals(i < Pages.SIZE + 3 ? (i % 5 == 0 ? 0 : i * 31L) : -i, c.get(i), "element " + i);
        }
        assertTrue(c.footprintBytes() < 8L * n + 1024, "trimmed: " + c.footprintBytes());
    }

    @Test
    void allZeroColumnsAllocateNoPages() {
        TimeColumn t = new TimeColumn();
        IntColumn i = new IntColumn();
        for (int k = 0; k < 5 * Pages.SIZE; k++) {
            t.add(0);
            i.add(0);
        }
        assertTrue(t.footprintBytes() < 256 && i.footprintBytes() < 256, t.footprintBytes() + " " + i.footprintBytes());
        assertEquals(0, t.get(3 * Pages.SIZE));
    }

    @Test
    void timeColumnStoresDeltasAndWidensWhenNeeded() {
        TimeColumn t = new TimeColumn();
        SplittableRandom rnd = new SplittableRandom(3);
        long[] expected = new long[4 * Pages.SIZE];
        for (int k = 0; k < expected.length; k++) {
            long v = switch (k / Pages.SIZE) {
                case 0 -> 1_000_000_000_000L + k * 1000L; // narrow
                case 1 -> k == Pages.SIZE + 100 ? Long.MIN_VALUE : 5L * k; // widened in the middle of a page
                case 2 -> k % 7 == 0 ? 0 : 1L << 40; // zeros first, then a large value
                default -> rnd.nextLong();
            };
            expected[k] = v;
            t.add(v);
        }
        t.trim();
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k], t.get(k), "element " + k);
        }
        TimeColumn narrow = new TimeColumn();
        for (int k = 0; k < Pages.SIZE; k++) {
            narrow.add(7_000_000_000_000L + k);
        }
        assertTrue(narrow.footprintBytes() < 4L * Pages.SIZE + 256, "4 bytes a value: " + narrow.footprintBytes());
    }

    @Test
    void arenaKeepsStringsWholeAndViewsThem() {
        ByteArena a = new ByteArena();
        SplittableRandom rnd = new SplittableRandom(4);
        byte[][] strings = new byte[3000][];
        long[] refs = new long[strings.length];
        for (int k = 0; k < strings.length; k++) {
            strings[k] = new byte[k % 100 == 0 ? 70_000 + k : rnd.nextInt(600)];
            rnd.nextBytes(strings[k]);
            refs[k] = a.add(strings[k], 0, strings[k].length);
        }
        long[] mark = a.mark();
        a.add(new byte[1000], 0, 1000);
        a.rollback(mark);
        a.trim();
        long total = 0;
        for (int k = 0; k < strings.length; k++) {
            ByteBuffer v = a.view(refs[k]);
            byte[] back = new byte[v.remaining()];
            v.get(back);
            assertEquals(ByteBuffer.wrap(strings[k]), ByteBuffer.wrap(back), "string " + k);
            total += strings[k].length;
        }
        assertEquals(total, a.totalLength());
        assertTrue(a.footprintBytes() < total * 1.05 + 300_000, a.footprintBytes() + " for " + total);
    }

    @Test
    void rollbackUndoesEveryColumn() {
        TraceColumns c = new TraceColumns(TraceHeader.builder("t", "1").build());
        c.addAlloc(1, 1, 0x1000, 10, 0, 0);
        TraceColumns.Mark m = c.mark();
        byte[] params = new byte[16];
        c.addLaunch(2, 1, 1, 1, 1, 1, 32, 1, 1, 0, 7, params, 0, 16, 5, 10, 3, 0);
        c.addMemcpy(3, 70_000, 1, 1, 2, 3, 0, true, params, 0, 8, 0, 0);
        c.addLaunch(4, 1, 1, 1, 1, 1, 32, 1, 1, 0, 7, params, 0, 16, 5, 1L << 40, 0, 0);
        c.rollback(m);
        c.addFree(5, 2, 0x1000, AllocKind.PLAIN.code(), 0);
        Trace t = c.freeze();
        assertEquals(2, t.eventCount());
        assertEquals(0, t.launchCount());
        assertEquals(0, t.count(EventKind.MEMCPY));
        assertEquals(EventKind.FREE, t.kind(1));
        assertEquals(2, t.thread(1));
        assertEquals(0, t.parameterBytes());
        assertEquals(0, t.payloadBytes());
    }
}
