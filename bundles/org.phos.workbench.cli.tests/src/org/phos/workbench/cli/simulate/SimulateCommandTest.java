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
import org.phos.workbench.trace.core.synthetic.IndirectWriteTrace;

/** {@code simulate} through the real parser, on traces written with the real writer. */
public class SimulateCommandTest {

	static final long A = IndirectWriteTrace.A;
	static final long SIZE = IndirectWriteTrace.SIZE;

	@TempDir
	Path dir;

	private static byte[] pointer(long p) {
		return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(p).array();
	}

	/**
	 * Three launches on one stream over two 64 MiB buffers A, B and a pointer table T: fill(A), then
	 * gather(T), which really writes B through a pointer stored in T (the placeholder sees only T), then fill(A).
	 * With observed accesses, every launch carries the truth ({@link IndirectWriteTrace}).
	 */
	private Path trace(boolean observed) throws IOException {
		return trace(dir.resolve(observed ? "observed.phos" : "plain.phos"), observed);
	}

	/** Writes that trace into {@code file} (also the trace of the experiment and report tests). */
	public static Path trace(Path file, boolean observed) throws IOException {
		return IndirectWriteTrace.write(file, observed);
	}

	@Test
	void placeholderSetsMissTheIndirectWriteAndTheCheckSaysSo() throws IOException {
		Path out = dir.resolve("sim");
		CliRun r = CliRun.of("simulate", trace(true).toString(), "--policy", "soft-cow", "--at", "launch:1", "--sets",
				"placeholder", "--out", out.toString());
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().contains("consistency of soft-cow: INCONSISTENT: 1 violation(s), 64.0 MiB of buffers "
				+ "affected (3 launches with observed accesses"), r.out());
		assertTrue(r.out().contains("buffer 1"), r.out());
		for (String f : List.of("timeline.json", "intervals.csv", "metrics.csv", "violations.csv", "timeline.png",
				"timeline.svg", "dirty.png", "dirty.svg", "comparison.png", "comparison.svg")) {
			assertTrue(Files.size(out.resolve(f)) > 0, f + " missing or empty");
		}
		List<String> metrics = Files.readAllLines(out.resolve("metrics.csv"));
		assertEquals("run,metric,value", metrics.get(0));
		assertTrue(metrics.contains("soft-cow,consistency_violations,1"), metrics.toString());
		assertTrue(metrics.contains("soft-cow,consistency_affected_bytes," + SIZE), metrics.toString());
		List<String> violations = Files.readAllLines(out.resolve("violations.csv"));
		assertEquals(2, violations.size(), violations.toString());
		assertTrue(violations.get(1).startsWith("soft-cow,0,MISSED_WRITE_BEFORE_COPY,1,"), violations.get(1));
		String json = Files.readString(out.resolve("timeline.json"));
		assertTrue(json.startsWith("{") && json.trim().endsWith("}") && json.contains("\"traceEvents\""));
		assertTrue(json.contains("\"ph\":\"X\""), "intervals are complete events");
		byte[] png = Files.readAllBytes(out.resolve("timeline.png"));
		assertEquals((byte) 0x89, png[0]);
		assertEquals('P', png[1]);
		assertTrue(Files.readString(out.resolve("timeline.svg")).contains(">stream 0<"));
	}

	@Test
	void observedSetsAreConsistentAndComparisonWritesOneFilePerRun() throws IOException {
		Path out = dir.resolve("cmp");
		CliRun r = CliRun.of("simulate", trace(true).toString(), "--policy", "stop-the-world; soft-cow", "--at", "launch:1",
				"--sets", "observed", "--machine", "a800-pcie4,d2h=20GB/s", "--out", out.toString());
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().contains("consistency of soft-cow: consistent: 0 violations"), r.out());
		assertTrue(r.out().contains("machine: a800-pcie4*"), r.out());
		// the table: one row per run, in command-line order
		int stw = r.out().indexOf("\nstop-the-world ");
		int cow = r.out().indexOf("\nsoft-cow ");
		assertTrue(stw > 0 && cow > stw, r.out());
		for (String f : List.of("timeline-stop-the-world.json", "timeline-soft-cow.json", "intervals-soft-cow.csv",
				"timeline-stop-the-world.png", "timeline-soft-cow.svg", "comparison.png", "dirty.png")) {
			assertTrue(Files.exists(out.resolve(f)), f + " missing: " + r.out());
		}
		assertFalse(Files.exists(out.resolve("timeline.json")));
		List<String> metrics = Files.readAllLines(out.resolve("metrics.csv"));
		assertTrue(metrics.contains("stop-the-world,policy,stop-the-world"), metrics.toString());
		assertTrue(metrics.contains("soft-cow,consistency_violations,0"), metrics.toString());
		// stop-the-world copies 128 MiB + 4 KiB at 20 GB/s pinned: at least 6.7 ms of stall
		String stall = metrics.stream().filter(l -> l.startsWith("stop-the-world,stall_total_ns,")).findFirst()
				.orElseThrow();
		assertTrue(Long.parseLong(stall.substring(stall.lastIndexOf(',') + 1)) >= (2 * SIZE + 4096) * 1_000_000_000L
				/ 20_000_000_000L, stall);
	}

	@Test
	void severalSetSourcesCompareObservedWithAnEngineThatMissesTheIndirectWrite() throws IOException {
		Path out = dir.resolve("engines");
		CliRun r = CliRun.of("simulate", trace(true).toString(), "--policy", "soft-cow", "--at", "launch:1", "--sets",
				"observed,engine:arg-scan", "--out", out.toString());
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().contains("consistency of soft-cow [observed]: consistent: 0 violations"), r.out());
		assertTrue(r.out().contains("consistency of soft-cow [engine:arg-scan]: INCONSISTENT: 1 violation(s)"),
				r.out());
		assertTrue(Files.exists(out.resolve("timeline-soft-cow-engine-arg-scan.json")), r.out());
		assertTrue(Files.readAllLines(out.resolve("metrics.csv")).contains(
				"soft-cow [engine:arg-scan],consistency_violations,1"));
		CliRun unknown = CliRun.of("simulate", trace(true).toString(), "--policy", "soft-cow", "--sets", "engine:oracle",
				"--out", out.toString());
		assertEquals(ExitCode.USAGE, unknown.exit());
		assertTrue(unknown.err().contains("unknown engine 'oracle'"), unknown.err());
	}

	@Test
	void withoutObservedAccessesTheCheckIsNotRunAndObservedSetsAreRefused() throws IOException {
		Path plain = trace(false);
		CliRun r = CliRun.of("simulate", plain.toString(), "--policy", "soft-cow:at=launch:1", "--out",
				dir.resolve("p").toString());
		assertEquals(ExitCode.OK, r.exit(), r.toString());
		assertTrue(r.out().contains("consistency of soft-cow:at=launch:1: not checked"), r.out());
		CliRun refused = CliRun.of("simulate", plain.toString(), "--policy", "soft-cow", "--sets", "observed", "--out",
				dir.resolve("q").toString());
		assertEquals(ExitCode.FAILURE, refused.exit());
		assertTrue(refused.err().contains("--sets observed needs observed accesses"), refused.err());
	}

	@Test
	void badCommandLinesAreUsageErrorsThatNameTheAcceptedValues() throws IOException {
		String t = trace(false).toString();
		String o = dir.resolve("e").toString();
		CliRun policy = CliRun.of("simulate", t, "--policy", "soft-magic", "--out", o);
		assertEquals(ExitCode.USAGE, policy.exit());
		assertTrue(policy.err().contains("unknown policy 'soft-magic'") && policy.err().contains("soft-cow"),
				policy.err());
		CliRun param = CliRun.of("simulate", t, "--policy", "soft-cow:colour=red", "--out", o);
		assertEquals(ExitCode.USAGE, param.exit());
		assertTrue(param.err().contains("unknown parameter(s) [colour]"), param.err());
		CliRun knob = CliRun.of("simulate", t, "--policy", "soft-cow", "--machine", "h100,warp=9", "--out", o);
		assertEquals(ExitCode.USAGE, knob.exit());
		assertTrue(knob.err().contains("unknown machine knob 'warp'") && knob.err().contains("d2h"), knob.err());
		CliRun preset = CliRun.of("simulate", t, "--policy", "soft-cow", "--machine", "v100", "--out", o);
		assertEquals(ExitCode.USAGE, preset.exit());
		assertTrue(preset.err().contains("known: h100, a800-pcie4"), preset.err());
		CliRun at = CliRun.of("simulate", t, "--policy", "soft-cow", "--at", "launch:x", "--out", o);
		assertEquals(ExitCode.USAGE, at.exit());
		assertTrue(at.err().contains("option --at") && at.err().contains("launch:N"), at.err());
		CliRun sets = CliRun.of("simulate", t, "--policy", "soft-cow", "--sets", "guess", "--out", o);
		assertEquals(ExitCode.USAGE, sets.exit());
		assertTrue(sets.err().contains("auto, observed, placeholder, engine:NAME"), sets.err());
		CliRun noOut = CliRun.of("simulate", t, "--policy", "soft-cow");
		assertEquals(ExitCode.USAGE, noOut.exit());
		assertFalse(Files.exists(dir.resolve("e")), "nothing is written for a wrong command line");
	}

	@Test
	void missingTraceAndUncreatableFolderAreFailures() throws IOException {
		CliRun missing = CliRun.of("simulate", dir.resolve("nope.phos").toString(), "--policy", "soft-cow", "--out",
				dir.resolve("m").toString());
		assertEquals(ExitCode.FAILURE, missing.exit());
		assertTrue(missing.err().contains("nope.phos: no such file"), missing.err());
		Path file = Files.writeString(dir.resolve("a-file"), "x");
		CliRun folder = CliRun.of("simulate", trace(false).toString(), "--policy", "soft-cow", "--out",
				file.resolve("sub").toString());
		assertEquals(ExitCode.FAILURE, folder.exit());
		assertTrue(folder.err().contains("cannot create the folder"), folder.err());
		CliRun notDir = CliRun.of("simulate", trace(false).toString(), "--policy", "soft-cow", "--out", file.toString());
		assertEquals(ExitCode.FAILURE, notDir.exit());
		assertTrue(notDir.err().contains("exists and is not a folder"), notDir.err());
		Path empty = dir.resolve("no-launches.phos");
		try (TraceWriter w = TraceWriter.create(empty, TraceHeader.builder("test", "1").build())) {
			w.write(new TraceEvent.Alloc(1_000, 0, A, SIZE, AllocKind.PLAIN, 0));
		}
		CliRun nothing = CliRun.of("simulate", empty.toString(), "--policy", "soft-cow", "--out", dir.resolve("n").toString());
		assertEquals(ExitCode.FAILURE, nothing.exit());
		assertTrue(nothing.err().contains("holds no launches"), nothing.err());
	}
}
