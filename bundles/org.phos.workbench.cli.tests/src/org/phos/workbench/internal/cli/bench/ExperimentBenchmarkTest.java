package org.phos.workbench.internal.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/** The experiment benchmark on a small trace: every figure measured, nothing left behind. */
class ExperimentBenchmarkTest {

	@TempDir
	Path dir;

	@Test
	void measuresTheRatioTheGapsAndTheCancels() throws Exception {
		Path trace = dir.resolve("small.phos");
		SyntheticTraceGenerator.generate(trace, SyntheticTraceOptions.defaults(20_000).withSeed(1), null);
		Path scratch = Files.createDirectory(dir.resolve("scratch"));
		ByteArrayOutputStream log = new ByteArrayOutputStream();
		ExperimentBenchmark.Result r = ExperimentBenchmark.run(trace, BenchSuite.experimentConfig(20_000), 1, 2,
				scratch, new PrintStream(log, true, StandardCharsets.UTF_8));
		String text = log.toString(StandardCharsets.UTF_8);
		assertEquals(1, r.cliSeconds().length);
		assertTrue(r.cliSeconds()[0] > 0 && r.createSeconds()[0] > 0, text);
		assertTrue(r.ratio() > 0.2 && r.ratio() < 5, "run and save against simulate: " + r.ratio() + "\n" + text);
		assertTrue(r.maxGapMs() > 0 && r.reports() > 20, text);
		assertEquals(2, r.cancelMs().length);
		assertTrue(r.cancelled() >= 1, text);
		assertTrue(text.contains("OperationCanceledException"), text);
		try (Stream<Path> left = Files.list(scratch)) {
			assertEquals(0, left.count(), "the benchmark's files are deleted");
		}
	}
}
