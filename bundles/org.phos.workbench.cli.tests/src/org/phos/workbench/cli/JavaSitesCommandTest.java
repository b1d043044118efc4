package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.AllocKind;
import org.phos.workbench.trace.core.Dim3;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.ModuleInfo;
import org.phos.workbench.trace.core.ModuleKind;
import org.phos.workbench.trace.core.TraceEvent;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceWriter;

/** {@code workbench java-sites}: a trace written here and a side file in the agent's format (docs/trace-format.md). */
class JavaSitesCommandTest {

	@TempDir
	Path dir;

	private static TraceEvent.Launch launch(long t, int function) {
		return new TraceEvent.Launch(t, 0, function, new Dim3(4, 1, 1), new Dim3(128, 1, 1), 0, 0, new byte[0], 0, 0,
				LaunchKind.PLAIN, 0);
	}

	@Test
	void pairsLaunchesWithTheirJavaLinesAndNamesModules() throws Exception {
		long base = 5_000_000_000L;
		byte[] ptx = "// k\n.version 8.0\n.entry step() { ret; }\n".getBytes(StandardCharsets.UTF_8);
		ModuleInfo module = ModuleInfo.of(1, ModuleKind.PTX, ptx, "cuModuleLoad");
		Path trace = dir.resolve("run.phos");
		try (TraceWriter w = TraceWriter.create(trace, TraceHeader.builder("test", "1").startMonoNs(base).build())) {
			w.module(module);
			w.function(new FunctionInfo(1, 1, "step", "step", List.of()));
			w.write(new TraceEvent.Alloc(1_000, 0, 0x1000, 256, AllocKind.PLAIN, 0));
			w.write(launch(2_000, 1));
			w.write(launch(3_000, 1));
			w.write(launch(9_000, 1)); // a native thread's launch: no Java call around it
		}
		String site = "\tmain\tcom.example.Solver\t";
		Files.writeString(JavaSitesCommandTest.sideFile(trace), "# phos-java-sites 1\tpid=7\tjcuda=12.0.0\tclock=CLOCK_MONOTONIC\n"
				+ "M\t" + (base + 100) + "\t" + (base + 200) + "\t0" + site + "init\t10\tSolver.java\tstep.ptx\t"
				+ Long.toHexString(module.hash()) + "\t" + ptx.length + "\n"
				+ "A\t" + (base + 900) + "\t" + (base + 1100) + "\t0" + site + "init\t12\tSolver.java\t\t\t\n"
				+ "L\t" + (base + 1900) + "\t" + (base + 2100) + "\t0" + site + "sweep\t40\tSolver.java\tstep\tstep.ptx\t\n"
				+ "L\t" + (base + 2900) + "\t" + (base + 3100) + "\t0" + site + "sweep\t40\tSolver.java\tstep\tstep.ptx\t\n"
				+ "L\t" + (base + 4000)); // cut short: the process died mid-write
		CliRun run = CliRun.of("java-sites", trace.toString(), "--events", "10");
		assertEquals(0, run.exit(), run.toString());
		assertTrue(run.out().contains(": 3 of 4 launches, allocations, frees and copies carry a Java site; 0 of 3 Java "
				+ "calls found no event"), run.toString());
		assertTrue(run.out().contains("    1  PTX     step.ptx"), run.toString());
		assertTrue(run.out().contains("         2  step                         com.example.Solver.sweep(Solver.java:40)"),
				run.toString());
		assertTrue(run.out().contains("         0  ALLOC                                com.example.Solver.init(Solver.java:12)"),
				run.toString());
		assertTrue(run.out().contains("         3  LAUNCH  step                         -"), run.toString());
		assertTrue(run.err().contains("run.phos.java-sites: the last line (line 6) is cut short"), run.toString());

		// the launch table (launches command, Launches view) shows the same sites in its java_site column
		CliRun launches = CliRun.of("launches", trace.toString(), "--format", "csv");
		assertEquals(0, launches.exit(), launches.toString());
		List<String> lines = launches.out().lines().toList();
		List<String> header = csvFields(lines.get(0));
		int siteColumn = header.indexOf("java_site");
		assertTrue(siteColumn > 0, lines.get(0));
		assertEquals(List.of("com.example.Solver.sweep(Solver.java:40)", "com.example.Solver.sweep(Solver.java:40)", ""),
				lines.subList(1, 4).stream().map(l -> csvFields(l).get(siteColumn)).toList());
	}

	@Test
	void missingOrForeignSideFileIsOneLine() throws Exception {
		Path trace = dir.resolve("t.phos");
		try (TraceWriter w = TraceWriter.create(trace, TraceHeader.builder("test", "1").build())) {
			w.write(launch(1, 1));
		}
		CliRun none = CliRun.of("java-sites", trace.toString());
		assertEquals(1, none.exit(), none.toString());
		assertEquals(1, none.err().lines().count(), none.toString());
		assertTrue(none.err().contains("t.phos.java-sites: no Java call-site file next to the trace"), none.toString());
		Path foreign = Files.writeString(dir.resolve("other.txt"), "hello\n");
		CliRun bad = CliRun.of("java-sites", trace.toString(), "--sites", foreign.toString());
		assertEquals(1, bad.exit(), bad.toString());
		assertTrue(bad.err().contains("other.txt: not a Java call-site file"), bad.toString());
		// a side file too large to hold is refused in one line, before it is read
		Path side = Files.writeString(dir.resolve("t.phos.java-sites"), "# phos-java-sites 1\n" + "x".repeat(100) + "\n");
		java.io.IOException big = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
				() -> org.phos.workbench.trace.core.javasites.JavaSiteLog.read(side, 64));
		assertEquals(side + ": 121 bytes of Java call sites, more than the 64 this reader holds in memory",
				big.getMessage());
	}

	/** The fields of one CSV line (RFC 4180 quoting: the grid "4,1,1" is one field). */
	private static List<String> csvFields(String line) {
		List<String> fields = new java.util.ArrayList<>();
		StringBuilder f = new StringBuilder();
		boolean quoted = false;
		for (int i = 0; i < line.length(); i++) {
			char c = line.charAt(i);
			if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
				f.append('"');
				i++;
			} else if (c == '"') {
				quoted = !quoted;
			} else if (c == ',' && !quoted) {
				fields.add(f.toString());
				f.setLength(0);
			} else {
				f.append(c);
			}
		}
		fields.add(f.toString());
		return fields;
	}

	private static Path sideFile(Path trace) {
		return trace.resolveSibling(trace.getFileName() + ".java-sites");
	}
}
