package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * {@code merge-observed}: a side file of observed accesses (as the sanitizer tool writes it: a header, ObservedBatch
 * chunks, an empty TraceEnd) folded into a trace, and the checks that keep a side file of another run out.
 */
class MergeObservedCommandTest {

	@TempDir
	Path dir;

	private Path sideFile(String name, long launchEvent) throws IOException {
		Path side = dir.resolve(name);
		try (TraceWriter w = TraceWriter.create(side, TraceHeader.builder("phos-sanitizer", "0.1").build())) {
			w.observed(new ObservedAccess(launchEvent, TestTraces.BASE,
					List.of(new AddressRange(TestTraces.BASE, TestTraces.BASE + 64)),
					List.of(new AddressRange(TestTraces.BASE + 64, TestTraces.BASE + 128)), 16, 16, "sanitizer"));
		}
		return side;
	}

	@Test
	void observedAccessesOfASideFileLandInTheMergedTraceAndInfoShowsThem() throws IOException {
		Path trace = dir.resolve("run.phos");
		TestTraces.writeSmall(trace);
		Path side = sideFile("run.phos.observed.phos", 4); // event 4 is a launch
		Path out = dir.resolve("merged.phos");

		CliRun run = CliRun.of("merge-observed", trace.toString(), side.toString(), "--out", out.toString());

		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertTrue(run.out().contains("1 observed accesses from sanitizer"), run.out());
		Trace merged = TraceReader.read(out, null).trace();
		assertEquals(TestTraces.SMALL_EVENTS, merged.eventCount());
		assertEquals(1, merged.observedAccesses().size());
		ObservedAccess a = merged.observedAccesses().get(0);
		assertEquals(4, a.launchEvent());
		assertEquals(List.of(new AddressRange(TestTraces.BASE + 64, TestTraces.BASE + 128)), a.written());

		CliRun info = CliRun.of("info", out.toString());
		assertEquals(ExitCode.OK, info.exit(), info.toString());
		assertTrue(info.out().contains("1 access records for 1 of 6 launches, by sanitizer"), info.out());
		CliRun plain = CliRun.of("info", trace.toString());
		assertTrue(plain.out().contains("no observed accesses"), plain.out());
	}

	@Test
	void aSideFileNamingANonLaunchEventIsRefusedAndNothingIsWritten() throws IOException {
		Path trace = dir.resolve("run.phos");
		TestTraces.writeSmall(trace);
		Path side = sideFile("other.observed.phos", 3); // event 3 is a copy, not a launch
		Path out = dir.resolve("merged.phos");

		CliRun run = CliRun.of("merge-observed", trace.toString(), side.toString(), "--out", out.toString());

		assertEquals(ExitCode.FAILURE, run.exit(), run.toString());
		assertTrue(run.err().contains("names event 3, which is not a launch"), run.err());
		assertFalse(Files.exists(out));
	}

	@Test
	void aSideFileWithoutObservedAccessesIsAFailure() throws IOException {
		Path trace = dir.resolve("run.phos");
		TestTraces.writeSmall(trace);
		Path out = dir.resolve("merged.phos");

		CliRun run = CliRun.of("merge-observed", trace.toString(), trace.toString(), "--out", out.toString());

		assertEquals(ExitCode.FAILURE, run.exit(), run.toString());
		assertTrue(run.err().contains("no observed accesses"), run.err());
	}

	@Test
	void missingSideFileIsAUsageError() throws IOException {
		Path trace = dir.resolve("run.phos");
		TestTraces.writeSmall(trace);
		CliRun run = CliRun.of("merge-observed", trace.toString(), "--out", dir.resolve("m.phos").toString());
		assertEquals(ExitCode.USAGE, run.exit(), run.toString());
	}
}
