package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.export.JsonReader;

/**
 * {@code validate} on the recorded caching-allocator samples (issue #15): {@code best} (now with {@code +blocks})
 * keeps 0 unsafe launches and 100% write recall, and its byte precision is at least what the run of 2026-11-25 gave
 * (docs/accuracy.md, block i15-prec), above the old {@code best}'s.
 */
class BlocksValidateCommandTest {

	@TempDir
	Path dir;

	private static Path sample(String name) {
		Path file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
		assumeTrue(Files.isRegularFile(file), file + " missing (set -Dphos.repo to the repository root)");
		return file;
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> totals(String sample, String... engines) throws IOException {
		Path json = dir.resolve(sample + ".json");
		CliRun r = CliRun.of("validate", sample(sample).toString(), "--engine", String.join(",", engines), "--json",
				json.toString());
		assertEquals(ExitCode.OK, r.exit(), r.err());
		Map<String, Object> root = (Map<String, Object>) JsonReader.parse(Files.readString(json));
		List<Map<String, Object>> list = (List<Map<String, Object>>) root.get("engines");
		assertEquals(engines.length, list.size());
		Map<String, Object> byName = new java.util.LinkedHashMap<>();
		for (Map<String, Object> e : list) {
			byName.put((String) e.get("engine"), e.get("total"));
		}
		return byName;
	}

	@SuppressWarnings("unchecked")
	private static double number(Map<String, Object> engines, String engine, String key) {
		Map<String, Object> total = (Map<String, Object>) engines.get(engine);
		assertTrue(total != null, engine + " not in " + engines.keySet());
		return ((Number) total.get(key)).doubleValue();
	}

	private void assertBlocksSafeAndAtLeast(String sample, double measured) throws IOException {
		String old = "ptx-flow/arg-scan+indirect";
		String best = old + "+blocks";
		Map<String, Object> e = totals(sample, old, best); // best itself has +cublas too since 2026-11-26
		assertEquals(0, number(e, best, "unsafe_launches"), sample);
		assertEquals(1.0, number(e, best, "write_recall"), sample);
		double precision = number(e, best, "byte_precision");
		assertTrue(precision >= measured, sample + ": " + precision + " < " + measured);
		assertTrue(precision > number(e, old, "byte_precision"), sample);
	}

	@Test
	void pytorchTrainBestIsSafeAndAtLeastAsPreciseAsMeasured() throws IOException {
		assertBlocksSafeAndAtLeast("pytorch-train.phos", 0.3251); // 32.52% (0.32515) (old best 24.31%)
	}

	@Test
	void tritonOpsBestIsSafeAndAtLeastAsPreciseAsMeasured() throws IOException {
		assertBlocksSafeAndAtLeast("triton-ops.phos", 0.1695); // 16.95% (0.16953; old best 8.58%, 11.34% with Triton's PTX)
	}

	@Test
	void pastBlocksMissesWritesOnPytorchTrainAndValidateCountsThem() throws IOException {
		Map<String, Object> e = totals("pytorch-train.phos", "ptx-flow/arg-scan+indirect+past-blocks");
		double unsafe = number(e, "ptx-flow/arg-scan+indirect+past-blocks", "unsafe_launches");
		assertTrue(unsafe > 0, "the inference from earlier launches is wrong after blocks are re-used: " + unsafe);
		assertTrue(number(e, "ptx-flow/arg-scan+indirect+past-blocks", "write_recall") < 1.0);
	}
}
