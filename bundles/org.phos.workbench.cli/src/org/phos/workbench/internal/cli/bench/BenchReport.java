package org.phos.workbench.internal.cli.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

import org.phos.workbench.cr.core.io.OutputFile;

/**
 * The results of {@code workbench bench}: a table for the terminal, and a markdown section for
 * {@code docs/benchmarks.md} that replaces its previous version (between marker comments) or is appended.
 */
public final class BenchReport {

	static final String BEGIN = "<!-- workbench bench: trace figures begin -->";
	static final String END = "<!-- workbench bench: trace figures end -->";

	private final List<BenchFigure> figures;
	private final MachineInfo machine;
	private final String command;
	private final ZonedDateTime date;
	private final boolean quick;

	public BenchReport(List<BenchFigure> figures, MachineInfo machine, String command, ZonedDateTime date,
			boolean quick) {
		this.figures = List.copyOf(figures);
		this.machine = machine;
		this.command = command;
		this.date = date;
		this.quick = quick;
	}

	public boolean allPass() {
		return figures.stream().allMatch(BenchFigure::pass);
	}

	public void printTable(PrintStream out) {
		int nameWidth = Math.max(6, figures.stream().mapToInt(f -> f.name().length()).max().orElse(6));
		int medianWidth = Math.max(6, figures.stream().mapToInt(f -> f.median().length()).max().orElse(6));
		String format = "%-" + nameWidth + "s  %-" + medianWidth + "s  %4s  %-20s  %s%n";
		out.printf(Locale.ROOT, format, "figure", "median", "runs", "target", "result");
		for (BenchFigure f : figures) {
			out.printf(Locale.ROOT, format, f.name(), f.median(), f.runs(), f.target().isEmpty() ? "-" : f.target(),
					f.result());
		}
		out.println();
		for (BenchFigure f : figures) {
			out.println("  " + f.name() + ": " + f.detail());
		}
		out.println();
		out.println("machine: " + machine.describe());
		if (quick) {
			out.println("quick run: sizes are too small for the targets to mean much; run without --quick");
		}
	}

	/** The markdown section, with its marker comments. */
	public String markdown() {
		StringBuilder md = new StringBuilder();
		md.append(BEGIN).append('\n');
		md.append("## Trace model, lookups and export\n\n");
		md.append("- Command: `").append(command).append("`\n");
		md.append("- Date: ").append(date.withZoneSameInstant(ZoneOffset.UTC)
				.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT))).append('\n');
		md.append("- Machine: ").append(machine.describe()).append('\n');
		if (quick) {
			md.append("- Quick run (small sizes): not the issue's figures.\n");
		}
		md.append('\n');
		md.append("| figure | median | runs | target | result |\n|---|---|---|---|---|\n");
		for (BenchFigure f : figures) {
			md.append("| ").append(f.name()).append(" | ").append(f.median()).append(" | ").append(f.runs())
					.append(" | ").append(f.target().isEmpty() ? "-" : f.target().replace(">", "&gt;")
							.replace("<", "&lt;"))
					.append(" | ").append(f.result()).append(" |\n");
		}
		md.append('\n');
		for (BenchFigure f : figures) {
			md.append("- ").append(f.name()).append(": ").append(f.detail()).append('\n');
		}
		md.append(END).append('\n');
		return md.toString();
	}

	/**
	 * Writes the section into {@code file}: replaces a previous one, or appends (creating the file if needed). The
	 * file is rewritten under a temporary name and renamed into place ({@link OutputFile}), so an interrupted run
	 * leaves the old content.
	 */
	public void writeMarkdown(Path file) throws IOException {
		String section = markdown();
		String text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
		int begin = text.indexOf(BEGIN);
		int end = text.indexOf(END);
		String updated;
		if (begin >= 0 && end > begin) {
			int after = end + END.length();
			if (after < text.length() && text.charAt(after) == '\n') {
				after++;
			}
			updated = text.substring(0, begin) + section + text.substring(after);
		} else {
			updated = text.isEmpty() || text.endsWith("\n\n") ? text + section
					: text + (text.endsWith("\n") ? "\n" : "\n\n") + section;
		}
		byte[] bytes = updated.getBytes(StandardCharsets.UTF_8);
		OutputFile.write(file, out -> out.write(bytes));
	}
}
