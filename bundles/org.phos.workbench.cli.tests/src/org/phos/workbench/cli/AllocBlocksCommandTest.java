package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.export.JsonReader;

/**
 * i15-alloc: {@code info} counts PyTorch's caching-allocator block events, and {@code validate} judges
 * {@code +alloc-blocks} on the samples recorded with them (docs/accuracy.md, block i15-alloc): 0 unsafe launches,
 * 100% write recall, and at least the byte precision measured on 2026-11-25.
 */
class AllocBlocksCommandTest {

	@TempDir
	Path dir;

	private static Path sample(String name) {
		Path file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
		assumeTrue(Files.isRegularFile(file), file + " missing (set -Dphos.repo to the repository root)");
		return file;
	}

	@Test
	void infoCountsTheBlockEventsAndNamesTheAllocator() {
		CliRun run = CliRun.of("info", sample("pytorch-train-alloc.phos").toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		assertTrue(run.out().contains("allocator  1,329 block events from pytorch's caching allocator"), run.out());
		assertTrue(Pattern.compile("allocator block\\s+1,329\\n").matcher(run.out()).find(), run.out());
		CliRun json = CliRun.of("info", "--json", sample("pytorch-train-alloc.phos").toString());
		String out = json.out().replaceAll("\\s", "");
		assertTrue(out.contains("\"allocatorEvents\":\"pytorch\""), out);
		assertTrue(out.contains("\"allocator_block\":1329"), out);
		CliRun old = CliRun.of("info", sample("pytorch-train.phos").toString());
		assertFalse(old.out().contains("allocator  "), "a trace recorded without them has no such line");
	}

	@SuppressWarnings("unchecked")
	private Map<String, Map<String, Object>> totals(String sample, String... engines) throws IOException {
		Path json = dir.resolve(sample + ".json");
		CliRun r = CliRun.of("validate", sample(sample).toString(), "--engine", String.join(",", engines), "--json",
				json.toString());
		assertEquals(ExitCode.OK, r.exit(), r.err());
		Map<String, Object> root = (Map<String, Object>) JsonReader.parse(Files.readString(json));
		Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
		for (Map<String, Object> e : (List<Map<String, Object>>) root.get("engines")) {
			byName.put((String) e.get("engine"), (Map<String, Object>) e.get("total"));
		}
		return byName;
	}

	private static double number(Map<String, Map<String, Object>> e, String engine, String key) {
		assertTrue(e.containsKey(engine), engine + " not in " + e.keySet());
		return ((Number) e.get(engine).get(key)).doubleValue();
	}

	private void assertSafeAndAtLeast(String sample, double measured, double measuredAlone) throws IOException {
		String before = "ptx-flow/arg-scan+indirect+blocks"; // best before the allocator's blocks and the cuBLAS table
		String both = before + "+alloc-blocks";
		String alone = "ptx-flow/arg-scan+indirect+alloc-blocks";
		String best = both + "+cublas"; // what best is on a trace with allocator events
		Map<String, Map<String, Object>> e = totals(sample, before, both, alone, "best");
		for (String engine : List.of(both, alone, best)) {
			assertEquals(0, number(e, engine, "unsafe_launches"), sample + " " + engine);
			assertEquals(1.0, number(e, engine, "write_recall"), sample + " " + engine);
		}
		assertTrue(number(e, both, "byte_precision") >= measured, sample + ": " + e.get(both));
		assertTrue(number(e, alone, "byte_precision") >= measuredAlone, sample + ": " + e.get(alone));
		assertTrue(number(e, both, "byte_precision") > number(e, before, "byte_precision"));
		assertTrue(number(e, best, "byte_precision") >= number(e, both, "byte_precision"), sample + ": " + e.get(best));
	}

	@Test
	void pytorchTrainAllocBlocksIsSafeAndAboveHalf() throws IOException {
		assertSafeAndAtLeast("pytorch-train-alloc.phos", 0.5508, 0.4815); // 55.09% (0.55087), 48.16% (best 29.61%)
	}

	@Test
	void strictIsSafeOnBothSamplesAndAboveSixtyPercentOnPytorchTrain() throws IOException {
		String strict = "ptx-flow/arg-scan+indirect+blocks+alloc-blocks-strict+cublas"; // best's, the strict rule in place
		Map<String, Map<String, Object>> e = totals("pytorch-train-alloc.phos", "best+alloc-blocks-strict");
		assertEquals(0, number(e, strict, "unsafe_launches"));
		assertEquals(1.0, number(e, strict, "write_recall"));
		assertTrue(number(e, strict, "byte_precision") >= 0.7314, e.toString()); // 73.15% (0.73146) (65.18% without +cublas)
		Map<String, Map<String, Object>> t = totals("triton-ops-alloc.phos", "best+alloc-blocks-strict");
		assertEquals(0, number(t, strict, "unsafe_launches"));
		assertEquals(1.0, number(t, strict, "write_recall"));
	}

	@Test
	void tritonOpsAllocBlocksIsSafe() throws IOException {
		assertSafeAndAtLeast("triton-ops-alloc.phos", 0.2447, 0.2388); // 24.48% (0.24476), 23.89% (best 16.57%)
	}
}
