package org.phos.workbench.cli.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cli.CliRun;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * How {@code simulate} writes its folder (issue #10): complete files and a manifest last, the previous run's files
 * replaced with a word, files it did not write never touched, checkpoint instants past the trace's end refused.
 */
class SimulateOutputsTest {

	static final long A = 0x7f00_0000_0000L;

	@TempDir
	Path dir;

	/** Three launches over one 1 MiB buffer, 10 us apart. */
	private Path trace() throws IOException {
		Path file = dir.resolve("three.phos");
		try (TraceWriter w = TraceWriter.create(file, TraceHeader.builder("test", "1").build())) {
			w.function(new FunctionInfo(1, 0, "_Z4fillPf", "fill(float*)", List.of(new ParamInfo(0, 8))));
			w.write(new TraceEvent.Alloc(1_000, 0, A, 1 << 20, AllocKind.PLAIN, 0));
			byte[] p = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(A).array();
			for (int i = 0; i < 3; i++) {
				w.write(new TraceEvent.Launch(10_000 + 10_000L * i, 0, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0,
						p, 0, 0, LaunchKind.PLAIN, 0));
			}
		}
		return file;
	}

	private CliRun simulate(Path out, String policy, String... more) throws IOException {
		List<String> args = new java.util.ArrayList<>(List.of("simulate", trace().toString(), "--policy", policy,
				"--width", "400", "--out", out.toString()));
		args.addAll(List.of(more));
		return CliRun.of(args.toArray(String[]::new));
	}

	private static List<String> names(Path out) throws IOException {
		try (var files = Files.list(out)) {
			return files.map(p -> p.getFileName().toString()).sorted().toList();
		}
	}

	@Test
	void aCompleteResultEndsWithAManifestListingItsFiles() throws IOException {
		Path out = dir.resolve("sim");
		CliRun r = simulate(out, "soft-cow", "--at", "launch:1");
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		String manifest = Files.readString(out.resolve("manifest.json"));
		assertTrue(manifest.contains("\"complete\": true"), manifest);
		assertTrue(manifest.contains("\"sha256\": \""), manifest);
		assertTrue(manifest.contains("\"policy\": \"soft-cow\""), manifest);
		for (String name : names(out)) {
			assertFalse(name.endsWith(".part"), "temporary file left: " + name);
			if (!name.equals("manifest.json")) {
				assertTrue(manifest.contains("\"name\": \"" + name + "\",\n"), name + " not in " + manifest);
				assertTrue(manifest.contains("\"bytes\": " + Files.size(out.resolve(name))), name + ": " + manifest);
			}
		}
		Path plain = Files.createFile(dir.resolve("plain"));
		assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out.resolve("timeline.png")),
				"the umask's permissions");
	}

	@Test
	void aPreviousRunsFilesAreReplacedWithAWordAndOthersKept() throws IOException {
		Path out = dir.resolve("sim");
		assertEquals(ExitCode.OK, simulate(out, "stop-the-world;soft-cow", "--at", "launch:1").exit());
		assertTrue(Files.exists(out.resolve("timeline-soft-cow.json")));
		Files.writeString(out.resolve("notes.txt"), "mine");
		CliRun r = simulate(out, "soft-cow", "--at", "launch:1");
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.err().contains("previous simulate run"), r.err());
		assertFalse(Files.exists(out.resolve("timeline-soft-cow.json")), "the old run's file was removed");
		assertFalse(Files.exists(out.resolve("timeline-stop-the-world.png")), "the old run's file was removed");
		assertTrue(Files.exists(out.resolve("timeline.json")));
		assertEquals("mine", Files.readString(out.resolve("notes.txt")));
	}

	@Test
	void filesNoManifestListsAreNeverOverwritten() throws IOException {
		Path out = Files.createDirectories(dir.resolve("sim"));
		Files.writeString(out.resolve("timeline.json"), "my own timeline");
		Files.writeString(out.resolve("notes.txt"), "mine");
		CliRun r = simulate(out, "soft-cow", "--at", "launch:1");
		assertEquals(ExitCode.FAILURE, r.exit(), r.toString());
		assertTrue(r.err().contains("timeline.json"), r.err());
		assertEquals("my own timeline", Files.readString(out.resolve("timeline.json")));
		assertEquals(List.of("notes.txt", "timeline.json"), names(out));
	}

	@Test
	void aLaunchPastTheEndIsRefused() throws IOException {
		Path out = dir.resolve("sim");
		CliRun r = simulate(out, "soft-cow", "--at", "launch:500");
		assertEquals(ExitCode.USAGE, r.exit(), r.toString());
		assertTrue(r.err().contains("--at launch:500") && r.err().contains("3 launches"), r.err());
		r = simulate(out, "soft-cow:at=launch:9");
		assertEquals(ExitCode.USAGE, r.exit(), r.toString());
		assertTrue(r.err().contains("--policy soft-cow:at=launch:9") && r.err().contains("3 launches"), r.err());
	}

	@Test
	void aTimePastTheEndIsRefusedAndLeavesNoFiles() throws IOException {
		Path out = dir.resolve("sim");
		CliRun r = simulate(out, "soft-cow", "--at", "100s");
		assertEquals(ExitCode.USAGE, r.exit(), r.toString());
		assertTrue(r.err().contains("--at 100s"), r.err());
		assertEquals(List.of(), names(out), "nothing under a final name, no temporary file");
	}
}
