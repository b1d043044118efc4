package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.phos.workbench.trace.core.export.JsonReader;

/**
 * {@code workbench report}: the pages are well-formed XHTML, every link is relative and lands on a file of the
 * folder (or an id of the page), and the figures equal those of {@code info}, {@code validate} and {@code simulate}
 * run in-process on the same traces.
 */
class ReportCommandTest {
	private static final Path SAMPLES = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces");

	@TempDir
	static Path tmp;
	static Path dir;
	static CliRun run;

	@BeforeAll
	static void report() throws IOException {
		Path broken = tmp.resolve("broken.phos");
		Files.write(broken, "not a trace at all".getBytes(StandardCharsets.US_ASCII));
		Path small = tmp.resolve("tricky <&> \"names\".phos");
		TestTraces.writeSmall(small);
		dir = tmp.resolve("report");
		run = CliRun.of("report", SAMPLES.resolve("cuda-suite.phos").toString(), broken.toString(),
				SAMPLES.resolve("jcuda-jacobi.phos").toString(), small.toString(), "--out", dir.toString());
	}

	@Test
	void aBrokenTraceIsOnTheIndexAndTheOthersStillGetTheirPages() throws Exception {
		assertEquals(ExitCode.FAILURE, run.exit(), run.toString());
		assertTrue(run.err().contains("1 of 4 traces could not be reported"), run.toString());
		assertTrue(run.out().contains("report: " + dir.resolve("index.html")), run.toString());
		assertTrue(run.err().contains("report: [2/4] broken.phos: loading"), "progress on stderr: " + run);
		Document index = parse(dir.resolve("index.html"));
		List<Element> rows = elements(index, "tr").stream().filter(r -> r.hasAttribute("data-trace")).toList();
		assertEquals(List.of("cuda-suite.phos", "broken.phos", "jcuda-jacobi.phos", "tricky <&> \"names\".phos"),
				rows.stream().map(r -> r.getAttribute("data-trace")).toList());
		assertTrue(rows.get(1).getTextContent().contains("cannot load"), rows.get(1).getTextContent());
		assertEquals(0, elements(rows.get(1), "a").size(), "a failed trace has no page");
		for (int i : new int[] { 0, 2, 3 }) {
			assertEquals(1, elements(rows.get(i), "a").size(), "a page for " + rows.get(i).getAttribute("data-trace"));
		}
	}

	@Test
	void everyPageIsWellFormedAndEveryLinkIsRelativeAndExists() throws Exception {
		List<Path> pages;
		try (Stream<Path> files = Files.list(dir)) {
			pages = files.filter(p -> p.toString().endsWith(".html")).sorted().toList();
		}
		assertEquals(4, pages.size(), "index and three trace pages: " + pages);
		int links = 0;
		for (Path page : pages) {
			Document doc = parse(page);
			assertEquals("html", doc.getDocumentElement().getTagName());
			Set<String> ids = new HashSet<>();
			for (Element e : elements(doc, "*")) {
				if (e.hasAttribute("id")) {
					assertTrue(ids.add(e.getAttribute("id")), page + ": id " + e.getAttribute("id") + " twice");
				}
				for (String attribute : List.of("href", "src", "xlink:href")) {
					if (!e.hasAttribute(attribute) || e.getTagName().equals("html")) {
						continue;
					}
					String link = e.getAttribute(attribute);
					if (e.getTagName().equals("svg") || link.startsWith("#") && !e.getTagName().equals("a")) {
						continue; // references inside an inline SVG chart (clip paths)
					}
					URI uri = URI.create(link.replace(" ", "%20"));
					assertFalse(uri.isAbsolute() || link.startsWith("/"), page + ": not relative: " + link);
					if (link.startsWith("#")) {
						continue; // checked below against the ids
					}
					Path target = dir.resolve(uri.getPath()).normalize();
					assertTrue(target.startsWith(dir) && Files.isRegularFile(target), page + ": " + link + " missing");
					links++;
				}
			}
			for (Element a : elements(doc, "a")) {
				String href = a.getAttribute("href");
				if (href.startsWith("#")) {
					assertTrue(ids.contains(href.substring(1)), page + ": no element with id " + href);
				}
			}
		}
		assertTrue(links >= 3 + 3 + 2 * 2, "links from the index to the pages, back, and to the CSV files: " + links);
	}

	@Test
	void overviewEqualsInfo() throws Exception {
		for (String name : List.of("cuda-suite", "jcuda-jacobi")) {
			CliRun info = CliRun.of("info", "--json", SAMPLES.resolve(name + ".phos").toString());
			assertEquals(0, info.exit(), info.toString());
			@SuppressWarnings("unchecked")
			Map<String, Object> json = (Map<String, Object>) JsonReader.parse(info.out());
			Document page = parse(dir.resolve(name + ".html"));
			Map<String, Long> counts = byAttribute(table(page, "counts"), "data-kind");
			assertEquals(((Number) json.get("events")).longValue(), counts.remove("all"));
			@SuppressWarnings("unchecked")
			Map<String, Object> infoCounts = (Map<String, Object>) json.get("counts");
			Map<String, Long> expected = new HashMap<>();
			infoCounts.forEach((k, v) -> expected.put(k, ((Number) v).longValue()));
			assertEquals(expected, counts, name + ": events by kind");
			@SuppressWarnings("unchecked")
			Map<String, Object> byKind = (Map<String, Object>) ((Map<String, Object>) json.get("allocations"))
					.get("byKind");
			Map<String, Long> memory = new HashMap<>();
			for (Element row : elements(table(page, "memory"), "tr")) {
				if (row.hasAttribute("data-kind")) {
					memory.put(row.getAttribute("data-kind"), Long.parseLong(cells(row).get(1).getAttribute("data-v")));
				}
			}
			Map<String, Long> infoMemory = new HashMap<>();
			byKind.forEach((k, v) -> infoMemory.put(k, ((Number) ((Map<?, ?>) v).get("count")).longValue()));
			infoMemory.values().removeIf(v -> v == 0);
			memory.values().removeIf(v -> v == 0);
			assertEquals(infoMemory, memory, name + ": allocations by kind");
		}
	}

	@Test
	void accuracyEqualsValidate() throws Exception {
		Path csv = tmp.resolve("validate.csv");
		CliRun validate = CliRun.of("validate", SAMPLES.resolve("cuda-suite.phos").toString(), "--csv", csv.toString());
		assertEquals(0, validate.exit(), validate.toString());
		assertEquals(Files.readString(csv), Files.readString(dir.resolve("cuda-suite-accuracy.csv")),
				"the report's CSV is validate --csv's");
		Document page = parse(dir.resolve("cuda-suite.html"));
		checkAccuracy(page, "all tools", Files.readAllLines(csv));
		// i15-val: the PTX line, as validate prints it
		String ptx = validate.out().lines().filter(l -> l.startsWith("PTX: ")).findFirst().orElseThrow();
		assertEquals(ptx, elements(page, "p").stream().filter(e -> e.getAttribute("data-role").equals("ptx"))
				.findFirst().orElseThrow(() -> new AssertionError("no PTX line in the report")).getTextContent());
		for (String tool : List.of("sanitizer", "ptx-instrument")) {
			Path perTool = tmp.resolve("validate-" + tool + ".csv");
			CliRun v = CliRun.of("validate", SAMPLES.resolve("cuda-suite.phos").toString(), "--tool", tool, "--csv",
					perTool.toString());
			assertEquals(0, v.exit(), v.toString());
			checkAccuracy(page, tool, Files.readAllLines(perTool));
		}
	}

	/** Each engine's total row of validate --csv against the page's table for the tool and its unsafe list. */
	private static void checkAccuracy(Document page, String tool, List<String> csv) {
		Element table = elements(page, "table").stream()
				.filter(t -> t.getAttribute("class").equals("accuracy") && t.getAttribute("data-tool").equals(tool))
				.findFirst().orElseThrow(() -> new AssertionError("no accuracy table for " + tool));
		List<String> header = List.of(csv.get(0).split(","));
		int engines = 0;
		for (String line : csv.subList(1, csv.size())) {
			List<String> f = List.of(line.split(","));
			if (f.size() != header.size() || !f.get(1).equals("(all kernels)")) {
				continue;
			}
			engines++;
			String engine = f.get(0);
			Element row = elements(table, "tr").stream().filter(r -> r.getAttribute("data-engine").equals(engine))
					.findFirst().orElseThrow(() -> new AssertionError(tool + ": no row for " + engine));
			Map<String, String> v = new HashMap<>();
			for (Element td : cells(row)) {
				v.put(td.getAttribute("data-col"), td.getAttribute("data-v"));
			}
			long unsafe = Long.parseLong(f.get(header.indexOf("unsafe_launches")));
			assertEquals(f.get(header.indexOf("launches")), v.get("launches"), tool + " " + engine);
			assertEquals(Long.toString(unsafe), v.get("unsafe_launches"), tool + " " + engine);
			long pairs = Long.parseLong(f.get(header.indexOf("write_pairs")));
			long recalled = Long.parseLong(f.get(header.indexOf("write_pairs_recalled")));
			assertEquals(pairs == 0 ? 1.0 : (double) recalled / pairs, Double.parseDouble(v.get("write_recall")),
					1e-12, tool + " " + engine + " write recall");
			long readPairs = Long.parseLong(f.get(header.indexOf("read_pairs")));
			long readRecalled = Long.parseLong(f.get(header.indexOf("read_pairs_recalled")));
			assertEquals(readPairs == 0 ? 1.0 : (double) readRecalled / readPairs,
					Double.parseDouble(v.get("read_recall")), 1e-12, tool + " " + engine + " read recall");
			// i15-val: the direction figures, from the raw counts of the CSV
			assertShare(f, header, "read_bytes_matched", "speculated_read_bytes", v.get("read_precision"),
					tool + " " + engine + " read precision");
			assertShare(f, header, "written_bytes_recalled", "speculated_written_bytes", v.get("write_precision"),
					tool + " " + engine + " write precision");
			assertShare(f, header, "direction_pairs_correct", "direction_pairs", v.get("direction_accuracy"),
					tool + " " + engine + " direction accuracy");
			List<Element> lists = elements(page, "ul").stream().filter(u -> u.getAttribute("data-engine")
					.equals(engine) && u.getAttribute("data-tool").equals(tool)).toList();
			assertEquals(unsafe == 0 ? 0 : 1, lists.size(), tool + " " + engine + ": unsafe list");
			if (unsafe > 0) {
				assertEquals(Long.toString(unsafe), lists.get(0).getAttribute("data-count"));
			}
		}
		assertEquals(4, engines, tool + ": the four default engines");
	}

	// i15-val: begin
	private static void assertShare(List<String> row, List<String> header, String part, String whole,
			@org.eclipse.jdt.annotation.Nullable String shown, String what) {
		long p = Long.parseLong(row.get(header.indexOf(part)));
		long w = Long.parseLong(row.get(header.indexOf(whole)));
		assertTrue(shown != null, what + ": no cell");
		assertEquals(w == 0 ? 1.0 : (double) p / w, Double.parseDouble(shown), 1e-12, what);
	}
	// i15-val: end

	@Test
	void crComparisonEqualsSimulate() throws Exception {
		for (String name : List.of("cuda-suite", "jcuda-jacobi")) {
			Document page = parse(dir.resolve(name + ".html"));
			String instant = page.getDocumentElement().getTextContent().replaceAll("(?s).*restore point\\) at (launch:\\d+).*",
					"$1");
			assertTrue(instant.matches("launch:\\d+"), "the page names the instant: " + instant);
			Path sim = tmp.resolve("simulate-" + name);
			CliRun simulate = CliRun.of("simulate", SAMPLES.resolve(name + ".phos").toString(), "--policy",
					"stop-the-world;soft-cow;soft-recopy;on-demand-restore", "--at", instant, "--sets",
					"observed,engine:phos", "--out", sim.toString());
			assertEquals(0, simulate.exit(), simulate.toString());
			String metrics = Files.readString(sim.resolve("metrics.csv"));
			assertEquals(metrics, Files.readString(dir.resolve(name + "-metrics.csv")),
					name + ": the report's metrics CSV is simulate's metrics.csv");
			Map<String, Map<String, String>> byRun = new HashMap<>();
			for (String line : metrics.lines().skip(1).toList()) {
				String[] f = line.split(",", 3);
				byRun.computeIfAbsent(f[0], k -> new HashMap<>()).put(f[1], f[2]);
			}
			List<Element> rows = elements(table(page, "cr-metrics"), "tr").stream()
					.filter(r -> r.hasAttribute("data-run")).toList();
			assertEquals(8, rows.size(), name + ": four policies, observed and speculated sets");
			for (Element row : rows) {
				Map<String, String> expected = byRun.get(row.getAttribute("data-run"));
				assertNotNull(expected, "simulate has the run " + row.getAttribute("data-run"));
				for (Element td : cells(row)) {
					String col = td.getAttribute("data-col");
					switch (col) {
						case "stall_total_ns", "stall_longest_ns", "stall_count", "cow_count", "cow_bytes",
								"consistency_violations" -> assertEquals(expected.get(col), td.getAttribute("data-v"),
										name + " " + row.getAttribute("data-run") + " " + col);
						case "slowdown" -> assertEquals(Double.parseDouble(expected.get(col)),
								Double.parseDouble(td.getAttribute("data-v")), 0.0);
						default -> {
						}
					}
				}
			}
			Element section = elements(page, "section").stream().filter(e -> e.getAttribute("id").equals("cr"))
					.findFirst().orElseThrow();
			List<Element> charts = elements(section, "svg").stream()
					.filter(s -> s.getParentNode() instanceof Element p && p.getTagName().equals("figure")).toList();
			assertTrue(charts.size() >= 2, name + ": the comparison and the timeline inline (dirty bytes when they "
					+ "vary in time): " + charts.size());
			assertTrue(charts.get(0).getTextContent().contains("C/R policies on h100"), "the comparison chart first");
			assertTrue(charts.get(charts.size() - 1).getTextContent().contains("soft-cow [engine:phos]"),
					"the timeline of soft-cow with the speculated sets last");
		}
	}

	@Test
	void namesFromTheTraceAreEscaped() throws Exception {
		Document page = parse(dir.resolve("tricky-names.html"));
		String text = page.getDocumentElement().getTextContent();
		assertTrue(text.contains("tricky <&> \"names\".phos"), "the trace's name as text");
		assertTrue(text.contains("no observed accesses"), "no ground truth is said, not made up");
		List<String> kernels = new ArrayList<>();
		for (Element td : elements(table(page, "kernels-by-time"), "td")) {
			if (td.hasAttribute("title")) {
				kernels.add(td.getAttribute("title"));
			}
		}
		assertTrue(kernels.contains(TestTraces.TRICKY), "the tricky kernel name survives: " + kernels);
	}

	// ------------------------------------------------------------------ XML helpers

	static Document parse(Path file) throws Exception {
		DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
		f.setNamespaceAware(false);
		f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
		DocumentBuilder b = f.newDocumentBuilder();
		b.setErrorHandler(null);
		return b.parse(file.toFile());
	}

	static List<Element> elements(Document doc, String tag) {
		return list(doc.getElementsByTagName(tag));
	}

	static List<Element> elements(Element parent, String tag) {
		return list(parent.getElementsByTagName(tag));
	}

	private static List<Element> list(NodeList nodes) {
		List<Element> out = new ArrayList<>();
		for (int i = 0; i < nodes.getLength(); i++) {
			out.add((Element) nodes.item(i));
		}
		return out;
	}

	static Element table(Document doc, String id) {
		return elements(doc, "table").stream().filter(t -> t.getAttribute("id").equals(id)).findFirst()
				.orElseThrow(() -> new AssertionError("no table " + id));
	}

	static List<Element> cells(Element row) {
		return elements(row, "td");
	}

	/** Rows with the attribute: its value → the first number cell's data-v. */
	private static Map<String, Long> byAttribute(Element table, String attribute) {
		Map<String, Long> out = new HashMap<>();
		for (Element row : elements(table, "tr")) {
			if (row.hasAttribute(attribute)) {
				Element number = cells(row).stream().filter(td -> td.hasAttribute("data-v")).findFirst().orElseThrow();
				out.put(row.getAttribute(attribute), Long.parseLong(number.getAttribute("data-v")));
			}
		}
		return out;
	}
}
