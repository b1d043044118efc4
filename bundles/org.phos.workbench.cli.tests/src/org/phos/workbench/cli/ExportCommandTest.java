package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.export.CsvExporter;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.export.JsonReader;

/**
 * {@code workbench export}: the Chrome JSON is parsed back and checked for the structure Perfetto needs (every slice
 * complete, tracks without overlaps, flows paired and bound to slices), the CSV for its header, row and field
 * counts; then the error paths.
 */
class ExportCommandTest {

	@TempDir
	Path dir;

	private Path small() throws IOException {
		Path file = dir.resolve("small.phos");
		TestTraces.writeSmall(file);
		return file;
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> events(Path json) throws IOException {
		Map<String, Object> doc = (Map<String, Object>) JsonReader.parse(Files.readString(json));
		assertEquals(1L, doc.get("schemaVersion"));
		assertNotNull(doc.get("deviceProperties"));
		return (List<Map<String, Object>>) doc.get("traceEvents");
	}

	private static double number(Object value) {
		return ((Number) value).doubleValue();
	}

	/** The structural checks of a Chrome trace; returns the X slices by category. */
	@SuppressWarnings("unchecked")
	static Map<String, Integer> checkChromeStructure(List<Map<String, Object>> events) {
		Map<String, Integer> byCategory = new HashMap<>();
		Map<String, List<double[]>> tracks = new HashMap<>();
		Map<Long, Map<String, Object>> starts = new HashMap<>();
		Map<Long, Map<String, Object>> finishes = new HashMap<>();
		Set<String> named = new HashSet<>();
		for (Map<String, Object> e : events) {
			String ph = (String) e.get("ph");
			assertNotNull(ph, e.toString());
			assertTrue(e.get("pid") instanceof Long, e.toString());
			switch (ph) {
			case "X" -> {
				for (String key : List.of("name", "cat", "ts", "dur", "pid", "tid", "args")) {
					assertTrue(e.containsKey(key), key + " missing in " + e);
				}
				assertTrue(e.get("name") instanceof String && !((String) e.get("name")).isEmpty(), e.toString());
				assertTrue(number(e.get("dur")) >= 0 && number(e.get("ts")) >= 0, e.toString());
				assertTrue(((Map<String, Object>) e.get("args")).get("correlation") instanceof Long, e.toString());
				byCategory.merge((String) e.get("cat"), 1, Integer::sum);
				tracks.computeIfAbsent(e.get("pid") + "/" + e.get("tid"), k -> new ArrayList<>())
						.add(new double[] { number(e.get("ts")), number(e.get("dur")) });
			}
			case "s", "f" -> {
				assertEquals("ac2g", e.get("cat"));
				assertTrue(e.get("id") instanceof Long && e.containsKey("ts") && e.containsKey("tid"), e.toString());
				Map<Long, Map<String, Object>> side = ph.equals("s") ? starts : finishes;
				assertTrue(side.put((Long) e.get("id"), e) == null, "flow id twice: " + e);
				if (ph.equals("f")) {
					assertEquals("e", e.get("bp"), e.toString());
				}
			}
			case "M" -> {
				assertTrue(((Map<String, Object>) e.get("args")).size() == 1, e.toString());
				if (e.get("name").equals("thread_name")) {
					named.add(e.get("pid") + "/" + e.get("tid"));
				}
			}
			default -> throw new AssertionError("unexpected phase " + ph + " in " + e);
			}
		}
		assertEquals(starts.keySet(), finishes.keySet(), "every flow start has its finish");
		for (Map.Entry<String, List<double[]>> track : tracks.entrySet()) {
			assertTrue(named.contains(track.getKey()), "track " + track.getKey() + " has no thread_name");
			List<double[]> slices = track.getValue();
			slices.sort((a, b) -> Double.compare(a[0], b[0]));
			for (int k = 1; k < slices.size(); k++) {
				assertTrue(slices.get(k - 1)[0] + slices.get(k - 1)[1] <= slices.get(k)[0] + 1e-6,
						"slices overlap on track " + track.getKey() + " at ts " + slices.get(k)[0]);
			}
		}
		// each flow end binds to a slice that starts there on its track, each start lies in a slice of its track
		for (Map<String, Object> f : finishes.values()) {
			List<double[]> slices = tracks.get(f.get("pid") + "/" + f.get("tid"));
			assertNotNull(slices, f.toString());
			assertTrue(slices.stream().anyMatch(s -> Math.abs(s[0] - number(f.get("ts"))) < 1e-6), f.toString());
		}
		for (Map<String, Object> s : starts.values()) {
			List<double[]> slices = tracks.get(s.get("pid") + "/" + s.get("tid"));
			assertNotNull(slices, s.toString());
			double ts = number(s.get("ts"));
			assertTrue(slices.stream().anyMatch(x -> x[0] <= ts + 1e-6 && ts <= x[0] + x[1] + 1e-6), s.toString());
		}
		return byCategory;
	}

	@Test
	@SuppressWarnings("unchecked")
	void chromeJsonOfTheSmallTraceHasKinetoShape() throws IOException {
		Path out = dir.resolve("small.json");
		CliRun run = CliRun.of("export", small().toString(), "--format", "chrome-json", "--params", "--out",
				out.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertTrue(run.out().startsWith("exported 19 events of "), run.out());
		List<Map<String, Object>> events = events(out);
		Map<String, Integer> categories = checkChromeStructure(events);
		// host: every event but the 2 graph nodes; GPU: 6 launches, 2 copies, 1 fill
		assertEquals(17, categories.get("cuda_runtime"));
		assertEquals(6, categories.get("kernel"));
		assertEquals(2, categories.get("gpu_memcpy"));
		assertEquals(1, categories.get("gpu_memset"));
		Map<String, Object> first = null;
		Map<String, Object> untimed = null;
		for (Map<String, Object> e : events) {
			Map<String, Object> args = (Map<String, Object>) e.get("args");
			if ("kernel".equals(e.get("cat")) && Long.valueOf(4).equals(args.get("correlation"))) {
				first = e;
			}
			if ("kernel".equals(e.get("cat")) && Long.valueOf(6).equals(args.get("correlation"))) {
				untimed = e;
			}
		}
		assertNotNull(first);
		assertEquals(TestTraces.SAXPY, first.get("name"));
		assertEquals(0L, first.get("pid"));
		assertEquals(12.5, number(first.get("ts")), 1e-9);
		assertEquals(8.0, number(first.get("dur")), 1e-9);
		Map<String, Object> args = (Map<String, Object>) first.get("args");
		assertEquals(List.of(4L, 1L, 1L), args.get("grid"));
		assertEquals(List.of(256L, 1L, 1L), args.get("block"));
		assertEquals("000400000040000000000000007f000000000100007f0000", args.get("params"));
		assertNotNull(untimed);
		assertEquals(TestTraces.TRICKY, untimed.get("name"));
		assertEquals(5.4, number(untimed.get("ts")), 1e-9, "placed at its host time");
		assertTrue(((String) ((Map<String, Object>) untimed.get("args")).get("timing")).contains("not measured"));
		// process and stream names
		List<String> names = new ArrayList<>();
		for (Map<String, Object> e : events) {
			if ("M".equals(e.get("ph"))) {
				names.add((String) ((Map<String, Object>) e.get("args")).values().iterator().next().toString());
			}
		}
		assertTrue(names.contains("python3 (pid 4242)"), names.toString());
		assertTrue(names.contains("GPU 0"), names.toString());
		assertTrue(names.contains("stream 0 (legacy default)"), names.toString());
		assertTrue(names.contains("stream 0x555500001000"), names.toString());
	}

	@Test
	@SuppressWarnings("unchecked")
	void paramsAreLeftOutUnlessAskedFor() throws IOException {
		Path out = dir.resolve("small.json");
		CliRun run = CliRun.of("export", small().toString(), "--out", out.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		List<Map<String, Object>> events = events(out);
		Map<String, Integer> categories = checkChromeStructure(events);
		assertEquals(6, categories.get("kernel"));
		for (Map<String, Object> e : events) {
			if ("kernel".equals(e.get("cat"))) {
				Map<String, Object> args = (Map<String, Object>) e.get("args");
				assertFalse(args.containsKey("params"), e.toString());
				assertTrue(args.get("grid") instanceof List && args.get("stream") instanceof Long, e.toString());
			}
		}
		CliRun csv = CliRun.of("export", small().toString(), "--params", "--out", dir.resolve("x.csv").toString());
		assertEquals(ExitCode.USAGE, csv.exit());
		assertTrue(csv.err().contains("--params applies to --format chrome-json"), csv.err());
	}

	@Test
	void chromeJsonOfALongTraceHasExactTimes() throws IOException {
		// a 30k-launch trace runs for about a second: ts values of up to 7 integer digits, exact to the nanosecond
		Path trace = dir.resolve("long.phos");
		assertEquals(ExitCode.OK, CliRun.of("generate", "--launches", "30000", "--seed", "9", "--out",
				trace.toString()).exit());
		Path out = dir.resolve("long.json");
		assertEquals(ExitCode.OK, CliRun.of("export", trace.toString(), "--params", "--out", out.toString()).exit());
		Trace model = TraceReader.read(trace, null).trace();
		List<Map<String, Object>> events = events(out);
		checkChromeStructure(events);
		int kernels = 0;
		for (Map<String, Object> e : events) {
			if ("kernel".equals(e.get("cat"))) {
				@SuppressWarnings("unchecked")
				Map<String, Object> args = (Map<String, Object>) e.get("args");
				int i = ((Long) args.get("correlation")).intValue();
				long start = model.gpuStartNs(i);
				if (start != 0) {
					assertEquals(String.format(java.util.Locale.ROOT, "%d.%03d", start / 1000, start % 1000),
							new java.math.BigDecimal(e.get("ts").toString()).setScale(3).toPlainString(), e.toString());
					kernels++;
				}
			}
		}
		assertEquals(model.count(EventKind.LAUNCH), kernels);
	}

	@Test
	void chromeJsonOfAGeneratedTraceIsValidAndComplete() throws IOException {
		Path trace = dir.resolve("gen.phos");
		assertEquals(ExitCode.OK, CliRun.of("generate", "--launches", "3000", "--seed", "5", "--out",
				trace.toString()).exit());
		Path out = dir.resolve("gen.json");
		CliRun run = CliRun.of("export", trace.toString(), "--out", out.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		Trace model = TraceReader.read(trace, null).trace();
		Map<String, Integer> categories = checkChromeStructure(events(out));
		assertEquals(model.count(EventKind.LAUNCH), categories.get("kernel"));
		assertEquals(model.count(EventKind.MEMCPY), categories.getOrDefault("gpu_memcpy", 0));
		int graphNodes = 0;
		for (int i = 0; i < model.eventCount(); i++) {
			if (model.kind(i) == EventKind.LAUNCH
					&& model.launchKind(i) == org.phos.workbench.trace.core.LaunchKind.GRAPH_NODE) {
				graphNodes++;
			}
		}
		assertEquals(model.eventCount() - graphNodes, categories.get("cuda_runtime"));
	}

	@Test
	void untimedGpuOperationsAreStillPlacedWithoutOverlaps() throws IOException {
		Path trace = dir.resolve("untimed.phos");
		assertEquals(ExitCode.OK, CliRun.of("generate", "--launches", "2000", "--no-gpu-timing", "--out",
				trace.toString()).exit());
		Path out = dir.resolve("untimed.json");
		assertEquals(ExitCode.OK, CliRun.of("export", trace.toString(), "--out", out.toString()).exit());
		checkChromeStructure(events(out));
		assertTrue(Files.readString(out).contains("GPU time not measured"));
	}

	/** Splits one CSV record (RFC 4180 quoting), which may span lines. */
	private static List<List<String>> parseCsv(String text) {
		List<List<String>> rows = new ArrayList<>();
		List<String> row = new ArrayList<>();
		StringBuilder field = new StringBuilder();
		boolean quoted = false;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (quoted) {
				if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
					field.append('"');
					i++;
				} else if (c == '"') {
					quoted = false;
				} else {
					field.append(c);
				}
			} else if (c == '"') {
				quoted = true;
			} else if (c == ',') {
				row.add(field.toString());
				field.setLength(0);
			} else if (c == '\n') {
				row.add(field.toString());
				field.setLength(0);
				rows.add(row);
				row = new ArrayList<>();
			} else {
				field.append(c);
			}
		}
		assertFalse(quoted, "unterminated quote");
		assertTrue(row.isEmpty() && field.isEmpty(), "last line ends with a newline");
		return rows;
	}

	@Test
	void csvHasTheHeaderAndOneRowPerEventWithEveryField() throws IOException {
		Path out = dir.resolve("small.csv");
		CliRun run = CliRun.of("export", small().toString(), "--out", out.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		List<List<String>> rows = parseCsv(Files.readString(out, StandardCharsets.UTF_8));
		assertEquals(CsvExporter.COLUMNS, rows.get(0));
		assertEquals(1 + TestTraces.SMALL_EVENTS, rows.size());
		for (List<String> row : rows) {
			assertEquals(CsvExporter.COLUMNS.size(), row.size(), row.toString());
		}
		List<String> launch = rows.get(1 + 6);
		Map<String, String> byName = new HashMap<>();
		for (int c = 0; c < CsvExporter.COLUMNS.size(); c++) {
			byName.put(CsvExporter.COLUMNS.get(c), launch.get(c));
		}
		assertEquals("LAUNCH", byName.get("kind"));
		assertEquals(TestTraces.TRICKY, byName.get("kernel"), "quotes, commas and newline survive the quoting");
		assertEquals("EX", byName.get("launch_kind"));
		assertEquals("", byName.get("gpu_start_ns"), "not measured");
		assertEquals("1024", byName.get("shared_mem"));
		assertEquals("00000100007f0000", byName.get("params"));
		List<String> alloc = rows.get(1 + 2);
		assertEquals("ALLOC", alloc.get(1));
		assertEquals("0x7f0000010000", alloc.get(CsvExporter.COLUMNS.indexOf("address")));
		assertEquals("262144", alloc.get(CsvExporter.COLUMNS.indexOf("size")));
		assertEquals("ASYNC", alloc.get(CsvExporter.COLUMNS.indexOf("alloc_kind")));
	}

	@Test
	void csvOfAGeneratedTraceHasOneRowPerEvent() throws IOException {
		Path trace = dir.resolve("gen.phos");
		CliRun.of("generate", "--launches", "1500", "--out", trace.toString());
		Path out = dir.resolve("gen.csv");
		assertEquals(ExitCode.OK, CliRun.of("export", trace.toString(), "--format", "csv", "--out",
				out.toString()).exit());
		List<List<String>> rows = parseCsv(Files.readString(out));
		assertEquals(TraceReader.read(trace, null).trace().eventCount() + 1, rows.size());
		for (List<String> row : rows) {
			assertEquals(CsvExporter.COLUMNS.size(), row.size(), row.toString());
		}
	}

	@Test
	void exportToStandardOutputReportsOnStderr() throws IOException {
		CliRun run = CliRun.of("export", small().toString(), "--format", "csv", "--out", "-");
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertTrue(run.out().startsWith(String.join(",", CsvExporter.COLUMNS) + "\n"), run.out());
		assertTrue(run.err().contains("to standard output"), run.err());
	}

	@Test
	void formatMustBeGivenWhenTheNameDoesNotTellIt() throws IOException {
		CliRun run = CliRun.of("export", small().toString(), "--out", dir.resolve("x.out").toString());
		assertEquals(ExitCode.USAGE, run.exit());
		assertTrue(run.err().contains("say which format to write with --format chrome-json or --format csv"),
				run.err());
	}

	@Test
	void missingOutIsAUsageError() throws IOException {
		CliRun run = CliRun.of("export", small().toString());
		assertEquals(ExitCode.USAGE, run.exit());
		assertTrue(run.err().contains("missing option --out FILE"), run.err());
	}

	@Test
	void outputInAMissingDirectoryFailsBeforeLoading() throws IOException {
		Path out = dir.resolve("no/such/dir/x.json");
		CliRun run = CliRun.of("export", small().toString(), "--out", out.toString());
		assertEquals(ExitCode.FAILURE, run.exit());
		assertTrue(run.err().contains("--out " + out + ": directory " + out.getParent() + " does not exist"),
				run.err());
	}

	@Test
	void outputThatIsADirectoryFails() throws IOException {
		Path out = dir.resolve("d.json");
		Files.createDirectory(out);
		CliRun run = CliRun.of("export", small().toString(), "--out", out.toString());
		assertEquals(ExitCode.FAILURE, run.exit());
		assertTrue(run.err().contains("is a directory; give a file name"), run.err());
	}

	@Test
	void notATraceFailsAndLeavesNoOutput() throws IOException {
		Path bogus = dir.resolve("bogus.phos");
		Files.write(bogus, new byte[] { 'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 });
		Path out = dir.resolve("bogus.json");
		CliRun run = CliRun.of("export", bogus.toString(), "--out", out.toString());
		assertEquals(ExitCode.FAILURE, run.exit());
		assertTrue(run.err().contains("cannot load: at byte offset 0"), run.err());
		assertFalse(Files.exists(out));
		try (var files = Files.list(dir)) {
			assertTrue(files.noneMatch(p -> p.getFileName().toString().endsWith(".part")), "no temporary left");
		}
	}
}
