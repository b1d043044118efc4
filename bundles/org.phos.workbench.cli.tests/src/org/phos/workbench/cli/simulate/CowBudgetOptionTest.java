package org.phos.workbench.cli.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cli.CliRun;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.UsageException;

/** {@code --cow-budget} (i13-cow): the budget of soft policies that name none, {@code auto} or a size. */
class CowBudgetOptionTest {

	@TempDir
	Path dir;

	@Test
	void addsTheBudgetToSoftPoliciesThatNameNone() throws Exception {
		assertEquals("stop-the-world;soft-cow:budget=auto;soft-recopy:threshold=1GiB,budget=auto;soft-cow:budget=1GiB;"
				+ "on-demand-restore", CowBudgetOption.apply(
						"stop-the-world;soft-cow;soft-recopy:threshold=1GiB;soft-cow:budget=1GiB;on-demand-restore",
						"auto"));
		assertEquals("soft-cow:chunk=4MiB", CowBudgetOption.apply("soft-cow:chunk=4MiB", null));
		UsageException e = assertThrows(UsageException.class, () -> CowBudgetOption.apply("soft-cow", "lots"));
		assertTrue(e.getMessage().startsWith("--cow-budget 'lots'"), e.getMessage());
	}

	private static long value(List<String> csv, String metric) {
		return csv.stream().filter(l -> l.contains("," + metric + ",")).mapToLong(
				l -> Long.parseLong(l.substring(l.lastIndexOf(',') + 1))).findFirst().orElseThrow();
	}

	/** The writes after the instant: copies on write with room for them, fallbacks without. */
	@Test
	void autoFollowsTheMachinesDeviceMemory() throws Exception {
		Path trace = SimulateCommandTest.trace(dir.resolve("t.phos"), true);
		// live at launch 1: A and B (64 MiB each) and the 4 KiB table
		long live = 2 * SimulateCommandTest.SIZE + 4096;
		for (long spare : new long[] { live, 0 }) {
			Path out = dir.resolve("sim-" + spare);
			CliRun r = CliRun.of("simulate", trace.toString(), "--policy", "soft-cow", "--at", "launch:1",
					"--cow-budget", "auto", "--machine", "h100,device-memory=" + (live + (2L << 30) + spare),
					"--out", out.toString());
			assertEquals(ExitCode.OK, r.exit(), r.toString());
			List<String> csv = Files.readAllLines(out.resolve("metrics.csv"));
			boolean fits = spare > 0;
			assertTrue(csv.stream().anyMatch(l -> l.startsWith("\"soft-cow:budget=auto\"") || l.startsWith("soft-cow:budget=auto,")),
					"the run is named with the budget: " + csv.subList(0, 2));
			long cows = value(csv, "checkpoint.0.cow_count");
			long fallbacks = value(csv, "checkpoint.0.fallback_count");
			// room for every buffer live: copies on write and no fallback; no room: every first write falls back
			assertTrue(fits ? cows > 0 && fallbacks == 0 : cows == 0 && fallbacks > 0,
					"spare " + spare + ": " + cows + " copies on write, " + fallbacks + " fallbacks");
		}
		CliRun bad = CliRun.of("simulate", trace.toString(), "--policy", "soft-cow", "--cow-budget", "lots", "--out",
				dir.resolve("bad").toString());
		assertEquals(ExitCode.USAGE, bad.exit(), bad.toString());
		assertTrue(bad.err().contains("--cow-budget 'lots'"), bad.err());
	}
}
