package org.phos.workbench.speculation.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/**
 * The figures docs/accuracy.md states, on the committed sample traces and their observed accesses: the best
 * combination misses no write on any sample, and where stored pointers matter it beats {@code phos}.
 */
class SampleAccuracyTest {

	private static Path samples() {
		Path dir = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces");
		assumeTrue(Files.isDirectory(dir), dir + " missing (set -Dphos.repo to the repository root)");
		return dir;
	}

	private static List<EngineValidation> validate(Path file, String... engines) throws IOException {
		Trace trace = TraceReader.read(file, null).trace();
		List<SpeculationEngine> list = Stream.of(engines).map(e -> EngineRegistry.create(e, trace)).toList();
		return SpeculationValidator.validate(trace, list, null, null, null).engines();
	}

	@Test
	void bestMissesNoWriteOnAnySample() throws IOException {
		List<Path> traces;
		try (Stream<Path> s = Files.list(samples())) {
			traces = s.filter(p -> p.toString().endsWith(".phos")).sorted().toList();
		}
		assertTrue(traces.size() >= 6, traces.toString());
		for (Path t : traces) {
			Accuracy best = validate(t, "best").get(0).total();
			assertTrue(best.launches() > 0, t + ": no observed launch to judge");
			assertEquals(1.0, best.writeRecall(), t + ": write recall");
			assertEquals(0, best.unsafeLaunches(), t + ": unsafe launches");
		}
	}

	@Test
	void onCupyOnlyIndirectPointersCatchTheReadsOfThePointerTable() throws IOException {
		List<EngineValidation> v = validate(samples().resolve("cupy-ops.phos"), "phos", "best");
		Accuracy phos = v.get(0).total();
		Accuracy best = v.get(1).total();
		assertEquals(19, best.launches());
		assertTrue(phos.readRecall() < 0.7, "phos misses gather_rows' reads: " + phos.readRecall());
		assertEquals(1.0, best.readRecall());
		assertTrue(best.bytePrecision() > phos.bytePrecision(), best.bytePrecision() + " vs " + phos.bytePrecision());
	}
}
