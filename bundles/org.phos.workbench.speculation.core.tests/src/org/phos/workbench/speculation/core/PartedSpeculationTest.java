package org.phos.workbench.speculation.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phos.workbench.speculation.core.TraceFixture.words;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.speculation.core.validate.SpeculationProfile;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/** Speculating a trace in parts on several threads gives exactly what one walk gives. */
class PartedSpeculationTest {

	@TempDir
	static Path dir;
	static Trace synthetic;

	@BeforeAll
	static void generate() throws IOException {
		Path file = dir.resolve("parts.phos");
		SyntheticTraceGenerator.generate(file, SyntheticTraceOptions.defaults(12_000).withLiveAllocations(500), null);
		synthetic = TraceReader.read(file, null).trace();
	}

	/** Every launch's speculation, in launch order, from a walk in {@code parts} parts. */
	private static List<LaunchSpeculation> inParts(Trace trace, String engine, int parts) {
		LaunchSpeculation[] out = new LaunchSpeculation[trace.launchCount()];
		PartedSpeculation.run(trace, List.of(EngineRegistry.create(engine, trace)), parts, null, (part, mine) -> {
			SpeculationEngine e = mine.get(0);
			return launch -> out[launch.launchIndex()] = LaunchSpeculation.collect(e, launch);
		});
		return Arrays.asList(out);
	}

	@Test
	void everyEngineSpeculatesEachLaunchAsOneWalkDoes() {
		for (String engine : List.of("phos", "arg-scan", "ptx-flow/arg-scan", "best", "phos+indirect")) {
			List<LaunchSpeculation> one = TraceFixture.speculate(synthetic, engine);
			assertTrue(one.stream().anyMatch(s -> !s.accesses().isEmpty()), engine + " speculated nothing");
			for (int parts : new int[] { 2, 5 }) {
				assertEquals(one, inParts(synthetic, engine, parts), engine + " in " + parts + " parts");
			}
		}
	}

	@Test
	void aPartKnowsTheScanOffsetsPhosFixedAtFirstLaunchesInEarlierParts() {
		int[] ids = new int[3];
		TraceFixture f = TraceFixture.create();
		ids[0] = f.alloc(EnginesTest.A, 4096);
		ids[1] = f.alloc(EnginesTest.B, 65536);
		f.function(3, 0, "_Z1k6Params", 0, 24); // k(Params): a struct, scanned at the first launch
		f.launch(3, words(3, EnginesTest.A + 8, 0)); // the scan fixes offset 8
		f.launch(3, words(EnginesTest.B, 4, 0)); // the pointer moved to offset 0: phos misses it
		f.launch(3, words(EnginesTest.B, 4, 0));
		f.launch(3, words(0, EnginesTest.B + 32, 0)); // back at offset 8: seen
		Trace trace = f.build();
		List<LaunchSpeculation> one = TraceFixture.speculate(trace, "phos");
		assertTrue(one.get(2).accesses().isEmpty(), one.get(2).toString());
		assertEquals(List.of(ids[1]), one.get(3).accesses().stream().map(a -> (int) a.allocationId()).toList());
		assertEquals(one, inParts(trace, "phos", 2));
		assertEquals(one, inParts(trace, "phos", 4));
		// what a part would get without being shown the first launch: its own first launch fixes the scan
		List<LaunchSpeculation> blind = new ArrayList<>();
		SpeculationEngine fresh = EngineRegistry.create("phos", trace);
		new TraceSpeculator(trace, false).run(null, 2, 4,
				launch -> blind.add(LaunchSpeculation.collect(fresh, launch)));
		assertNotEquals(one.subList(2, 4), blind);
	}

	@Test
	void profilesInPartsEqualTheProfileOfOneWalk() {
		List<String> names = List.of("phos", "arg-scan", "best");
		SpeculationProfile.Result one = SpeculationProfile.of(synthetic, engines(names), 7000, null, 1);
		SpeculationProfile.Result three = SpeculationProfile.of(synthetic, engines(names), 7000, null, 3);
		assertEquals(one, three);
		assertEquals(3, one.detail().size());
		assertTrue(one.engines().get(0).total().allocations() > 0);
	}

	private static List<SpeculationEngine> engines(List<String> names) {
		return names.stream().map(n -> EngineRegistry.create(n, synthetic)).toList();
	}

	@Test
	void splitsOnlyLargeTracesOfEnginesThatCanBeMadeAgain() {
		assertEquals(1, PartedSpeculation.parts(synthetic, engines(List.of("arg-scan")), 8)); // 12k launches: small
		SpeculationEngine unregistered = new SpeculationEngine() {
			@Override
			public String name() {
				return "not-registered";
			}

			@Override
			public boolean speculate(LaunchContext launch, AccessSink sink) {
				return true;
			}
		};
		assertEquals(SpeculationEngine.Memory.EVERY_LAUNCH, unregistered.memory());
		assertTrue(EngineRegistry.canCreate("ptx-flow/arg-scan+indirect"));
		assertTrue(!EngineRegistry.canCreate("not-registered"));
	}

	@Test
	void aFailingPartStopsTheOthersAndItsFailureIsThrown() {
		EngineRegistry.register("fails-at-launch-9000", "test: throws at launch 9000",
				trace -> new SpeculationEngine() {
			@Override
			public String name() {
				return "fails-at-launch-9000";
			}

			@Override
			public Memory memory() {
				return Memory.NONE;
			}

			@Override
			public boolean speculate(LaunchContext launch, AccessSink sink) {
				if (launch.launchIndex() == 9000) {
					throw new IllegalStateException("broken at launch 9000");
				}
				return true;
			}
		});
		List<SpeculationEngine> engines = List.of(EngineRegistry.create("fails-at-launch-9000", synthetic));
		IllegalStateException e = assertThrows(IllegalStateException.class,
				() -> PartedSpeculation.run(synthetic, engines, 3, null, (part, mine) -> launch -> mine.get(0)
						.speculate(launch, (id, base, begin, end, mode, param, offset) -> {
						})));
		assertEquals("broken at launch 9000", e.getMessage());
	}

	@Test
	void cancellingStopsEveryPart() throws IOException {
		Path file = dir.resolve("cancel.phos");
		SyntheticTraceGenerator.generate(file, SyntheticTraceOptions.defaults(150_000).withLiveAllocations(200), null);
		Trace trace = TraceReader.read(file, null).trace();
		NullProgressMonitor monitor = new NullProgressMonitor();
		int[] seen = new int[1];
		assertThrows(OperationCanceledException.class, () -> PartedSpeculation.run(trace,
				List.of(EngineRegistry.create("arg-scan", trace)), 2, monitor, (part, mine) -> launch -> {
					if (part == 0 && ++seen[0] == 1000) {
						monitor.setCanceled(true);
					}
				}));
		Files.deleteIfExists(file);
	}
}
