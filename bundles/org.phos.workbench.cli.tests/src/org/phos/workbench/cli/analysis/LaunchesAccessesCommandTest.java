package org.phos.workbench.cli.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.phos.workbench.cli.CliRun;

/**
 * {@code launches} and {@code accesses} agree with {@code validate}: the unsafe launches the launch table lists under
 * an engine are as many as validate counts, and every launch's access rows carry that launch's verdict.
 */
class LaunchesAccessesCommandTest {

	private static String sample(String name) {
		Path file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
		assumeTrue(Files.isRegularFile(file), file + " missing (set -Dphos.repo to the repository root)");
		return file.toString();
	}

	/** The UNSAFE column of validate's engine line. */
	private static long validateUnsafe(String trace, String engine) {
		CliRun run = CliRun.of("validate", trace, "--engine", engine);
		assertEquals(0, run.exit(), run.toString());
		for (String line : run.out().split("\n")) {
			String[] f = line.trim().split("\\s+");
			if (f.length > 3 && f[0].equals(engine)) {
				return Long.parseLong(f[2]);
			}
		}
		throw new AssertionError("no line for " + engine + " in\n" + run.out());
	}

	@ParameterizedTest
	@ValueSource(strings = { "cupy-ops.phos", "triton-ops.phos", "pytorch-train.phos" })
	void unsafeLaunchesEqualValidatesCount(String name) {
		String trace = sample(name);
		for (String engine : List.of("phos", "arg-scan")) {
			CliRun run = CliRun.of("launches", trace, "--engine", engine, "--verdict", "unsafe", "--limit", "1000000",
					"--format", "csv");
			assertEquals(0, run.exit(), run.toString());
			long rows = run.out().lines().count() - 1;
			assertEquals(validateUnsafe(trace, engine), rows, name + " " + engine);
		}
	}

	@Test
	void accessRowsCarryTheLaunchVerdict() {
		String trace = sample("cupy-ops.phos");
		CliRun all = CliRun.of("launches", trace, "--engine", "phos", "--limit", "1000", "--format", "csv");
		assertEquals(0, all.exit(), all.toString());
		List<String> lines = all.out().lines().toList();
		List<String> header = Arrays.asList(lines.get(0).split(","));
		int launchCol = header.indexOf("launch");
		assertTrue(lines.size() > 2);
		for (String line : lines.subList(1, lines.size())) {
			String launch = line.split(",")[launchCol];
			// verdict, then java_site (empty here): the last two cells, whatever commas the kernel's name holds
			String head = line.substring(0, line.lastIndexOf(','));
			assertTrue(header.get(header.size() - 2).equals("verdict") && line.endsWith(","), line);
			String verdict = head.substring(head.lastIndexOf(',') + 1);
			CliRun acc = CliRun.of("accesses", trace, "--launch", launch, "--engine", "phos", "--format", "csv");
			assertEquals(0, acc.exit(), acc.toString());
			List<String> rows = acc.out().lines().skip(1).toList();
			List<String> accHeader = Arrays.asList(acc.out().lines().findFirst().orElseThrow().split(","));
			assertTrue(accHeader.contains("phos_verdict"), accHeader.toString());
			// the launch's verdict is the worst of its rows' verdicts (unsafe first, in AccessVerdict order)
			List<String> order = List.of("wrong-direction", "missed-write", "missed-read", "over-approximated", "exact");
			String worst = rows.stream().map(r -> order.stream().filter(r::contains).findFirst().orElse("exact"))
					.min((a, b) -> order.indexOf(a) - order.indexOf(b)).orElse("exact");
			assertEquals(verdict, worst, "launch " + launch + ":\n" + acc.out());
		}
	}

	@Test
	void usageErrorsExitTwo() {
		String trace = sample("cupy-ops.phos");
		assertEquals(2, CliRun.of("launches", trace, "--kernel", "(").exit());
		assertEquals(2, CliRun.of("launches", trace, "--verdict", "unsafe").exit());
		assertEquals(2, CliRun.of("launches", trace, "--sort", "colour").exit());
		assertEquals(2, CliRun.of("accesses", trace, "--launch", "999999").exit());
		assertEquals(2, CliRun.of("accesses", trace, "--launch", "0", "--engine", "nope").exit());
	}
}
