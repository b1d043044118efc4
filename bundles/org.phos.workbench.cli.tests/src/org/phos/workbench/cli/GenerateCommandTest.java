package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;

/** {@code workbench generate}: deterministic files with the requested shape, and its usage errors. */
class GenerateCommandTest {

	@TempDir
	Path dir;

	@Test
	void generatesTheRequestedLaunchesAndStreams() throws IOException {
		Path out = dir.resolve("g.phos");
		CliRun run = CliRun.of("generate", "--launches", "2k", "--seed", "9", "--streams", "3", "--allocations", "50",
				"--out", out.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertTrue(run.out().startsWith("generated " + out + ": "), run.out());
		assertTrue(run.out().contains("2,000 launches"), run.out());
		TraceLoadResult loaded = TraceReader.read(out, null);
		assertTrue(loaded.warnings().isEmpty(), loaded.warnings().toString());
		Trace trace = loaded.trace();
		assertEquals(2000, trace.launchCount());
		java.util.Set<Long> streams = new java.util.HashSet<>();
		for (int i = 0; i < trace.launchCount(); i++) {
			streams.add(trace.stream(trace.launchEvent(i)));
		}
		assertTrue(streams.size() >= 2 && streams.size() <= 4, streams.toString());
	}

	@Test
	void sameOptionsGiveTheSameBytes() throws IOException {
		Path a = dir.resolve("a.phos");
		Path b = dir.resolve("b.phos");
		Path c = dir.resolve("c.phos");
		assertEquals(ExitCode.OK, CliRun.of("generate", "--launches", "500", "--seed", "3", "--out", a.toString()).exit());
		assertEquals(ExitCode.OK, CliRun.of("generate", "--launches", "500", "--seed", "3", "--out", b.toString()).exit());
		assertEquals(ExitCode.OK, CliRun.of("generate", "--launches", "500", "--seed", "4", "--out", c.toString()).exit());
		assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
		assertFalse(java.util.Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(c)));
	}

	@Test
	void usageErrors() {
		CliRun missing = CliRun.of("generate", "--out", dir.resolve("x.phos").toString());
		assertEquals(ExitCode.USAGE, missing.exit());
		assertTrue(missing.err().contains("missing option --launches N"), missing.err());
		CliRun negative = CliRun.of("generate", "--launches", "-5", "--out", "x.phos");
		assertEquals(ExitCode.USAGE, negative.exit());
		assertTrue(negative.err().contains("option --launches expects an integer from 0 to 2000000000, got '-5'"),
				negative.err());
		CliRun streams = CliRun.of("generate", "--launches", "5", "--streams", "0", "--out", "x.phos");
		assertEquals(ExitCode.USAGE, streams.exit());
		assertTrue(streams.err().contains("--streams expects an integer from 1 to 1024"), streams.err());
		CliRun typo = CliRun.of("generate", "--launches", "5", "--sed", "1", "--out", "x.phos");
		assertTrue(typo.err().contains("unknown option --sed; did you mean --seed?"), typo.err());
	}

	@Test
	void unwritableDestinationFails() {
		Path out = dir.resolve("missing-dir/x.phos");
		CliRun run = CliRun.of("generate", "--launches", "10", "--out", out.toString());
		assertEquals(ExitCode.FAILURE, run.exit());
		assertTrue(run.err().contains("does not exist"), run.err());
	}
}
