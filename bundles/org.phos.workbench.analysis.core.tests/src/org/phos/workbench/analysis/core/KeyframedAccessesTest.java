package org.phos.workbench.analysis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.SpeculationKeyframes;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * On a generated trace long enough for several keyframes at the session's interval, the access query of a launch deep
 * in the trace (reached through keyframes) gives, per allocation and engine, the verdict validate gives walking the
 * whole trace from the start in one part.
 */
class KeyframedAccessesTest {

	private static final List<String> ENGINES = List.of("phos", "arg-scan", "best");

	@TempDir
	Path dir;

	@Test
	void accessesThroughKeyframesAgreeWithOneWalkOfValidate() throws IOException {
		Path file = dir.resolve("keyframed.phos");
		SyntheticTraceGenerator.generate(file, SyntheticTraceOptions.defaults(160_000).withLiveAllocations(500)
				.withObservedEvery(37), null);
		Trace trace = TraceReader.read(file, null).trace();
		EngineCatalog catalog = EngineCatalog.standard();
		List<SpeculationEngine> engines = ENGINES.stream().map(e -> catalog.create(e, trace)).toList();
		Map<String, Map<Integer, Map<Long, String>>> expected = new HashMap<>();
		SpeculationValidator.validate(trace, engines, null, 1, null,
				(engine, v) -> expected.computeIfAbsent(engine, k -> new HashMap<>())
						.computeIfAbsent(v.launchEvent(), k -> new HashMap<>())
						.put(v.allocationBase(), v.verdict().label()));
		AnalysisSession session = new AnalysisSession(catalog);
		SpeculationKeyframes keyframes = session.keyframes(trace, null);
		assertTrue(keyframes.count() >= 3, keyframes.count() + " keyframes");
		List<Integer> observed = new ArrayList<>(expected.get(engines.get(0).name()).keySet());
		observed.sort(null);
		SplittableRandom random = new SplittableRandom(5);
		int compared = 0;
		int deep = 0;
		for (int q = 0; q < 30; q++) {
			int launchEvent = observed.get(random.nextInt(observed.size()));
			int launch = trace.launchIndex(launchEvent);
			deep += launchEvent >= keyframes.interval() ? 1 : 0;
			AccessAnswer answer = session.accesses(new AccessQuery(trace, launch, ENGINES, List.of()), null);
			for (int e = 0; e < ENGINES.size(); e++) {
				Map<Long, String> want = expected.get(engines.get(e).name()).get(launchEvent);
				Map<Long, String> got = new HashMap<>();
				for (AccessRow row : answer.table().rows()) {
					String verdict = row.engines().get(e).verdict().label();
					if (!verdict.equals("not-named")) {
						got.put(row.base(), verdict);
					}
				}
				assertEquals(want, got, "launch " + launch + " (event " + launchEvent + "), engine " + ENGINES.get(e));
				compared++;
			}
		}
		assertEquals(90, compared);
		assertTrue(deep >= 20, deep + " of 30 launches past the first keyframe");
	}
}
