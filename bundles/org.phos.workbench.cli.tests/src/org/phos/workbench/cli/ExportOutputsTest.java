package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export --out}: never over the input or through a link, device or FIFO; a failed standard output is a
 * failure; temporary files of killed runs are cleaned up; files get the umask's permissions (issue #10).
 */
class ExportOutputsTest {

	@TempDir
	Path dir;

	private Path trace() throws IOException {
		Path file = dir.resolve("run.phos");
		TestTraces.writeSmall(file);
		return file;
	}

	private static void assertRefused(CliRun run, String argument) {
		assertEquals(ExitCode.FAILURE, run.exit(), run.toString());
		assertEquals(1, run.err().lines().count(), "one line: " + run.err());
		assertTrue(run.err().contains("--out " + argument + ": "), run.err());
	}

	@Test
	void theInputTraceIsNeverOverwritten() throws IOException {
		Path trace = trace();
		byte[] before = Files.readAllBytes(trace);
		CliRun run = CliRun.of("export", trace.toString(), "--format", "csv", "--out", trace.toString());
		assertRefused(run, trace.toString());
		assertTrue(run.err().contains("is the input"), run.err());
		assertArrayEquals(before, Files.readAllBytes(trace));
	}

	@Test
	void theInputTraceIsRecognisedThroughLinks() throws IOException {
		Path trace = trace();
		byte[] before = Files.readAllBytes(trace);
		Path hard = Files.createLink(dir.resolve("hard.csv"), trace);
		CliRun run = CliRun.of("export", trace.toString(), "--out", hard.toString());
		assertRefused(run, hard.toString());
		Path soft = Files.createSymbolicLink(dir.resolve("soft.csv"), trace);
		run = CliRun.of("export", trace.toString(), "--out", soft.toString());
		assertRefused(run, soft.toString());
		assertArrayEquals(before, Files.readAllBytes(trace));
		assertTrue(Files.isSymbolicLink(soft));
	}

	@Test
	void aSymbolicLinkIsNotReplaced() throws IOException {
		Path trace = trace();
		Path other = Files.writeString(dir.resolve("notes.txt"), "mine");
		Path link = Files.createSymbolicLink(dir.resolve("out.csv"), other);
		CliRun run = CliRun.of("export", trace.toString(), "--out", link.toString());
		assertRefused(run, link.toString());
		assertTrue(run.err().contains("symbolic link"), run.err());
		assertTrue(Files.isSymbolicLink(link));
		assertEquals("mine", Files.readString(other));
	}

	@Test
	void aFifoIsNotReplaced() throws Exception {
		Path trace = trace();
		Path fifo = dir.resolve("pipe.csv");
		assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
		CliRun run = CliRun.of("export", trace.toString(), "--out", fifo.toString());
		assertRefused(run, fifo.toString());
		assertFalse(Files.isRegularFile(fifo, LinkOption.NOFOLLOW_LINKS), "still a FIFO");
		assertTrue(Files.exists(fifo, LinkOption.NOFOLLOW_LINKS));
	}

	@Test
	void aClosedStandardOutputFailsTheExport() throws IOException {
		Path trace = trace();
		// a pipe whose reader went away after 100 bytes (head -c 100): every later write fails
		OutputStream closedPipe = new OutputStream() {
			int written;

			@Override
			public void write(int b) throws IOException {
				if (++written > 100) {
					throw new IOException("Broken pipe");
				}
			}
		};
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		try (PrintStream o = new PrintStream(closedPipe, true, StandardCharsets.UTF_8);
				PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
			int exit = new Main(BuiltinCommands.all()).run(
					new String[] { "export", trace.toString(), "--format", "csv", "--out", "-" }, o, e, false);
			String message = err.toString(StandardCharsets.UTF_8);
			assertEquals(ExitCode.FAILURE, exit, message);
			// the shared test trace is strange on purpose (streams and events never created): its load warnings
			// come first; the failure itself is one line
			assertEquals(1, message.lines().filter(l -> !l.startsWith("warning: ")).count(), message);
			assertTrue(message.contains("standard output"), message);
		}
	}

	@Test
	void temporaryFilesOfKilledExportsAreRemovedAndOthersKept() throws Exception {
		Path trace = trace();
		Process gone = new ProcessBuilder("true").start();
		gone.waitFor();
		Path stale = Files.write(dir.resolve(".run.csv.phos-" + gone.pid() + "-1abc.part"), new byte[4096]);
		Path live = Files.write(dir.resolve(".run.csv.phos-" + ProcessHandle.current().pid() + "-2abc.part"),
				new byte[1]);
		Path foreign = Files.write(dir.resolve(".run.csv.12345.part"), new byte[1]);
		CliRun run = CliRun.of("export", trace.toString(), "--out", dir.resolve("run.csv").toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertFalse(Files.exists(stale), "left by a dead process: removed");
		assertTrue(run.err().contains("removed " + stale), run.err());
		assertTrue(Files.exists(live), "a running process's file is kept");
		assertTrue(Files.exists(foreign), "not our naming: kept");
	}

	@Test
	void outputHasTheUmasksPermissionsLikeAnyNewFile() throws IOException {
		Path trace = trace();
		Path out = dir.resolve("run.json");
		CliRun run = CliRun.of("export", trace.toString(), "--out", out.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		Path plain = Files.createFile(dir.resolve("plain"));
		assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out));
		try (var files = Files.list(dir)) {
			assertEquals(List.of(), files.filter(p -> p.getFileName().toString().endsWith(".part")).toList());
		}
	}
}
