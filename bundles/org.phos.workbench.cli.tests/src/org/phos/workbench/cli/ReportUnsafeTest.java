package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.ParamInfo;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceWriter;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * {@code workbench report} on a trace where an engine misses a write (a kernel writes through a pointer stored in
 * device memory): the page lists the unsafe launch as {@code validate} counts it, and the C/R run with that engine's
 * sets is inconsistent with {@code simulate}'s violations.
 */
class ReportUnsafeTest {
	private static final long A = 0x7f00_0000_0000L;
	private static final long B = 0x7f00_1000_0000L;
	private static final long TABLE = 0x7f00_2000_0000L;
	private static final long SIZE = 64L << 20;

	@TempDir
	Path dir;

	private static byte[] pointer(long p) {
		return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(p).array();
	}

	/** fill(A), gather(T) writing B through a pointer stored in T, fill(A); every launch observed. */
	private Path trace() throws IOException {
		Path file = dir.resolve("indirect.phos");
		try (TraceWriter w = TraceWriter.create(file, TraceHeader.builder("test", "1").build())) {
			w.function(new FunctionInfo(1, 0, "_Z4fillPf", "fill(float*)", List.of(new ParamInfo(0, 8))));
			w.function(new FunctionInfo(2, 0, "_Z6gatherPPf", "gather(float**)", List.of(new ParamInfo(0, 8))));
			w.write(new TraceEvent.Alloc(1_000, 0, A, SIZE, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Alloc(2_000, 0, B, SIZE, AllocKind.PLAIN, 0));
			w.write(new TraceEvent.Alloc(3_000, 0, TABLE, 4096, AllocKind.PLAIN, 0));
			long l0 = w.write(new TraceEvent.Launch(10_000, 0, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0,
					pointer(A), 0, 0, LaunchKind.PLAIN, 0));
			long l1 = w.write(new TraceEvent.Launch(20_000, 0, 2, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0,
					pointer(TABLE), 0, 0, LaunchKind.PLAIN, 0));
			long l2 = w.write(new TraceEvent.Launch(30_000, 0, 1, new Dim3(1, 1, 1), new Dim3(32, 1, 1), 0, 0,
					pointer(A), 0, 0, LaunchKind.PLAIN, 0));
			w.observed(new ObservedAccess(l0, A, List.of(), List.of(new AddressRange(A, A + SIZE)), 0, 1, "ptx"));
			w.observed(new ObservedAccess(l1, TABLE, List.of(new AddressRange(TABLE, TABLE + 8)), List.of(), 1, 0,
					"ptx"));
			w.observed(new ObservedAccess(l1, B, List.of(), List.of(new AddressRange(B, B + 4096)), 0, 1, "ptx"));
			w.observed(new ObservedAccess(l2, A, List.of(), List.of(new AddressRange(A, A + SIZE)), 0, 1, "ptx"));
		}
		return file;
	}

	@Test
	void theMissedWriteIsListedAndTheRunWithThoseSetsIsInconsistent() throws Exception {
		Path trace = trace();
		Path out = dir.resolve("report");
		CliRun run = CliRun.of("report", trace.toString(), "--engine", "arg-scan,phos", "--sets-engine", "arg-scan",
				"--policy", "soft-cow", "--at", "launch:1", "--out", out.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		Path csv = dir.resolve("validate.csv");
		CliRun validate = CliRun.of("validate", trace.toString(), "--engine", "arg-scan,phos", "--csv", csv.toString());
		assertEquals(ExitCode.OK, validate.exit(), validate.toString());
		assertEquals(Files.readString(csv), Files.readString(out.resolve("indirect-accuracy.csv")));
		long unsafe = Files.readAllLines(csv).stream().filter(l -> l.startsWith("arg-scan,(all kernels),"))
				.mapToLong(l -> Long.parseLong(l.split(",")[4])).findFirst().orElseThrow();
		assertTrue(unsafe > 0, "arg-scan misses the write through the table: " + validate.out());

		Document page = ReportCommandTest.parse(out.resolve("indirect.html"));
		Element list = ReportCommandTest.elements(page, "ul").stream()
				.filter(u -> u.getAttribute("data-engine").equals("arg-scan")).findFirst()
				.orElseThrow(() -> new AssertionError("no unsafe list for arg-scan"));
		assertEquals(Long.toString(unsafe), list.getAttribute("data-count"));
		Element first = ReportCommandTest.elements(list, "li").get(0);
		assertEquals("1", first.getAttribute("data-launch"), "the gather launch");
		assertTrue(first.getTextContent().contains("gather(float**)"), first.getTextContent());

		Path sim = dir.resolve("sim");
		CliRun simulate = CliRun.of("simulate", trace.toString(), "--policy", "soft-cow", "--at", "launch:1",
				"--sets", "observed,engine:arg-scan", "--out", sim.toString());
		assertEquals(ExitCode.OK, simulate.exit(), simulate.toString());
		assertEquals(Files.readString(sim.resolve("metrics.csv")), Files.readString(out.resolve("indirect-metrics.csv")));
		assertEquals(Files.readString(sim.resolve("violations.csv")),
				Files.readString(out.resolve("indirect-violations.csv")));
		Element row = ReportCommandTest.elements(ReportCommandTest.table(page, "cr-metrics"), "tr").stream()
				.filter(r -> r.getAttribute("data-run").equals("soft-cow [engine:arg-scan]")).findFirst().orElseThrow();
		Element verdict = ReportCommandTest.cells(row).stream()
				.filter(td -> td.getAttribute("data-col").equals("consistency_violations")).findFirst().orElseThrow();
		assertEquals("1", verdict.getAttribute("data-v"));
		assertTrue(verdict.getTextContent().startsWith("INCONSISTENT: 1 violation(s), 64.0 MiB"),
				verdict.getTextContent());
		assertTrue(run.out().contains("indirect.phos: 3 launches, 2 kernels; unsafe launches: arg-scan " + unsafe),
				run.out());
		assertTrue(run.out().contains("C/R: 2 runs, 1 inconsistent"), run.out());
	}
}
