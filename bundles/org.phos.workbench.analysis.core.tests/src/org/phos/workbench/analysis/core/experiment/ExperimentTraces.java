package org.phos.workbench.analysis.core.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.phos.workbench.cr.core.Lane;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceWriter;
import org.phos.workbench.trace.core.TraceReader;
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
		long a = 0x7f00_0000_0000L;
		long b = 0x7f00_1000_0000L;
		long table = 0x7f00_2000_0000L;
		long size = 64L << 20;
		Path file = dir.resolve("indirect.phos");
		try (TraceWriter w = TraceWriter.create(file, TraceHeader.builder("test", "1").build())) {
			w.function(new FunctionInfo(1, 0, "_Z4fillPf", "fill(float*)", List.of(new ParamInfo(0, 8))));
			w.function(new FunctionInfo(2, 0, "_Z6gatherPPf", "gather(float**)", List.of(new ParamInfo(0, 8))));
			w.write(new TraceEvent.Alloc(1_000, 0, a, size, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Alloc(2_000, 0, b, size, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Alloc(3_000, 0, table, 4096, AllocKind.PLAIN, 0));
			long l0 = w.write(new TraceEvent.Launch(10_000, 0, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0,
					pointer(a), 0, 0, LaunchKind.PLAIN, 0));
			long l1 = w.write(new TraceEvent.Launch(20_000, 0, 2, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0,
					pointer(table), 0, 0, LaunchKind.PLAIN, 0));
			long l2 = w.write(new TraceEvent.Launch(30_000, 0, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0,
					pointer(a), 0, 0, LaunchKind.PLAIN, 0));
			w.observed(new ObservedAccess(l0, a, List.of(), List.of(new AddressRange(a, a + size)), 0, 1, "ptx"));
			w.observed(new ObservedAccess(l1, table, List.of(new AddressRange(table, table + 8)), List.of(), 1, 0,
					"ptx"));
			w.observed(new ObservedAccess(l1, b, List.of(), List.of(new AddressRange(b, b + 4096)), 0, 1, "ptx"));
			w.observed(new ObservedAccess(l2, a, List.of(), List.of(new AddressRange(a, a + size)), 0, 1, "ptx"));
		}
		return file;
	}

	private static byte[] pointer(long p) {
		return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(p).array();
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
