package org.phos.workbench.analysis.core.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.Trace;

/** Each option is checked on its own, with simulate's message, so the dialog can show it beside its field. */
class ExperimentPlanTest {

	@TempDir
	Path dir;

	private static ExperimentConfig config(String policies, String at, String machine, String sets, int width) {
		return new ExperimentConfig(policies, at, machine, sets, width);
	}

	@Test
	void eachOptionIsCheckedAloneWithSimulatesMessage() {
		ExperimentProblem policy = ExperimentPlan.checkPolicies("soft-magic", null);
		assertNotNull(policy);
		assertEquals(ExperimentOption.POLICIES, policy.option());
		assertTrue(policy.message().startsWith("option --policy: ") && policy.message().contains("soft-magic")
				&& policy.message().contains("soft-cow"), policy.message());
		assertFalse(policy.reason().startsWith("option"), "the dialog's text has no option prefix: " + policy.reason());
		assertTrue(policy.usage());

		ExperimentProblem param = ExperimentPlan.checkPolicies("soft-cow:colour=red", null);
		assertNotNull(param);
		assertTrue(param.message().contains("unknown parameter(s) [colour]"), param.message());

		ExperimentProblem at = ExperimentPlan.checkAt("launch:x");
		assertNotNull(at);
		assertEquals(ExperimentOption.AT, at.option());
		assertTrue(at.message().startsWith("option --at: ") && at.message().contains("launch:N"), at.message());
		assertNull(ExperimentPlan.checkAt(null));
		assertNull(ExperimentPlan.checkAt("200ms"));

		ExperimentProblem knob = ExperimentPlan.checkMachine("h100,warp=9");
		assertNotNull(knob);
		assertEquals(ExperimentOption.MACHINE, knob.option());
		assertTrue(knob.message().contains("unknown machine knob 'warp'") && knob.message().contains("d2h"),
				knob.message());
		ExperimentProblem preset = ExperimentPlan.checkMachine("v100");
		assertNotNull(preset);
		assertTrue(preset.message().contains("known: h100, a800-pcie4"), preset.message());
		assertNull(ExperimentPlan.checkMachine("a800-pcie4,d2h=20GB/s"));

		ExperimentProblem sets = ExperimentPlan.checkSets("guess");
		assertNotNull(sets);
		assertEquals(ExperimentOption.SETS, sets.option());
		assertTrue(sets.message().contains("auto, observed, placeholder, engine:NAME"), sets.message());
		assertNull(ExperimentPlan.checkSets("observed,engine:phos"));

		ExperimentProblem width = ExperimentPlan.checkWidth(100);
		assertNotNull(width);
		assertEquals(ExperimentOption.WIDTH, width.option());
		assertTrue(width.message().contains("400 to 10000"), width.message());
		assertNull(ExperimentPlan.checkWidth(1600));
	}

	@Test
	void checkReportsEveryWrongOptionAtOnceAndNothingForAGoodConfiguration() {
		List<ExperimentProblem> problems = ExperimentPlan.check(config("soft-cow", null, "v100", "guess", 50));
		assertEquals(List.of(ExperimentOption.MACHINE, ExperimentOption.SETS, ExperimentOption.WIDTH),
				problems.stream().map(ExperimentProblem::option).toList(), problems.toString());
		assertEquals(List.of(), ExperimentPlan.check(config("stop-the-world;soft-cow:budget=1GiB", "launch:3", "h100",
				"auto", 1600)));
		// a wrong --at is the --at field's problem, not the policies'
		List<ExperimentProblem> at = ExperimentPlan.check(config("soft-cow", "soon", "h100", "auto", 1600));
		assertEquals(List.of(ExperimentOption.AT), at.stream().map(ExperimentProblem::option).toList(), at.toString());
		ExperimentException e = assertThrows(ExperimentException.class,
				() -> ExperimentPlan.of(config("soft-cow", null, "v100", "auto", 1600)));
		assertEquals(ExperimentOption.MACHINE, e.problem().option());
	}

	@Test
	void theTraceRefusesALaunchPastItsEndAnUnknownEngineAndObservedSetsItLacks() throws IOException {
		Path file = ExperimentTraces.sample("ptx-driver.phos", dir);
		Trace trace = ExperimentTraces.load(file);
		long launches = trace.launchCount();
		List<ExperimentProblem> past = ExperimentPlan.check(config("soft-cow", "launch:" + launches, "h100", "auto",
				1600), trace, file.toString());
		assertEquals(1, past.size(), past.toString());
		assertEquals(ExperimentOption.AT, past.get(0).option());
		assertTrue(past.get(0).message().contains("the trace has " + launches + " launch"), past.get(0).message());
		List<ExperimentProblem> inPolicy = ExperimentPlan.check(config("soft-cow:at=launch:" + (launches + 5), null,
				"h100", "auto", 1600), trace, file.toString());
		assertEquals(ExperimentOption.POLICIES, inPolicy.get(0).option(), inPolicy.toString());
		List<ExperimentProblem> engine = ExperimentPlan.check(config("soft-cow", null, "h100", "engine:oracle", 1600),
				trace, file.toString());
		assertEquals(ExperimentOption.SETS, engine.get(0).option(), engine.toString());
		assertTrue(engine.get(0).message().contains("unknown engine 'oracle'"), engine.toString());
		if (trace.observedAccesses().isEmpty()) {
			List<ExperimentProblem> observed = ExperimentPlan.check(config("soft-cow", null, "h100", "observed",
					1600), trace, file.toString());
			assertEquals(ExperimentOption.SETS, observed.get(0).option(), observed.toString());
			assertFalse(observed.get(0).usage(), "the trace's lack, not a typing mistake");
			assertTrue(observed.get(0).message().contains("--sets observed needs observed accesses"),
					observed.toString());
		}
		assertEquals(List.of(), ExperimentPlan.check(config("soft-cow", "launch:0", "h100", "auto", 1600), trace,
				file.toString()));
	}

	@Test
	void runNamesFollowSimulate() throws ExperimentException {
		ExperimentPlan plan = ExperimentPlan.of(config("soft-cow;stop-the-world;soft-cow", "launch:1", "h100",
				"observed,engine:phos", 1600));
		assertEquals(List.of("soft-cow [observed]", "stop-the-world [observed]", "soft-cow#2 [observed]",
				"soft-cow [engine:phos]", "stop-the-world [engine:phos]", "soft-cow#2 [engine:phos]"),
				plan.runNames());
		assertTrue(plan.comparison());
		assertEquals(List.of("observed", "engine:phos"), plan.setLabels());
		assertEquals(List.of("soft-cow"), ExperimentPlan.of(config("soft-cow", null, "h100", "auto", 1600))
				.runNames());
	}
}
