package org.phos.workbench.speculation.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * A launch speculated through keyframes (restore the state before it, show remembering engines their first
 * launches) gives exactly what the walk of the whole trace gives for it, for every engine kind: stateless
 * ({@code arg-scan}), first-launch memory ({@code phos}, {@code ptx-flow}), stored pointers ({@code +indirect}).
 */
class SpeculationKeyframesTest {

	private static final List<String> ENGINES = List.of("phos", "arg-scan", "best", "phos+indirect",
			"ptx-flow/arg-scan");

	@TempDir
	static Path dir;
	static Trace synthetic;

	@BeforeAll
	static void generate() throws IOException {
		Path file = dir.resolve("keyframes.phos");
		SyntheticTraceGenerator.generate(file, SyntheticTraceOptions.defaults(20_000).withLiveAllocations(400), null);
		synthetic = TraceReader.read(file, null).trace();
	}

	/** What the walk from the start speculates for every launch. */
	private static List<LaunchSpeculation> walk(Trace trace, String engine) {
		return TraceFixture.speculate(trace, engine);
	}

	/** What a fresh engine speculates for one launch reached through keyframes. */
	private static LaunchSpeculation jump(Trace trace, String engine, SpeculationKeyframes keyframes, int launch) {
		SpeculationEngine e = EngineRegistry.create(engine, trace);
		List<LaunchSpeculation> out = new ArrayList<>();
		TraceSpeculator.forEngines(trace, List.of(e), keyframes).run(null, launch, launch + 1,
				l -> out.add(LaunchSpeculation.collect(e, l)));
		assertEquals(1, out.size());
		return out.get(0);
	}

	/** Launches to check: the first, the last, those around keyframes, and random ones. */
	private static List<Integer> launches(Trace trace, SpeculationKeyframes keyframes, int random) {
		List<Integer> out = new ArrayList<>(List.of(0, trace.launchCount() - 1));
		for (int k = 1; k < keyframes.count(); k++) {
			int event = k * keyframes.interval();
			for (int l = 0; l < trace.launchCount(); l++) {
				if (trace.launchEvent(l) >= event) { // the first launch at or after a keyframe, and the one before
					out.add(l);
					if (l > 0) {
						out.add(l - 1);
					}
					break;
				}
			}
			if (out.size() > 40) {
				break;
			}
		}
		SplittableRandom rnd = new SplittableRandom(11);
		for (int i = 0; i < random; i++) {
			out.add(rnd.nextInt(trace.launchCount()));
		}
		return out;
	}

	private static void assertSameAsWalk(Trace trace, String name, int interval, int random) {
		SpeculationKeyframes keyframes = SpeculationKeyframes.build(trace, interval, null);
		assertEquals(trace.eventCount() / interval + 1, keyframes.count(), name);
		List<Integer> launches = launches(trace, keyframes, random);
		int nonEmpty = 0;
		for (String engine : ENGINES) {
			List<LaunchSpeculation> all = walk(trace, engine);
			for (int launch : launches) {
				LaunchSpeculation expected = all.get(launch);
				assertEquals(expected, jump(trace, engine, keyframes, launch),
						name + ", engine " + engine + ", launch " + launch + ", keyframes every " + interval);
				nonEmpty += expected.accesses().isEmpty() ? 0 : 1;
			}
		}
		assertTrue(nonEmpty > 0, name + ": no launch checked had a speculated access");
	}

	@Test
	void aGeneratedTraceGivesTheWalksAnswersAtAnyLaunch() {
		assertTrue(synthetic.launchCount() == 20_000);
		assertSameAsWalk(synthetic, "generated", 2048, 30);
		// keyframes of stored pointers are compact copies that must behave as the history they replace
		SpeculationKeyframes keyframes = SpeculationKeyframes.build(synthetic, 2048, null);
		boolean pointers = false;
		for (int k = 0; k < keyframes.count(); k++) {
			pointers |= keyframes.pointers(k).allocationCount() > 0;
		}
		assertTrue(pointers, "the generated trace's copies stored no pointer: the indirect case is not exercised");
	}

	@Test
	void sampleTracesGiveTheWalksAnswersAtEveryLaunch() throws IOException {
		Path samples = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces");
		assertTrue(Files.isDirectory(samples), samples + " missing (set -Dphos.repo to the repository root)");
		for (String sample : List.of("cuda-suite.phos", "ptx-driver.phos", "cupy-ops.phos", "jcuda-jacobi.phos")) {
			Trace trace = TraceReader.read(samples.resolve(sample), null).trace();
			// small intervals, so that keyframes fall between most launches of these small traces; every launch up to
			// 40, then every few (each check makes fresh engines, which read the trace's PTX)
			int step = Math.max(1, trace.launchCount() / 40);
			for (int interval : new int[] { 1, 7, 64 }) {
				SpeculationKeyframes keyframes = SpeculationKeyframes.build(trace, interval, null);
				for (String engine : ENGINES) {
					List<LaunchSpeculation> all = walk(trace, engine);
					for (int launch = 0; launch < trace.launchCount(); launch += step) {
						assertEquals(all.get(launch), jump(trace, engine, keyframes, launch),
								sample + ", engine " + engine + ", launch " + launch + ", keyframes every " + interval);
					}
				}
			}
		}
	}

	@Test
	void aSpeculatorFromKeyframesCanWalkAPartToItsEnd() {
		SpeculationKeyframes keyframes = SpeculationKeyframes.build(synthetic, 4096, null);
		for (String engine : List.of("phos", "best")) {
			List<LaunchSpeculation> all = walk(synthetic, engine);
			SpeculationEngine e = EngineRegistry.create(engine, synthetic);
			List<LaunchSpeculation> part = new ArrayList<>();
			TraceSpeculator.forEngines(synthetic, List.of(e), keyframes).run(null, 12_345, 15_000,
					l -> part.add(LaunchSpeculation.collect(e, l)));
			assertEquals(all.subList(12_345, 15_000), part, engine);
		}
	}
}
