package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * {@code workbench report} on a trace where an engine misses a write (a kernel writes through a pointer stored in
 * device memory): the page lists the unsafe launch as {@code validate} counts it, and the C/R run with that engine's
 * sets is inconsistent with {@code simulate}'s violations.
 */
class ReportUnsafeTest {

	@TempDir
	Path dir;

	/** SimulateCommandTest's trace with observed accesses: the placeholder misses a write through a table. */
	private Path trace() throws IOException {
		return org.phos.workbench.cli.simulate.SimulateCommandTest.trace(dir.resolve("indirect.phos"), true);
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
