package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code workbench bench}: a quick real run of each figure, the markdown section, usage errors. */
class BenchCommandTest {

	@TempDir
	Path dir;

	@Test
	void quickExportBenchmarkPrintsTheTableAndWritesMarkdown() throws IOException {
		Path md = dir.resolve("benchmarks.md");
		Files.writeString(md, "# Benchmarks\n\nIntro.\n");
		CliRun run = CliRun.of("bench", "--quick", "export", "--dir", dir.toString(), "--markdown", md.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		String out = run.out();
		assertTrue(out.startsWith("figure "), out);
		assertTrue(Pattern.compile("export chrome-json 20k launches\\s+\\d+\\.\\d\\d M events/s\\s+3\\s+>= 1 M/s\\s+"
				+ "(pass|MISS)").matcher(out).find(), out);
		assertTrue(Pattern.compile("export memory \\(20k vs 80k\\)\\s+.*allocated\\s+1\\s+< 4 MiB at every size\\s+"
				+ "pass").matcher(out).find(), out);
		assertTrue(out.contains("machine: 2 processors") || out.contains("machine: "), out);
		String text = Files.readString(md);
		assertTrue(text.startsWith("# Benchmarks\n\nIntro.\n\n<!-- workbench bench: trace figures begin -->"), text);
		assertTrue(text.contains("| export chrome-json 80k launches | "), text);
		assertTrue(text.contains("- Command: `./workbench bench --quick export --markdown " + md + "`"), text);
		// a second run replaces the section instead of appending another
		assertEquals(ExitCode.OK, CliRun.of("bench", "--quick", "lookup", "--dir", dir.toString(), "--markdown",
				md.toString()).exit());
		String again = Files.readString(md);
		assertEquals(1, again.split("trace figures begin", -1).length - 1, again);
		assertTrue(again.contains("| lookups, 100k live allocations | "), again);
		try (var files = Files.list(dir)) {
			assertEquals(1, files.count(), "generated traces and exports are deleted");
		}
	}

	@Test
	@Tag("slow")
	void quickRunOfAllFigures() {
		CliRun run = CliRun.of("bench", "--quick", "--dir", dir.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertTrue(run.out().contains("load 100k launches"), run.out());
		assertTrue(run.out().contains("model heap 100k launches"), run.out());
		assertTrue(run.out().contains("lookups, 100k live allocations"), run.out());
	}

	@Test
	void unknownFigureSuggestsOne() {
		CliRun run = CliRun.of("bench", "lookups");
		assertEquals(ExitCode.USAGE, run.exit());
		assertTrue(run.err().contains("unknown figure 'lookups'; did you mean 'lookup'? (known: trace-load, lookup, "
				+ "export, analysis, experiment, all)"), run.err());
	}

	@Test
	void badDirectoryFails() {
		CliRun run = CliRun.of("bench", "--quick", "--dir", dir.resolve("nope").toString(), "lookup");
		assertEquals(ExitCode.FAILURE, run.exit());
		assertTrue(run.err().contains("not a writable directory"), run.err());
	}
}
