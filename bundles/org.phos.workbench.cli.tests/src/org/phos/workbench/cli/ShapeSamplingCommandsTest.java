package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * i15-shapes: the sanitizer tool's sampling by launch shape says what a shape was (ObservationCoverage fields 20-25):
 * {@code merge-observed} carries it into the merged trace, {@code info} and {@code validate} print the rule, the
 * shape counts and how many distinct kernels have an observed launch.
 */
class ShapeSamplingCommandsTest {

	private static final String RULE = "function+grid+block+argument shape: scalar parameter words by value, pointer words "
			+ "by allocation (aliasing among the launch's pointers) and offset class (at base / inside)";
	private static final ObservationCoverage.ShapeSampling SHAPES = new ObservationCoverage.ShapeSampling(RULE, 2, 3, 4, 1, 5);

	@TempDir
	Path dir;

	/** A side file for TestTraces.writeSmall's run: launches 4 (kernel 1) and, when asked, 6 (kernel 2) observed. */
	private Path sideFile(long[] observed, ObservationCoverage.ShapeSampling shapes) throws IOException {
		Path side = dir.resolve("run.phos.observed.phos");
		try (TraceWriter w = TraceWriter.create(side, TraceHeader.builder("phos-sanitizer", "1").build())) {
			w.observed(new ObservedAccess(4, TestTraces.BASE, List.of(new AddressRange(TestTraces.BASE, TestTraces.BASE + 64)),
					List.of(), 16, 0, "sanitizer"));
			w.coverage(new ObservationCoverage("sanitizer", observed,
					"each launch shape (function+grid+block+argument shape) 2 times, at most 8 argument shapes per "
							+ "function+grid+block", 6, shapes));
		}
		return side;
	}

	private Path merged(long[] observed, ObservationCoverage.ShapeSampling shapes) throws IOException {
		Path trace = dir.resolve("run.phos");
		TestTraces.writeSmall(trace);
		Path out = dir.resolve("merged.phos");
		CliRun run = CliRun.of("merge-observed", trace.toString(), sideFile(observed, shapes).toString(), "--out", out.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		return out;
	}

	@Test
	void mergeObservedCarriesTheShapeRule() throws IOException {
		Trace t = TraceReader.read(merged(new long[] { 4 }, SHAPES), null).trace();
		assertEquals(1, t.observationCoverage().size());
		ObservationCoverage c = t.observationCoverage().get(0);
		assertEquals(SHAPES, c.shapes());
		assertEquals(2, c.kernelCoverage(t)[0], "two distinct kernels launched");
		assertEquals(1, c.kernelCoverage(t)[1], "only kernel 1 has an observed launch");
	}

	@Test
	void infoAndValidateSayWhatAShapeWasAndHowManyKernelsWereObserved() throws IOException {
		Path m = merged(new long[] { 4, 6 }, SHAPES);
		String want = "2 of 2 distinct kernels have an observed launch; launch shape = " + RULE + "; 2 function+grid+block, "
				+ "3 argument shapes; 4 launches not observed (argument-shape cap); 1 launches without parameters; 5 module unpatches";
		CliRun info = CliRun.of("info", m.toString());
		assertEquals(ExitCode.OK, info.exit(), info.toString());
		assertTrue(info.out().contains("coverage (sanitizer): " + want), info.out());
		CliRun v = CliRun.of("validate", m.toString(), "--engine", "phos");
		assertEquals(ExitCode.OK, v.exit(), v.toString());
		assertTrue(v.out().contains("coverage (sanitizer): 2 of 6 launches observed (each launch shape (function+grid+block+"
				+ "argument shape) 2 times, at most 8 argument shapes per function+grid+block); 4 not observed, not judged"), v.out());
		assertTrue(v.out().contains("coverage (sanitizer): " + want), v.out());
	}

	@Test
	void coverageWithoutShapeSamplingSaysOnlyTheKernels() throws IOException {
		Path m = merged(new long[] { 4 }, null);
		Trace t = TraceReader.read(m, null).trace();
		assertNull(t.observationCoverage().get(0).shapes());
		CliRun v = CliRun.of("validate", m.toString(), "--engine", "phos");
		assertEquals(ExitCode.OK, v.exit(), v.toString());
		assertTrue(v.out().lines().anyMatch(l -> l.equals("coverage (sanitizer): 1 of 2 distinct kernels have an observed launch")),
				v.out());
	}
}
