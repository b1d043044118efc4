package org.phos.workbench.trace.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * i15-shapes: ObservationCoverage fields 20-25 (what a launch shape was, and what sampling by shape gave) survive
 * writing and reading, through the file and through the model; coverage without them reads as before; the kernel
 * coverage counts distinct functions with an observed launch.
 */
class ShapeSamplingCoverageTest {
    @TempDir
    Path dir;

    private static final ObservationCoverage.ShapeSampling SHAPES = new ObservationCoverage.ShapeSampling(
            "function+grid+block+argument shape: scalar parameter words by value, pointer words as any pointer into an "
                    + "allocation",
            61, 211, 1432, 7, 45);

    private Trace written(ObservationCoverage coverage) throws IOException {
        Path file = dir.resolve("t.phos");
        try (TraceWriter w = TraceWriter.create(file, TraceHeader.builder("phos-recorder", "t").build())) {
            w.function(new FunctionInfo(1, 1, "a", "", List.of()));
            w.function(new FunctionInfo(2, 1, "b", "", List.of()));
            for (int i = 0; i < 4; i++) {
                w.write(new TraceEvent.Launch(10 + i, 1, 1 + i % 2, new Dim3(4, 1, 1), new Dim3(128, 1, 1), 0, 0, new byte[0],
                        0, 0, LaunchKind.PLAIN, -1));
            }
            w.coverage(coverage);
        }
        return TraceReader.read(file, null).trace();
    }

    @Test
    void shapeFiguresSurviveTheFileAndTheModel() throws IOException {
        ObservationCoverage c = new ObservationCoverage("sanitizer", new long[] { 0, 2 }, "each launch shape 2 times", 4, SHAPES);
        Trace t = written(c);
        assertEquals(List.of(c), t.observationCoverage());
        assertEquals(SHAPES, t.observationCoverage().get(0).shapes());
        Path copy = dir.resolve("copy.phos");
        TraceWriter.write(t, copy, TraceWriter.Options.DEFAULT);
        assertEquals(List.of(c), TraceReader.read(copy, null).trace().observationCoverage());
    }

    @Test
    void coverageWithoutShapeFiguresHasNone() throws IOException {
        Trace t = written(new ObservationCoverage("sanitizer", new long[] { 0 }, "every launch", 4));
        assertNull(t.observationCoverage().get(0).shapes());
    }

    @Test
    void kernelCoverageCountsDistinctFunctionsWithAnObservedLaunch() throws IOException {
        // launches 0 and 2 are of function 1, 1 and 3 of function 2
        Trace t = written(new ObservationCoverage("sanitizer", new long[] { 0, 2 }, "p", 4, SHAPES));
        assertArrayEquals(new int[] { 2, 1 }, t.observationCoverage().get(0).kernelCoverage(t));
        Trace both = written(new ObservationCoverage("sanitizer", new long[] { 0, 3 }, "p", 4, SHAPES));
        assertArrayEquals(new int[] { 2, 2 }, both.observationCoverage().get(0).kernelCoverage(both));
    }

    @Test
    void describeSaysTheRuleAndTheCounts() {
        String d = SHAPES.describe();
        assertTrue(d.startsWith("launch shape = function+grid+block+argument shape: "), d);
        assertTrue(d.endsWith("; 61 function+grid+block, 211 argument shapes; 1432 launches not observed (argument-shape cap); "
                + "7 launches without parameters; 45 module unpatches"), d);
    }
}
