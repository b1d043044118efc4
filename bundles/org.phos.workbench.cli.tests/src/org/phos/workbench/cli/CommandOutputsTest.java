package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * The output rules of {@code export} (ExportOutputsTest) hold for every command that writes a file:
 * {@code merge-observed}, {@code generate}, {@code speculate}/{@code validate --csv/--json}, {@code bench --markdown}
 * (issue #10).
 */
class CommandOutputsTest {

	@TempDir
	Path dir;

	private Path trace() throws IOException {
		Path file = dir.resolve("run.phos");
		TestTraces.writeSmall(file);
		return file;
	}

	private Path sideFile() throws IOException {
		Path side = dir.resolve("run.phos.observed.phos");
		try (TraceWriter w = TraceWriter.create(side, TraceHeader.builder("phos-sanitizer", "0.1").build())) {
			w.observed(new ObservedAccess(4, TestTraces.BASE, List.of(new AddressRange(TestTraces.BASE,
					TestTraces.BASE + 64)), List.of(), 16, 0, "sanitizer"));
		}
		return side;
	}

	private static void assertRefused(CliRun run, String option, Path argument) {
		assertEquals(ExitCode.FAILURE, run.exit(), run.toString());
		assertEquals(1, run.err().lines().count(), "one line: " + run.err());
		assertTrue(run.err().contains(option + " " + argument + ": "), run.err());
	}

	private void assertNoTemporaries() throws IOException {
		try (var files = Files.list(dir)) {
			assertEquals(List.of(), files.filter(p -> p.getFileName().toString().endsWith(".part")
					|| p.getFileName().toString().endsWith(".tmp")).toList());
		}
	}

	@Test
	void mergeObservedRefusesToWriteOverItsTraceAndLeavesItUnchanged() throws IOException {
		Path trace = trace();
		Path side = sideFile();
		byte[] before = Files.readAllBytes(trace);
		byte[] sideBefore = Files.readAllBytes(side);

		CliRun run = CliRun.of("merge-observed", trace.toString(), side.toString(), "--out", trace.toString());
		assertRefused(run, "--out", trace);
		assertTrue(run.err().contains("is the input"), run.err());
		assertArrayEquals(before, Files.readAllBytes(trace));

		run = CliRun.of("merge-observed", trace.toString(), side.toString(), "--out", side.toString());
		assertRefused(run, "--out", side);
		assertArrayEquals(sideBefore, Files.readAllBytes(side));
		assertNoTemporaries();
	}

	@Test
	void mergeObservedWritesWithTheUmasksPermissions() throws IOException {
		Path trace = trace();
		Path side = sideFile();
		Path out = dir.resolve("merged.phos");
		CliRun run = CliRun.of("merge-observed", trace.toString(), side.toString(), "--out", out.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		Path plain = Files.createFile(dir.resolve("plain"));
		assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out));
		assertNoTemporaries();
	}

	@Test
	void generateRefusesToWriteThroughASymbolicLink() throws IOException {
		Path other = Files.writeString(dir.resolve("notes.txt"), "mine");
		Path link = Files.createSymbolicLink(dir.resolve("g.phos"), other);

		CliRun run = CliRun.of("generate", "--launches", "100", "--out", link.toString());

		assertRefused(run, "--out", link);
		assertTrue(run.err().contains("symbolic link"), run.err());
		assertTrue(Files.isSymbolicLink(link));
		assertEquals("mine", Files.readString(other));
		assertNoTemporaries();
	}

	@Test
	void aGeneratedFileHasTheUmasksPermissionsLikeAnyNewFile() throws IOException {
		Path out = dir.resolve("g.phos");
		CliRun run = CliRun.of("generate", "--launches", "100", "--out", out.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		Path plain = Files.createFile(dir.resolve("plain"));
		assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out));
		assertNoTemporaries();
	}

	@Test
	void temporaryFilesOfAKilledGenerateAreRemoved() throws Exception {
		Process gone = new ProcessBuilder("true").start();
		gone.waitFor();
		Path stale = Files.write(dir.resolve(".g.phos.phos-" + gone.pid() + "-1abc.part"), new byte[64]);
		CliRun run = CliRun.of("generate", "--launches", "10", "--out", dir.resolve("g.phos").toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertFalse(Files.exists(stale));
		assertTrue(run.err().contains("removed " + stale), run.err());
	}

	@Test
	void speculateAndValidateReportsAreNotWrittenOverTheTrace() throws IOException {
		Path trace = trace();
		byte[] before = Files.readAllBytes(trace);
		for (String command : List.of("speculate", "validate")) {
			for (String option : List.of("--csv", "--json")) {
				CliRun run = CliRun.of(command, trace.toString(), option, trace.toString());
				assertRefused(run, option, trace);
				assertTrue(run.err().contains("is the input"), run.err());
				assertArrayEquals(before, Files.readAllBytes(trace));
			}
		}
	}

	@Test
	void benchMarkdownIsNotWrittenThroughASymbolicLink() throws IOException {
		Path other = Files.writeString(dir.resolve("notes.md"), "mine");
		Path link = Files.createSymbolicLink(dir.resolve("bench.md"), other);
		CliRun run = CliRun.of("bench", "--quick", "--dir", dir.toString(), "--markdown", link.toString(), "lookup");
		assertRefused(run, "--markdown", link);
		assertEquals("mine", Files.readString(other));
	}
}
