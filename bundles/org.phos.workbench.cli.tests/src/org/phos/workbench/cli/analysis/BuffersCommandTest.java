package org.phos.workbench.cli.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.phos.workbench.cli.CliRun;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/** {@code buffers}: one row per Alloc event of the trace, sorted as asked, a clear message for a bad column. */
class BuffersCommandTest {

	private static Path sample(String name) {
		Path file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
		assumeTrue(Files.isRegularFile(file), file + " missing (set -Dphos.repo to the repository root)");
		return file;
	}

	@Test
	void listsEveryAllocationSortedAsAsked() throws Exception {
		Path file = sample("cupy-ops.phos");
		Trace trace = TraceReader.read(file, null).trace();
		CliRun run = CliRun.of("buffers", file.toString(), "--format", "csv");
		assertEquals(0, run.exit(), run.toString());
		List<String> lines = run.out().lines().toList();
		assertEquals("allocation,size,kind,allocated_at,freed_at,launches_read,launches_written,launches_touched",
				lines.get(0));
		assertEquals(trace.count(EventKind.ALLOC), lines.size() - 1);
		for (String line : lines.subList(1, lines.size())) {
			String[] f = line.split(",");
			int event = Integer.parseInt(f[3]);
			assertEquals(EventKind.ALLOC, trace.kind(event));
			assertEquals("0x" + Long.toHexString(trace.address(event)), f[0]);
			assertEquals(trace.size(event), Long.parseLong(f[1]));
		}
		assertTrue(lines.stream().skip(1).anyMatch(l -> !l.endsWith(",0,0,0")), "cupy-ops has ground truth");

		CliRun bySize = CliRun.of("buffers", file.toString(), "--sort", "-size", "--format", "csv");
		assertEquals(0, bySize.exit(), bySize.toString());
		long previous = Long.MAX_VALUE;
		for (String line : bySize.out().lines().skip(1).toList()) {
			long size = Long.parseLong(line.split(",")[1]);
			assertTrue(size <= previous, "sorted by size, largest first");
			previous = size;
		}

		CliRun text = CliRun.of("buffers", file.toString());
		assertTrue(text.out().strip().endsWith(trace.count(EventKind.ALLOC) + " allocations"), text.out());
	}

	@Test
	void badSortColumnIsAUsageErrorNamingTheColumns() {
		CliRun run = CliRun.of("buffers", sample("cupy-ops.phos").toString(), "--sort", "colour");
		assertEquals(2, run.exit());
		assertTrue(run.err().contains("no column 'colour'") && run.err().contains("launches_touched"), run.err());
	}
}
