package org.phos.workbench.analysis.core.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.IndirectWriteTrace;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/** Traces for the experiment tests: a sample copied into a temporary folder (its experiments go there too). */
final class ExperimentTraces {
	private ExperimentTraces() {
	}

	/** {@code sample-traces/NAME} copied into {@code dir}. */
	static Path sample(String name, Path dir) throws IOException {
		Path file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
		assumeTrue(Files.isRegularFile(file), file + " missing (set -Dphos.repo to the repository root)");
		return Files.copy(file, dir.resolve(name));
	}

	/** A generated trace of {@code launches} launches in {@code dir}. */
	static Path generated(long launches, Path dir) throws IOException {
		Path file = dir.resolve("generated-" + launches + ".phos");
		SyntheticTraceGenerator.generate(file, SyntheticTraceOptions.defaults(launches).withSeed(3), null);
		return file;
	}

	/**
	 * Three launches over two 64 MiB buffers A, B and a pointer table T: fill(A), gather(T), which writes B through
	 * a pointer stored in T (the placeholder sees only T), fill(A); every launch carries its observed accesses.
	 */
	static Path indirectWrite(Path dir) throws IOException {
		return IndirectWriteTrace.write(dir.resolve("indirect.phos"), true);
	}

	static Trace load(Path file) throws IOException {
		return TraceReader.read(file, null).trace();
	}

	/** Two timelines hold the same lanes, intervals, stalls, markers, state changes and counters. */
	static void assertSameTimeline(TimelineModel expected, TimelineModel actual, String what) {
		assertEquals(expected.includesApplicationIntervals(), actual.includesApplicationIntervals(), what);
		List<Lane> lanes = expected.lanes();
		assertEquals(lanes, actual.lanes(), what + ": lanes");
		for (Lane l : lanes) {
			assertEquals(expected.intervals(l.id()), actual.intervals(l.id()), what + ": intervals of " + l.name());
		}
		assertEquals(expected.intervalCount(), actual.intervalCount(), what + ": interval count");
		assertEquals(expected.stalls(), actual.stalls(), what + ": stalls");
		assertEquals(expected.markers(), actual.markers(), what + ": markers");
		assertEquals(expected.stateChanges(), actual.stateChanges(), what + ": state changes");
		assertEquals(expected.counterNames(), actual.counterNames(), what + ": counters");
		for (String c : expected.counterNames()) {
			assertEquals(expected.counter(c), actual.counter(c), what + ": counter " + c);
		}
	}
}
