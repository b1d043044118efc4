package org.phos.workbench.cr.core.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.phos.workbench.cr.core.tests.Ops.MACHINE;
import static org.phos.workbench.cr.core.tests.Ops.MS;
import static org.phos.workbench.cr.core.tests.Ops.S_D2D_NS;
import static org.phos.workbench.cr.core.tests.Ops.b;

import java.io.StringWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cr.core.TimelineChromeExporter;
import org.phos.workbench.cr.core.CoordinatedTransferPolicy;
import org.phos.workbench.cr.core.CopyDirection;
import org.phos.workbench.cr.core.CsvTimelineExporter;
import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.TimelineInterval;
import org.phos.workbench.cr.core.MetricsCsvWriter;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.cr.core.TimelineSink;
import org.phos.workbench.trace.core.export.JsonReader;

/** Chrome Trace Event JSON and CSV exports, parsed back and checked against the formats' rules. */
class ExportTest {

    /** CoW, coordinated chunks, an application copy held up by them, several streams. */
    static Ops scenario() {
        return new Ops().allocS(3).alloc(9, 55_000_000L, 0x7000_0000_0000L).kernel(1_000, MS, b(), b(0))
                .kernelOn(1, 1_500, MS, b(2), b()).kernel(2 * MS, MS, b(), b(1))
                .copy(1, 3 * MS, CopyDirection.DEVICE_TO_HOST, 55_000_000L, 9).kernelOn(2, 4 * MS, MS, b(), b(2));
    }

    static SimulationMetrics export(TimelineSink sink) {
        return Simulator.run(scenario().workload(), MACHINE,
                new CoordinatedTransferPolicy(SoftCopyOnWritePolicyTest.options()), sink, true, null);
    }

    @SuppressWarnings("unchecked")
    @Test
    void chromeTraceFollowsTheTraceEventFormat() {
        StringWriter out = new StringWriter();
        TimelineChromeExporter json = new TimelineChromeExporter(out, true);
        TimelineModel model = new TimelineModel(true);
        SimulationMetrics m = export(TimelineSink.tee(json, model));
        json.finish(m);
        Map<String, Object> root = (Map<String, Object>) JsonReader.parse(out.toString());
        List<Object> events = (List<Object>) root.get("traceEvents");
        assertNotNull(events);
        assertEquals(json.eventCount(), events.size());
        Map<String, Object> other = (Map<String, Object>) root.get("otherData");
        assertEquals("coordinated", other.get("policy"));

        Set<String> namedThreads = new HashSet<>();
        Set<Long> namedProcesses = new HashSet<>();
        Map<String, List<double[]>> slicesByTrack = new LinkedHashMap<>();
        Map<String, Integer> byPh = new HashMap<>();
        for (Object o : events) {
            Map<String, Object> e = (Map<String, Object>) o;
            String ph = (String) e.get("ph");
            byPh.merge(ph, 1, Integer::sum);
            assertTrue(List.of("X", "i", "C", "M").contains(ph), "phase " + ph);
            assertTrue(e.get("pid") instanceof Long, "integral pid in " + e);
            assertTrue(e.get("tid") instanceof Long, "integral tid in " + e);
            long pid = (Long) e.get("pid");
            long tid = (Long) e.get("tid");
            assertTrue(e.get("name") instanceof String, "name in " + e);
            assertTrue(e.get("ts") instanceof Number, "ts in " + e);
            double ts = number(e, "ts");
            assertTrue(ts >= 0, "ts >= 0 in " + e);
            switch (ph) {
                case "M" -> {
                    Map<String, Object> args = (Map<String, Object>) e.get("args");
                    assertNotNull(args);
                    if (e.get("name").equals("thread_name")) {
                        assertTrue(args.get("name") instanceof String);
                        namedThreads.add(pid + "/" + tid);
                    } else if (e.get("name").equals("process_name")) {
                        namedProcesses.add(pid);
                    }
                }
                case "X" -> {
                    assertTrue(e.get("dur") instanceof Number, "X needs dur: " + e);
                    double dur = number(e, "dur");
                    assertTrue(dur >= 0);
                    // to integer ns first, as viewers do, so that decimal round-off does not fake an overlap
                    double startNs = Math.rint(ts * 1000);
                    slicesByTrack.computeIfAbsent(pid + "/" + tid, k -> new ArrayList<>())
                            .add(new double[] { startNs, startNs + Math.rint(dur * 1000) });
                }
                case "i" -> assertTrue(List.of("g", "p", "t").contains(e.get("s")), "instant scope in " + e);
                case "C" -> assertTrue(e.get("args") instanceof Map);
                default -> fail(ph);
            }
        }
        assertTrue(byPh.get("X") > 10 && byPh.get("i") >= 3 && byPh.get("C") >= 1, byPh.toString());
        assertEquals(Set.of(1L, 2L, 3L), namedProcesses);
        for (Map.Entry<String, List<double[]>> track : slicesByTrack.entrySet()) {
            assertTrue(namedThreads.contains(track.getKey()), "track without thread_name: " + track.getKey());
            assertNested(track.getKey(), track.getValue());
        }
        // a known slice: the CoW of b1 (1.1 ms), at the time the model has it, in microseconds
        TimelineInterval cow = model.intervals(Lane.CR_COW_D2D).stream().filter(x -> x.buffer() == 1).findFirst()
                .orElseThrow();
        assertEquals(S_D2D_NS, cow.durationNs());
        boolean cowFound = events.stream().map(o -> (Map<String, Object>) o)
                .anyMatch(e -> "CoW buffer 1".equals(e.get("name")) && number(e, "ts") == cow.startNs() / 1000.0
                        && number(e, "dur") == S_D2D_NS / 1000.0 && number(e, "tid") == Lane.CR_COW_D2D);
        assertTrue(cowFound, "CoW slice at " + cow);
        assertEquals(2, m.cowCount());
        String text = out.toString();
        assertTrue(text.contains("\"stall: copy_on_write\""), "stall slice");
        assertTrue(text.contains("\"stall: copy_engine_busy\""), "engine contention slice");
    }

    /** Perfetto's rule for complete events on one track: any two slices are disjoint or one contains the other. */
    static void assertNested(String track, List<double[]> slices) {
        slices.sort(Comparator.<double[]>comparingDouble(s -> s[0]).thenComparingDouble(s -> -s[1]));
        ArrayDeque<double[]> open = new ArrayDeque<>();
        for (double[] s : slices) {
            while (!open.isEmpty() && open.peek()[1] <= s[0]) {
                open.pop();
            }
            if (!open.isEmpty() && s[1] > open.peek()[1]) {
                fail("slices overlap without nesting on track " + track + ": [" + open.peek()[0] + ", "
                        + open.peek()[1] + ") and [" + s[0] + ", " + s[1] + ")");
            }
            open.push(s);
        }
    }

    @Test
    void nestingCheckCatchesOverlap() {
        List<double[]> bad = new ArrayList<>(List.of(new double[] { 0, 10 }, new double[] { 5, 15 }));
        assertThrows(AssertionError.class, () -> assertNested("t", bad));
        assertNested("t", new ArrayList<>(List.of(new double[] { 0, 10 }, new double[] { 2, 4 },
                new double[] { 10, 12 })));
    }

    private static <T extends Throwable> void assertThrows(Class<T> type, Runnable r) {
        org.junit.jupiter.api.Assertions.assertThrows(type, r::run);
    }

    @Test
    void csvHasOneRowPerItemAndTheSameContentAsTheModel() {
        StringWriter out = new StringWriter();
        CsvTimelineExporter csv = new CsvTimelineExporter(out, true);
        TimelineModel model = new TimelineModel(true);
        export(TimelineSink.tee(csv, model));
        csv.flush();
        String[] lines = out.toString().split("\n");
        assertEquals(CsvTimelineExporter.HEADER, lines[0]);
        int cols = CsvTimelineExporter.HEADER.split(",").length;
        int intervals = 0;
        int stalls = 0;
        for (int k = 1; k < lines.length; k++) {
            String[] f = lines[k].split(",", -1);
            assertEquals(cols, f.length, "columns in: " + lines[k]);
            long start = Long.parseLong(f[3]);
            long end = Long.parseLong(f[4]);
            assertEquals(end - start, Long.parseLong(f[5]));
            if (f[0].equals("interval")) {
                intervals++;
            } else if (f[0].equals("stall")) {
                stalls++;
            }
        }
        int modelIntervals = model.lanes().stream().mapToInt(l -> model.intervals(l.id()).size()).sum();
        assertEquals(modelIntervals, intervals);
        assertEquals(model.stalls().size(), stalls);
        assertFalse(model.stateChanges().isEmpty());
    }

    @Test
    void metricsCsvHasOneRowPerFigure() {
        SimulationMetrics m = export(TimelineSink.NONE);
        StringWriter out = new StringWriter();
        MetricsCsvWriter.write(out, Map.of("coordinated", m));
        String[] lines = out.toString().split("\n");
        assertEquals(MetricsCsvWriter.HEADER, lines[0]);
        assertEquals(MetricsCsvWriter.flatten(m).size() + 1, lines.length);
        assertTrue(out.toString().contains("coordinated,stall_total_ns," + m.stallTotalNs()));
        assertTrue(out.toString().contains("coordinated,cow_count,2"));
    }

    /** A number of a Chrome event (the reader gives integral ones as Long). */
    private static double number(Map<String, Object> event, String field) {
        return ((Number) event.get(field)).doubleValue();
    }
}
