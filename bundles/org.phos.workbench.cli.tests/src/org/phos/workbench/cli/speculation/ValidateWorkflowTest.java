package org.phos.workbench.cli.speculation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cli.CliRun;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.speculation.core.instrument.ObservedTraceWriter;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * Issue #15 (i15-val): validate's workflow: the side file beside a trace, per-launch verdicts numbered as
 * {@code speculate --launch N}, the direction figures and the PTX line, and bad input named with its file.
 */
class ValidateWorkflowTest {

	static final long A = 0x7f00_0000_0000L;
	static final long B = 0x7f00_0001_0000L;

	@TempDir
	Path dir;

	private static byte[] params(long a, long b) {
		return ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN).putLong(a).putLong(b).putLong(7).array();
	}

	/**
	 * copy(float const*, float*, int) launched three times on (A, B): launch 0 reads A[0, 64) and writes B[0, 64);
	 * launch 1 is not observed; launch 2 writes A[0, 8) through the const pointer (phos: wrong direction) and reads
	 * B[0, 4). Between the launches an Alloc, so that launch numbers and event numbers differ.
	 */
	private Path trace(String name, boolean observed) throws IOException {
		Path file = dir.resolve(name);
		try (TraceWriter w = TraceWriter.create(file, TraceHeader.builder("test", "1").build())) {
			w.function(new FunctionInfo(1, 0, "_Z4copyPKfPfi", "copy(float const*, float*, int)",
					List.of(new ParamInfo(0, 8), new ParamInfo(8, 8), new ParamInfo(16, 4))));
			w.write(new TraceEvent.Alloc(1, 0, A, 4096, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Alloc(2, 0, B, 4096, AllocKind.PLAIN, 0));
			long l0 = w.write(launch(3));
			w.write(new TraceEvent.Alloc(4, 0, 0x7f00_0002_0000L, 4096, AllocKind.PLAIN, 0));
			w.write(launch(5));
			long l2 = w.write(launch(6));
			if (observed) {
				for (ObservedAccess a : truth(l0, l2)) {
					w.observed(a);
				}
			}
		}
		return file;
	}

	private static TraceEvent.Launch launch(long t) {
		return new TraceEvent.Launch(t, 0, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0, params(A, B), 0, 0,
				LaunchKind.PLAIN, 0);
	}

	private static List<ObservedAccess> truth(long l0, long l2) {
		return List.of(
				new ObservedAccess(l0, A, List.of(new AddressRange(A, A + 64)), List.of(), 16, 0, "sanitizer"),
				new ObservedAccess(l0, B, List.of(), List.of(new AddressRange(B, B + 64)), 0, 16, "sanitizer"),
				new ObservedAccess(l2, A, List.of(), List.of(new AddressRange(A, A + 8)), 0, 2, "sanitizer"),
				new ObservedAccess(l2, B, List.of(new AddressRange(B, B + 4)), List.of(), 1, 0, "sanitizer"));
	}

	/** Writes {@code NAME.observed.phos} beside {@code trace} as the sanitizer tool does (events 2 and 5). */
	private Path sideFile(Path trace, Path side) throws IOException {
		var loaded = TraceReader.read(trace, null).trace();
		ObservedTraceWriter.write(loaded, truth(2, 5), side);
		return side;
	}

	@Test
	void theSideFileBesideTheTraceIsUsedAndTheMergeCommandNamed() throws IOException {
		Path plain = trace("run.phos", false);
		Path side = sideFile(plain, dir.resolve("run.phos.observed.phos"));
		CliRun r = CliRun.of("validate", plain.toString(), "--engine", "phos,arg-scan");
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().startsWith("observed accesses: 4 records from " + side + " (beside the trace, not merged "
				+ "into it; to write one file holding both: workbench merge-observed " + plain + " " + side + " --out "
				+ dir.resolve("run-with-truth.phos") + ")"), r.out());
		assertTrue(r.out().contains(": 2 of 3 launches observed (4 records by sanitizer)"), r.out());
		// the same figures as validate on the merged trace
		Path merged = dir.resolve("run-with-truth.phos");
		assertEquals(ExitCode.OK, CliRun.of("merge-observed", plain.toString(), side.toString(), "--out",
				merged.toString()).exit());
		CliRun m = CliRun.of("validate", merged.toString(), "--engine", "phos,arg-scan");
		assertEquals(tables(m.out()), tables(r.out()));
		// NAME.observed.phos beside NAME.phos is found too
		Path other = trace("other.phos", false);
		sideFile(other, dir.resolve("other.observed.phos"));
		CliRun o = CliRun.of("validate", other.toString(), "--engine", "phos");
		assertEquals(ExitCode.OK, o.exit(), o.toString());
		assertTrue(o.out().contains("from " + dir.resolve("other.observed.phos")), o.out());
		// a trace holding its own truth keeps it, and the side file is named
		Path own = trace("own.phos", true);
		sideFile(own, dir.resolve("own.phos.observed.phos"));
		CliRun w = CliRun.of("validate", own.toString(), "--engine", "phos");
		assertEquals(ExitCode.OK, w.exit(), w.toString());
		assertTrue(w.out().startsWith("note: " + dir.resolve("own.phos.observed.phos") + " beside the trace also "
				+ "holds observed accesses; not used, the trace's own are"), w.out());
	}

	@Test
	void theSideFilesCoverageComesAlongAndIsChecked() throws IOException {
		Path plain = trace("cov.phos", false);
		Path side = dir.resolve("cov.phos.observed.phos");
		var loaded = TraceReader.read(plain, null).trace();
		ObservedTraceWriter.write(loaded, truth(2, 5), List.of(new org.phos.workbench.trace.core.ObservationCoverage(
				"sanitizer", new long[] { 2, 5 }, "each launch shape 2 times", 3)), side);
		CliRun r = CliRun.of("validate", plain.toString(), "--engine", "phos");
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().contains("\ncoverage (sanitizer): 2 of 3 launches observed (each launch shape 2 times); 1 not "
				+ "observed, not judged\n"), r.out());
		// coverage naming an event that is no launch of the trace: another run's side file
		ObservedTraceWriter.write(loaded, truth(2, 5), List.of(new org.phos.workbench.trace.core.ObservationCoverage(
				"sanitizer", new long[] { 1 }, "every launch", 3)), side);
		CliRun f = CliRun.of("validate", plain.toString(), "--engine", "phos");
		assertEquals(ExitCode.FAILURE, f.exit());
		assertTrue(f.err().contains(side + ": its coverage names event 1, which is not a launch of " + plain), f.err());
	}

	/** The engine tables, without the first lines that name the file. */
	private static String tables(String out) {
		return out.substring(out.indexOf("\nENGINE "));
	}

	@Test
	void withoutTruthAnywhereTheMessageNamesTheFileItLookedFor() throws IOException {
		Path plain = trace("bare.phos", false);
		CliRun r = CliRun.of("validate", plain.toString());
		assertEquals(ExitCode.FAILURE, r.exit());
		assertTrue(r.err().contains(plain + ": the trace holds no observed accesses, and there is no "
				+ "bare.phos.observed.phos beside it"), r.err());
		assertEquals("", r.out());
	}

	@Test
	void aCorruptOrForeignSideFileIsNamedWithTheOffset() throws IOException {
		Path plain = trace("c.phos", false);
		Path side = dir.resolve("c.phos.observed.phos");
		Files.write(side, "PHOS\r\n\u001a\nthis is no trace".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
		CliRun r = CliRun.of("validate", plain.toString());
		assertEquals(ExitCode.FAILURE, r.exit());
		assertTrue(r.err().contains(side + ": cannot load: at byte offset "), r.err());
		assertTrue(r.err().contains("(the observed accesses beside " + plain + "; the trace itself holds none)"),
				r.err());
		assertFalse(r.err().contains("\tat org."), "no stack trace: " + r.err());
		// a side file of another run: its records name events that are no launches of this trace
		Files.delete(side);
		Path foreign = trace("foreign.phos", false);
		try (TraceWriter w = TraceWriter.create(side, TraceHeader.builder("test", "1").build())) {
			w.observed(new ObservedAccess(1, A, List.of(new AddressRange(A, A + 4)), List.of(), 1, 0, "sanitizer"));
		}
		CliRun f = CliRun.of("validate", plain.toString());
		assertEquals(ExitCode.FAILURE, f.exit());
		assertTrue(f.err().contains(side + ": observed access names event 1, which is not a launch of " + plain),
				f.err());
		assertTrue(Files.exists(foreign));
		// a side file without observed accesses
		Files.delete(side);
		Files.copy(foreign, side);
		CliRun e = CliRun.of("validate", plain.toString());
		assertEquals(ExitCode.FAILURE, e.exit());
		assertTrue(e.err().contains("and neither does " + side), e.err());
	}

	@Test
	void launchesListsEveryJudgedLaunchNumberedAsSpeculateNumbersThem() throws IOException {
		Path t = trace("l.phos", true);
		Path csv = dir.resolve("launches.csv");
		Path json = dir.resolve("launches.json");
		CliRun r = CliRun.of("validate", t.toString(), "--engine", "phos,arg-scan", "--launches", "--csv",
				csv.toString(), "--json", json.toString());
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		// launch 0 (event 2): phos over-approximates (whole buffers); launch 2 (event 5): the const pointer written
		Matcher l0 = Pattern.compile("\\n +0 +2 copy\\(float const\\*, float\\*, int\\) +over-approximated "
				+ "[0-9.]+% +over-approximated [0-9.]+%\\n").matcher(r.out());
		assertTrue(l0.find(), r.out());
		assertTrue(Pattern.compile("\\n +2 +5 copy\\(float const\\*, float\\*, int\\) +WRONG-DIRECTION [0-9.]+% "
				+ "+over-approximated [0-9.]+%\\n").matcher(r.out()).find(), r.out());
		assertFalse(Pattern.compile("\\n +1 +4 copy").matcher(r.out()).find(), "launch 1 is not observed: " + r.out());
		// speculate --launch 2 is the same launch (event 5)
		CliRun s = CliRun.of("speculate", t.toString(), "--engine", "phos", "--launch", "2");
		assertTrue(s.out().contains("launch 2 (event 5, copy(float const*, float*, int))"), s.out());
		List<String> rows = Files.readAllLines(csv);
		assertTrue(rows.get(0).startsWith("launch,event,function_id,kernel,engine,verdict,exact,over_approximated,"
				+ "missed_read,missed_write,wrong_direction,speculated_bytes,observed_bytes,useful_bytes"), rows.get(0));
		assertEquals(5, rows.size(), rows.toString()); // 2 launches x 2 engines
		// phos on launch 2: A speculated read 4096, observed written 8; B read-write 8192 speculated, 4 read
		assertTrue(rows.contains("2,5,1,\"copy(float const*, float*, int)\",phos,wrong-direction,0,1,0,0,1,8192,12,"
				+ "12,8,0,8192,4096,4,8,2,0"), rows.toString());
		String j = Files.readString(json);
		assertTrue(j.startsWith("{") && j.trim().endsWith("}"), j);
		assertTrue(j.contains("\"launches\": ["), j);
		assertTrue(j.contains("\"verdict\": \"wrong-direction\""), j);
		assertTrue(j.contains("\"direction_accuracy\""), j);
		assertTrue(j.contains("\"ptx\": {"), j);
	}

	@Test
	void directionFiguresAndThePtxLineInTextCsvAndJson() throws IOException {
		Path t = trace("d.phos", true);
		Path csv = dir.resolve("d.csv");
		Path json = dir.resolve("d.json");
		CliRun r = CliRun.of("validate", t.toString(), "--engine", "phos", "--csv", csv.toString(), "--json",
				json.toString());
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		// phos: A read (4096 per launch) and B read-write (4096 per launch) on launches 0 and 2
		// read: speculated 2 * 8192, observed A 64 + B 4, matched 68; written: speculated 2 * 4096 (B), observed
		// B 64 + A 8, matched 64; pairs: l0 A R/R right, l0 B RW vs W wrong, l2 A R vs W wrong, l2 B RW vs R wrong
		String read = SpeculationInputs.percent(68 / 16384.0);
		String write = SpeculationInputs.percent(64 / 8192.0);
		assertTrue(Pattern.compile("\\nphos +" + Pattern.quote(read) + " +" + Pattern.quote(write) + " +100\\.00% +"
				+ Pattern.quote(SpeculationInputs.percent(64 / 72.0)) + " +25\\.00% +1/4\\n").matcher(r.out()).find(),
				r.out());
		assertTrue(r.out().contains("\nPTX: 0 of 3 launches have their kernel's PTX (0 of 1 kernel"), r.out());
		List<String> rows = Files.readAllLines(csv);
		assertTrue(rows.get(0).endsWith(",excluded_launches,speculated_read_bytes,read_bytes,read_bytes_matched,"
				+ "speculated_written_bytes,direction_pairs,direction_pairs_correct,read_precision,write_precision,"
				+ "read_byte_recall,write_byte_recall,direction_accuracy"), rows.get(0));
		assertTrue(rows.get(1).startsWith("phos,(all kernels),-1,2,1,"), rows.get(1));
		assertTrue(rows.get(1).contains(",0,16384,68,68,8192,4,1,"), rows.get(1));
		String j = Files.readString(json);
		assertTrue(j.contains("\"read_precision\": " + (68 / 16384.0)), j);
		assertTrue(j.contains("\"direction_pairs_correct\": 1"), j);
		assertTrue(j.contains("\"no-module\": 3"), j);
	}

	@Test
	void infoSaysWhichLaunchesHaveNoPtxAndWhy() throws IOException {
		Path t = trace("i.phos", false);
		CliRun r = CliRun.of("info", t.toString());
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().contains("\n  PTX        0 of 3 launches have their kernel's PTX (0 of 1 kernel"), r.out());
		assertTrue(r.out().contains("3 no module image recorded (1 kernel)"), r.out());
		CliRun j = CliRun.of("info", "--json", t.toString());
		assertTrue(j.out().contains("\"launchesWithoutPtx\": 3"), j.out());
	}
}
