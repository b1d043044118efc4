package org.phos.workbench.analysis.core.cr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.trace.LaunchAccesses;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.speculation.core.LaunchSpeculation;
import org.phos.workbench.speculation.core.SpeculatedAccess;
import org.phos.workbench.speculation.core.TraceSpeculator;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/**
 * The packed sets (i12-gc) against the engine's own collected speculation: for every event of a sample trace, the
 * source answers exactly what {@link LaunchSpeculation#collect} gives (non-empty ranges with the read bit, then with
 * the write bit, in the engine's order; {@code null} for a launch it cannot speak for and for any other event).
 */
class EngineAccessSourceTest {

    private static Trace load(String name) throws IOException {
        Path file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
        assumeTrue(Files.isRegularFile(file), file + " missing (set -Dphos.repo to the repository root)");
        return TraceReader.read(file, null).trace();
    }

    private static List<AddressRange> ranges(List<SpeculatedAccess> accesses) {
        List<AddressRange> out = new ArrayList<>();
        for (SpeculatedAccess a : accesses) {
            if (a.end() > a.begin()) {
                out.add(new AddressRange(a.begin(), a.end()));
            }
        }
        return out;
    }

    @ParameterizedTest
    @CsvSource({ "cupy-ops.phos,phos", "pytorch-train.phos,phos", "cuda-suite.phos,phos", "cuda-suite.phos,best",
            "triton-ops.phos,best", "gpt-train.phos,phos" })
    void packedSetsAreTheEnginesSpeculation(String file, String engine) throws IOException {
        Trace trace = load(file);
        Map<Integer, LaunchAccesses> expected = new HashMap<>();
        var reference = EngineRegistry.create(engine, trace);
        TraceSpeculator.forEngines(trace, List.of(reference)).run(null, launch -> {
            LaunchSpeculation s = LaunchSpeculation.collect(reference, launch);
            if (s.covered()) {
                expected.put(launch.event(), new LaunchAccesses(ranges(s.reads()), ranges(s.writes())));
            }
        });
        EngineAccessSource source = new EngineAccessSource(trace, EngineRegistry.create(engine, trace), null);
        int launches = 0;
        int ranges = 0;
        for (int e = 0; e < trace.eventCount(); e++) {
            LaunchAccesses want = expected.get(e);
            LaunchAccesses got = source.accesses(trace, e, null);
            if (want == null) {
                assertNull(got, file + " event " + e);
            } else {
                assertEquals(want, got, file + " " + engine + " launch " + e);
                launches++;
                ranges += want.reads().size() + want.writes().size();
            }
        }
        assertTrue(launches > 0, file + ": no launch had sets");
        assertTrue(source.distinctSets() <= launches, "more sets than launches");
        System.out.printf("%s %s: %d launches with sets, %d ranges, %d distinct sets%n", file, engine, launches,
                ranges, source.distinctSets());
    }

    @Test
    void identicalSetsAreStoredOnceAndOrderMatters() {
        AccessSetTable table = new AccessSetTable(10);
        int rw = SpeculatedAccess.READ_WRITE;
        // launch 1: read [100,200), read-write [300,400)
        table.begin();
        table.sink().access(1, 100, 100, 200, SpeculatedAccess.READ, 0, 0);
        table.sink().access(2, 300, 300, 400, rw, 1, 8);
        table.end(1);
        // launch 3: the same accesses (another allocation id and parameter: only the ranges count)
        table.begin();
        table.sink().access(7, 100, 100, 200, SpeculatedAccess.READ, 2, 0);
        table.sink().access(8, 300, 300, 400, rw, 3, 8);
        table.end(3);
        // launch 5: the same ranges in another order, and an empty range that touches nothing
        table.begin();
        table.sink().access(2, 300, 300, 400, rw, 1, 8);
        table.sink().access(1, 100, 100, 200, SpeculatedAccess.READ, 0, 0);
        table.sink().access(3, 500, 500, 500, rw, 2, 0);
        table.end(5);
        // launch 7: covered, no accesses
        table.begin();
        table.end(7);
        // launch 9: not covered (no end)
        table.begin();
        table.sink().access(1, 100, 100, 200, SpeculatedAccess.READ, 0, 0);
        table.trim();

        assertEquals(3, table.distinctSets());
        LaunchAccesses one = table.accesses(1);
        assertNotNull(one);
        assertEquals(List.of(new AddressRange(100, 200), new AddressRange(300, 400)), one.reads());
        assertEquals(List.of(new AddressRange(300, 400)), one.writes());
        assertEquals(one, table.accesses(3));
        assertSame(table.accesses(1), table.accesses(3), "a shared set is built once while cached");
        LaunchAccesses five = table.accesses(5);
        assertNotNull(five);
        assertEquals(List.of(new AddressRange(300, 400), new AddressRange(100, 200)), five.reads());
        assertEquals(LaunchAccesses.NONE, table.accesses(7));
        assertNull(table.accesses(9));
        assertNull(table.accesses(0));
        assertNull(table.accesses(-1));
        assertNull(table.accesses(10));
    }

    @Test
    void manyDistinctSetsGrowTheTable() {
        int n = 50_000;
        AccessSetTable table = new AccessSetTable(2 * n);
        for (int i = 0; i < 2 * n; i++) {
            table.begin();
            long base = 4096L * (i % n);
            table.sink().access(i, base, base, base + 64, SpeculatedAccess.READ_WRITE, 0, 0);
            table.end(i);
        }
        table.trim();
        assertEquals(n, table.distinctSets(), "launch i and i + n have the same range");
        for (int i = 0; i < 2 * n; i += 997) {
            long base = 4096L * (i % n);
            LaunchAccesses a = table.accesses(i);
            assertNotNull(a);
            assertEquals(List.of(new AddressRange(base, base + 64)), a.reads());
            assertEquals(List.of(new AddressRange(base, base + 64)), a.writes());
        }
    }
}
