package org.phos.workbench.internal.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The markdown section of {@code bench}: written into a new file, replaced in place, text around it kept. */
class BenchReportTest {

	@TempDir
	Path dir;

	private static BenchReport report(String median, boolean pass) {
		return new BenchReport(List.of(new BenchFigure("lookups", median, 7, ">= 20 M/s", pass, "details here"),
				new BenchFigure("csv", "1 M events/s", 3, "", true, "info only")),
				new MachineInfo(2, 24L << 30, "Test CPU", "Test VM 21", 6L << 30, 0.5), "./workbench bench lookup",
				ZonedDateTime.of(2026, 1, 2, 3, 4, 0, 0, ZoneOffset.UTC), false);
	}

	@Test
	void sectionIsReplacedInPlace() throws IOException {
		Path md = dir.resolve("b.md");
		report("25.00 M lookups/s", true).writeMarkdown(md);
		Files.writeString(md, "# Title\n\n" + Files.readString(md) + "\n## Other section\nkept\n");
		report("19.00 M lookups/s", false).writeMarkdown(md);
		String text = Files.readString(md);
		assertTrue(text.startsWith("# Title\n\n" + BenchReport.BEGIN), text);
		assertTrue(text.endsWith("\n## Other section\nkept\n"), text);
		assertTrue(text.contains("| lookups | 19.00 M lookups/s | 7 | &gt;= 20 M/s | MISS |"), text);
		assertTrue(text.contains("| csv | 1 M events/s | 3 | - | - |"), text);
		assertFalse(text.contains("25.00"), text);
		assertTrue(text.contains("- Date: 2026-01-02 03:04 UTC"), text);
		assertTrue(text.contains("2 processors (nproc), 24 GiB memory (free -g), Test CPU; Test VM 21"), text);
		assertEquals(1, text.split(BenchReport.END, -1).length - 1);
	}

	@Test
	void allPassOnlyWhenEveryTargetIsMet() {
		assertTrue(report("25 M", true).allPass());
		assertFalse(report("19 M", false).allPass());
	}
}
