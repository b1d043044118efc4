package org.phos.workbench.analysis.core.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.phos.workbench.analysis.core.AccuracyRow;
import org.phos.workbench.analysis.core.table.TableRenderer;
import org.phos.workbench.cr.core.MetricsCsvWriter;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.io.OutputFile;

/**
 * A report's folder: {@code index.html} over all traces, and per trace {@code NAME.html} with its CSV files
 * ({@code NAME-accuracy.csv} as {@code validate --csv} writes it, {@code NAME-metrics.csv} and {@code NAME-violations.csv} as
 * {@code simulate}'s {@code metrics.csv} and {@code violations.csv}). Links are relative and the pages carry their style and charts, so the folder can be copied
 * or attached to a paper's artefact. Pages are written as each trace is done, the index last, each file through
 * {@link OutputFile} (complete or not at all); a previous report's files of the same names are replaced.
 */
public final class ReportFolder {
	/** The index page's file name. */
	public static final String INDEX = "index.html";

	private final Path dir;
	private final List<ReportHtml.IndexEntry> entries = new ArrayList<>();
	private final Set<String> names = new HashSet<>();

	/**
	 * @param dir the folder, created if missing
	 * @throws IOException when it cannot be created
	 */
	public ReportFolder(Path dir) throws IOException {
		Files.createDirectories(dir);
		this.dir = dir;
		names.add("index");
	}

	/** @return the folder */
	public Path dir() {
		return dir;
	}

	/**
	 * Writes a trace's page and CSV files.
	 *
	 * @return the page's path
	 * @throws IOException when a file cannot be written
	 */
	public Path add(TraceReport report) throws IOException {
		String base = unique(report.name());
		Map<String, String> files = new LinkedHashMap<>();
		if (!report.accuracy().isEmpty()) {
			ByteArrayOutputStream bytes = new ByteArrayOutputStream();
			try (PrintStream csv = new PrintStream(bytes, false, StandardCharsets.UTF_8)) {
				TableRenderer.CSV.render(report.accuracy().get(0).rows(), csv); // validate --csv: all tools
			}
			files.put("accuracy", write(base + "-accuracy.csv", bytes.toString(StandardCharsets.UTF_8)));
		}
		if (report.cr() != null) {
			Map<String, SimulationMetrics> metrics = new LinkedHashMap<>();
			report.cr().runs().forEach(r -> metrics.put(r.name(), r.metrics()));
			StringWriter csv = new StringWriter();
			MetricsCsvWriter.write(csv, metrics);
			files.put("metrics", write(base + "-metrics.csv", csv.toString()));
			StringWriter violations = new StringWriter();
			MetricsCsvWriter.writeViolations(violations, metrics);
			files.put("violations", write(base + "-violations.csv", violations.toString()));
		}
		String page = write(base + ".html", ReportHtml.page(report, files));
		entries.add(new ReportHtml.IndexEntry(report.name(), page, null, ReportHtml.Glance.of(report)));
		return dir.resolve(page);
	}

	/** Records a trace that could not be reported: its error goes on the index. */
	public void failed(String name, String error) {
		entries.add(new ReportHtml.IndexEntry(name, null, error, null));
	}

	/**
	 * Writes the index.
	 *
	 * @param title its title
	 * @return its path
	 * @throws IOException when it cannot be written
	 */
	public Path writeIndex(String title) throws IOException {
		return dir.resolve(write(INDEX, ReportHtml.index(title, entries)));
	}

	private String write(String name, String text) throws IOException {
		// as every output of the tool: under a temporary name, renamed into place when complete
		OutputFile.write(dir.resolve(name), out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
		return name;
	}

	/** A file base name from a trace name: {@code cuda-suite.phos} → {@code cuda-suite}, unique in the folder. */
	private String unique(String traceName) {
		String stem = traceName.toLowerCase(Locale.ROOT).endsWith(".phos")
				? traceName.substring(0, traceName.length() - 5) : traceName;
		String slug = stem.replaceAll("[^A-Za-z0-9._-]+", "-").replaceAll("^[-.]+|-+$", "");
		slug = slug.isEmpty() ? "trace" : slug;
		String name = slug;
		for (int n = 2; !names.add(name.toLowerCase(Locale.ROOT)); n++) {
			name = slug + "-" + n;
		}
		return name;
	}
}
