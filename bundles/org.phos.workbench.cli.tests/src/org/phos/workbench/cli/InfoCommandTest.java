package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.export.JsonReader;

/** {@code workbench info}: the summary of a hand-made trace, its JSON form, and every way loading can fail. */
class InfoCommandTest {

	@TempDir
	Path dir;

	private Path small() throws IOException {
		Path file = dir.resolve("small.phos");
		TestTraces.writeSmall(file);
		return file;
	}

	@Test
	void textSummaryShowsHeaderCountsKernelsAllocationsStreams() throws IOException {
		Path file = small();
		CliRun run = CliRun.of("info", file.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		String out = run.out();
		assertTrue(out.startsWith(file + "\n"), out);
		assertTrue(out.contains("recorder   phos-test 1.2 on testhost, pid 4242"), out);
		assertTrue(out.contains("command    /usr/bin/python3 train.py --epochs 1"), out);
		assertTrue(out.contains("directory  /home/researcher/run\n"), out); // TraceHeader field 46
		assertTrue(out.contains("device     NVIDIA H100 80GB HBM3, compute capability 9.0, 80.0 GiB"), out);
		assertTrue(out.contains("driver 13.0, runtime 13.0"), out);
		assertTrue(out.contains("closed     cleanly, 19 events written, 0 dropped"), out);
		assertTrue(out.contains("started    2025-11-21 18:33:20.000 UTC"), out);
		assertTrue(Pattern.compile("launch\\s+6\\n").matcher(out).find(), out);
		assertTrue(Pattern.compile("alloc\\s+3\\n").matcher(out).find(), out);
		assertTrue(Pattern.compile("graph launch\\s+1\\n").matcher(out).find(), out);
		assertTrue(Pattern.compile("total\\s+19\\n").matcher(out).find(), out);
		// saxpy: launches 4, 5, 11 (graph node), 18 with 8 + 4 + 1 + 4 us of GPU time
		assertTrue(Pattern.compile("\\s4\\s+66\\.7%\\s+17\\.0 us\\s+1\\s+saxpy\\(int, float, float const\\*, float\\*\\)")
				.matcher(out).find(), out);
		// the untimed EX launch of the tricky kernel counts as a launch but not for GPU time; its name is one line
		assertTrue(out.contains("tricky<\"quoted\", a,b>\\(char\\n)"), out);
		assertTrue(out.contains("Kernels by GPU time (all 2, 19.0 us in all)"), out);
		// allocations: 64 KiB + 256 KiB live at event 2, the 256 KiB freed, then 4 KiB managed at the reused address
		assertTrue(out.contains("Allocations: 3 allocations, 2 frees; peak live 320 KiB at event 2; live at end "
				+ "68.0 KiB in 2 allocations"), out);
		assertTrue(out.contains("256 KiB  0x7f0000010000     async                 2  freed"), out);
		assertTrue(Pattern.compile("H2D\\s+1\\s+16 B\\s+1\\n").matcher(out).find(), out);
		assertTrue(out.contains("Streams (3)"), out);
		assertTrue(Pattern.compile("0x555500001000\\s+5\\s+1\\s+0\\s+2\\s+3\\s+21\\.0 us").matcher(out).find(), out);
		assertTrue(out.contains("GPU time   35.0 us (10.0 us .. 45.0 us), 7 of 9 GPU operations timed"), out);
		assertTrue(out.contains("1 free(s) of addresses with no live allocation in the trace"), out);
		// the hand-made trace never creates stream B nor CUDA event 0xe1: each kind reported once, on stderr and in
		// the summary
		String strange = "warning: " + file + ": strange trace: ";
		assertEquals(strange + "stream used without being created (no STREAM_CREATE before): 3 times, first at event 6 "
				+ "(stream 0x555500002000)\n" + strange + "CUDA event used without being created (no EVENT_CREATE "
				+ "before): 2 times, first at event 8 (EVENT_RECORD of event 0xe1)\n", run.err());
		assertTrue(out.contains("\nAnomalies (a well-formed trace that says strange things: analyses may rest on wrong "
				+ "data)\n  stream used without being created"), out);
	}

	@Test
	void topLimitsTheTables() throws IOException {
		CliRun run = CliRun.of("info", "--top", "1", small().toString());
		assertEquals(ExitCode.OK, run.exit());
		assertTrue(run.out().contains("Kernels by launches (top 1 of 2)"), run.out());
		assertFalse(run.out().contains("tricky"), run.out());
	}

	@Test
	@SuppressWarnings("unchecked")
	void jsonOutputParsesAndHoldsTheFigures() throws IOException {
		CliRun run = CliRun.of("info", "--json", small().toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		Map<String, Object> json = (Map<String, Object>) JsonReader.parse(run.out());
		assertEquals(19L, json.get("events"));
		Map<String, Object> header = (Map<String, Object>) json.get("header");
		assertEquals("NVIDIA H100 80GB HBM3", header.get("device"));
		assertEquals("9.0", header.get("computeCapability"));
		assertEquals(4242L, header.get("pid"));
		assertEquals(List.of("/usr/bin/python3", "train.py", "--epochs", "1"), header.get("argv"));
		assertEquals("/home/researcher/run", header.get("workingDirectory"));
		assertEquals(6L, ((Map<String, Object>) json.get("counts")).get("launch"));
		List<Map<String, Object>> kernels = (List<Map<String, Object>>) json.get("kernelsByLaunches");
		assertEquals(TestTraces.SAXPY, kernels.get(0).get("name"));
		assertEquals(4L, kernels.get(0).get("launches"));
		assertEquals(17_000L, kernels.get(0).get("gpuNs"));
		assertEquals(TestTraces.TRICKY, kernels.get(1).get("name"));
		Map<String, Object> allocations = (Map<String, Object>) json.get("allocations");
		assertEquals(320L * 1024, allocations.get("peakLiveBytes"));
		assertEquals(1L, allocations.get("freesOfUnknownAddresses"));
		assertEquals(3, ((List<?>) json.get("streams")).size());
		assertEquals(Boolean.TRUE, json.get("closedCleanly"));
	}

	@Test
	void severalTracesGiveSeveralSummariesAndAJsonArray() throws IOException {
		Path a = small();
		Path b = dir.resolve("b.phos");
		TestTraces.writeSmall(b);
		CliRun text = CliRun.of("info", a.toString(), b.toString());
		assertEquals(ExitCode.OK, text.exit());
		assertTrue(text.out().contains(a + "\n") && text.out().contains("\n" + b + "\n"), text.out());
		CliRun json = CliRun.of("info", "--json", a.toString(), b.toString());
		assertEquals(2, ((List<?>) JsonReader.parse(json.out())).size());
	}

	@Test
	void missingFileIsAFailureNamingIt() {
		Path missing = dir.resolve("nope.phos");
		CliRun run = CliRun.of("info", missing.toString());
		assertEquals(ExitCode.FAILURE, run.exit());
		assertEquals("workbench info: error: " + missing + ": no such file\n", run.err());
		assertEquals("", run.out());
	}

	@Test
	void directoryIsNotATrace() {
		CliRun run = CliRun.of("info", dir.toString());
		assertEquals(ExitCode.FAILURE, run.exit());
		assertTrue(run.err().contains(dir + ": is a directory, not a trace file"), run.err());
	}

	@Test
	void unreadableFileSaysPermissionDenied() throws IOException {
		Path file = small();
		assertTrue(file.toFile().setReadable(false));
		try {
			if (Files.isReadable(file)) {
				return; // running as root: permissions are not enforced
			}
			CliRun run = CliRun.of("info", file.toString());
			assertEquals(ExitCode.FAILURE, run.exit());
			assertTrue(run.err().contains("permission denied"), run.err());
		} finally {
			file.toFile().setReadable(true);
		}
	}

	@Test
	void aFileThatIsNotATraceNamesOffsetAndReason() throws IOException {
		Path file = dir.resolve("notes.txt");
		Files.writeString(file, "these are my notes, not a GPU trace\n");
		CliRun run = CliRun.of("info", file.toString());
		assertEquals(ExitCode.FAILURE, run.exit(), run.toString());
		assertTrue(run.err().startsWith("workbench info: error: " + file + ": cannot load: at byte offset 0: "),
				run.err());
		assertTrue(run.err().contains("not a .phos trace"), run.err());
		assertEquals(1, run.err().lines().count(), "one line, no stack trace: " + run.err());
	}

	@Test
	void aNewerFormatVersionIsRefused() throws IOException {
		Path file = small();
		byte[] bytes = Files.readAllBytes(file);
		bytes[8] = 7; // format version 7
		Files.write(file, bytes);
		CliRun run = CliRun.of("info", file.toString());
		assertEquals(ExitCode.FAILURE, run.exit());
		assertTrue(run.err().contains("format version 7"), run.err());
	}

	@Test
	void aTruncatedTraceLoadsItsIntactPrefixWithWarnings() throws IOException {
		Path file = small();
		byte[] bytes = Files.readAllBytes(file);
		Path cut = dir.resolve("cut.phos");
		Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 40));
		CliRun run = CliRun.of("info", cut.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		Matcher warning = Pattern.compile("warning: " + Pattern.quote(cut.toString()) + ": at byte offset (\\d+): ")
				.matcher(run.err());
		assertTrue(warning.find(), run.err());
		assertTrue(Long.parseLong(warning.group(1)) < bytes.length, run.err());
		assertTrue(run.err().contains("loaded the intact part"), run.err());
		assertTrue(run.out().contains("Warnings\n  at byte offset "), run.out());
		assertTrue(run.out().contains("closed     NO: the trace was not closed cleanly"), run.out());
	}

	@Test
	void anUnclosedTraceIsSummarisedWithAWarning() throws IOException {
		Path file = dir.resolve("unclosed.phos");
		TestTraces.writeUnclosed(file);
		CliRun run = CliRun.of("info", file.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertTrue(run.err().contains("not closed cleanly"), run.err());
		assertTrue(Pattern.compile("total\\s+19\\n").matcher(run.out()).find(), run.out());
	}

	@Test
	void aCorruptHeaderChunkFailsWithItsOffset() throws IOException {
		Path file = small();
		byte[] bytes = Files.readAllBytes(file);
		bytes[16 + 24 + 2] ^= 0x55; // inside the payload of the first chunk (the header)
		Files.write(file, bytes);
		CliRun run = CliRun.of("info", file.toString());
		assertEquals(ExitCode.FAILURE, run.exit(), run.toString());
		assertTrue(run.err().contains("cannot load: at byte offset 16: "), run.err());
	}

	@Test
	void oneBadTraceAmongSeveralFailsTheRunButTheOthersAreSummarised() throws IOException {
		Path good = small();
		Path missing = dir.resolve("missing.phos");
		CliRun run = CliRun.of("info", missing.toString(), good.toString());
		assertEquals(ExitCode.FAILURE, run.exit());
		assertTrue(run.err().contains(missing + ": no such file"), run.err());
		assertTrue(run.err().contains("1 of 2 traces could not be loaded"), run.err());
		assertTrue(run.out().contains("phos-test 1.2"), run.out());
	}

	@Test
	void usageMistakes() {
		assertEquals(ExitCode.USAGE, CliRun.of("info").exit());
		assertTrue(CliRun.of("info").err().contains("missing argument TRACE"));
		CliRun top = CliRun.of("info", "--top", "lots", "x.phos");
		assertEquals(ExitCode.USAGE, top.exit());
		assertTrue(top.err().contains("option --top expects an integer from 1 to 100000, got 'lots'"), top.err());
		CliRun json = CliRun.of("info", "--jsn", "x.phos");
		assertTrue(json.err().contains("unknown option --jsn; did you mean --json?"), json.err());
	}
}
