package org.phos.workbench.speculation.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/** Validation walked in parts on several threads gives the report and the verdicts of one walk. */
class ValidationInPartsTest {

	@TempDir
	Path dir;

	private static List<SpeculationEngine> engines(Trace trace, List<String> names) {
		return names.stream().map(n -> EngineRegistry.create(n, trace)).toList();
	}

	@SuppressWarnings("unchecked")
	private static <T> List<T>[] lists(int n) {
		return new List[n];
	}

	/** The report of a walk in {@code parts} parts, and every verdict it gave, sorted (the order across parts varies). */
	private static List<Object> validate(Trace trace, List<String> names, int parts) {
		List<String> verdicts = Collections.synchronizedList(new ArrayList<>());
		ValidationReport report = SpeculationValidator.validate(trace, engines(trace, names), null, parts, null,
				(engine, v) -> verdicts.add(engine + " " + v));
		List<String> sorted = new ArrayList<>(verdicts);
		Collections.sort(sorted);
		// the reliability is recomputed per call and has no value equality: compare what it says
		return List.of(report.observedLaunches(), report.observedEntries(), report.unattributedEntries(),
				report.tools(), report.engines(), report.excludedLaunches(), report.reliability().summary(),
				report.invalidRecords(), String.valueOf(report.invalidWarning()), sorted);
	}

	/**
	 * Each engine's totals of a report in parts against the verdicts its parts gave one by one: the sums of parts
	 * must equal what the verdicts add up to (an independent check of how parts are combined).
	 */
	private static void assertTotalsAddUpTheVerdicts(Trace trace, List<String> names, int parts) {
		List<AllocationVerdict>[] verdicts = lists(names.size());
		for (int e = 0; e < names.size(); e++) {
			verdicts[e] = Collections.synchronizedList(new ArrayList<>());
		}
		List<SpeculationEngine> engines = engines(trace, names);
		String bestName = EngineRegistry.create("best", trace).name(); // what best stands for on this trace
		ValidationReport report = SpeculationValidator.validate(trace, engines, null, parts, null,
				(engine, v) -> verdicts[names.indexOf(engine.equals(bestName) ? "best" : engine)]
						.add(v));
		for (int e = 0; e < names.size(); e++) {
			Accuracy total = report.engines().get(e).total();
			long useful = 0;
			long speculated = 0;
			long[] counts = new long[AccessVerdict.values().length];
			java.util.Set<Integer> unsafe = new java.util.HashSet<>();
			for (AllocationVerdict v : verdicts[e]) {
				useful += v.usefulBytes();
				speculated += v.speculatedBytes();
				counts[v.verdict().ordinal()]++;
				if (v.verdict().unsafe()) {
					unsafe.add(v.launchEvent());
				}
			}
			String what = names.get(e) + " in " + parts + " parts";
			assertTrue(verdicts[e].size() > 1000, what + ": " + verdicts[e].size() + " verdicts");
			assertEquals(useful, total.usefulBytes(), what);
			assertEquals(speculated, total.speculatedBytes(), what);
			assertEquals(unsafe.size(), total.unsafeLaunches(), what);
			for (AccessVerdict v : AccessVerdict.values()) {
				assertEquals(counts[v.ordinal()], total.verdicts().get(v), what + " " + v);
			}
		}
	}

	@Test
	void aGeneratedTraceWithTruthGivesTheSameReportInAnyNumberOfParts() throws IOException {
		Path file = dir.resolve("truth.phos");
		SyntheticTraceGenerator.generate(file,
				SyntheticTraceOptions.defaults(30_000).withLiveAllocations(400).withObservedEvery(3), null);
		Trace trace = TraceReader.read(file, null).trace();
		List<String> names = List.of("phos", "arg-scan", "best");
		List<Object> one = validate(trace, names, 1);
		long observed = (Long) one.get(0);
		// every third launch, less those whose parameters point nowhere
		assertTrue(observed > 9_000 && observed <= 10_000, observed + " launches observed");
		@SuppressWarnings("unchecked")
		List<EngineValidation> engines = (List<EngineValidation>) one.get(4);
		assertTrue(engines.get(0).total().unsafeLaunches() > 0 && engines.get(1).total().launches() == observed,
				engines.toString());
		for (int parts : new int[] { 2, 3, 7 }) {
			assertEquals(one, validate(trace, names, parts), parts + " parts");
		}
		assertTotalsAddUpTheVerdicts(trace, names, 1);
		assertTotalsAddUpTheVerdicts(trace, names, 3);
	}

	@Test
	void sampleTracesGiveTheSameReportInParts() throws IOException {
		Path samples = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces");
		assertTrue(Files.isDirectory(samples), samples + " missing (set -Dphos.repo to the repository root)");
		for (String sample : List.of("cuda-suite.phos", "cupy-ops.phos", "jcuda-jacobi.phos")) {
			Trace trace = TraceReader.read(samples.resolve(sample), null).trace();
			List<String> names = List.of("phos", "arg-scan", "best");
			List<Object> one = validate(trace, names, 1);
			assertTrue((Long) one.get(0) > 0, sample + " holds no truth");
			assertEquals(one, validate(trace, names, 3), sample + " in 3 parts");
		}
	}
}
