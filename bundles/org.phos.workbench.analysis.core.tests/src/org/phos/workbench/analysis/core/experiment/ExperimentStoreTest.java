package org.phos.workbench.analysis.core.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.Trace;

/**
 * Saved experiments beside the trace: they reopen from their files equal to the run in memory, re-runs replace
 * outputs only when complete, a changed trace is said, names are checked, and damage is named, never deleted.
 */
class ExperimentStoreTest {

	@TempDir
	Path dir;

	/** Two policies, two set sources: four runs, with observed accesses for the consistency check. */
	private static final ExperimentConfig COMPARISON = new ExperimentConfig("stop-the-world;soft-cow", "launch:10",
			"h100", "observed,placeholder", 600);

	private static Map<String, byte[]> files(Path folder) throws IOException {
		Map<String, byte[]> out = new TreeMap<>();
		try (Stream<Path> s = Files.list(folder)) {
			for (Path p : s.toList()) {
				out.put(p.getFileName().toString(), Files.readAllBytes(p));
			}
		}
		return out;
	}

	private static List<String> names(Path folder) throws IOException {
		try (Stream<Path> s = Files.list(folder)) {
			return s.map(p -> p.getFileName().toString()).sorted().toList();
		}
	}

	@Test
	void aSavedExperimentReopensFromItsFilesEqualToTheRunInMemory() throws Exception {
		Path file = ExperimentTraces.sample("cuda-suite.phos", dir);
		Trace trace = ExperimentTraces.load(file);
		ExperimentStore store = ExperimentStore.of(file);
		assertEquals(dir.resolve("cuda-suite.phos.experiments"), store.root());
		assertEquals(List.of(), store.list());
		ExperimentResult made = store.create("cmp", COMPARISON, trace, ExperimentListener.NONE, null);
		assertEquals(4, made.runs().size());

		Path folder = store.folder("cmp");
		assertEquals(List.of("experiment.json", "outputs"), names(folder));
		assertTrue(names(folder.resolve("outputs")).containsAll(List.of("manifest.json", "metrics.csv",
				"runs.phosruns", "timeline-soft-cow-observed.json", "intervals-stop-the-world-placeholder.csv")));
		List<SavedExperiment> listed = store.list();
		assertEquals(1, listed.size());
		SavedExperiment saved = listed.get(0);
		assertEquals(SavedExperiment.State.READY, saved.state(), saved.problem());
		assertEquals(COMPARISON, saved.config());
		assertNotNull(saved.trace());
		assertEquals(TraceIdentity.sha256(file), saved.trace().sha256());

		// the in-memory run of the same configuration, not through the store
		ExperimentResult memory = new ExperimentRunner(COMPARISON, file, trace).run("cmp", null);
		ExperimentResult opened = store.open("cmp");
		assertEquals(COMPARISON, opened.config());
		assertEquals(memory.runs().stream().map(CrRun::name).toList(), opened.runs().stream().map(CrRun::name)
				.toList());
		for (int i = 0; i < memory.runs().size(); i++) {
			CrRun m = memory.runs().get(i);
			CrRun o = opened.runs().get(i);
			assertEquals(m.metrics(), o.metrics(), m.name());
			assertEquals(made.runs().get(i).metrics(), o.metrics(), m.name());
			ExperimentTraces.assertSameTimeline(m.timeline(), o.timeline(), m.name());
			assertTrue(m.timeline().intervalCount() > 0, "a timeline with intervals: " + m.name());
		}
	}

	@Test
	void violationsSurviveTheRoundTrip() throws Exception {
		Path file = ExperimentTraces.indirectWrite(dir);
		ExperimentStore store = ExperimentStore.of(file);
		ExperimentConfig config = new ExperimentConfig("soft-cow;soft-recopy", "launch:1", "h100",
				"placeholder,observed", 400);
		ExperimentResult made = store.create("v", config, ExperimentTraces.load(file), ExperimentListener.NONE,
				null);
		ExperimentResult opened = store.open("v");
		assertEquals(4, opened.runs().size());
		for (int i = 0; i < made.runs().size(); i++) {
			assertEquals(made.runs().get(i).metrics(), opened.runs().get(i).metrics());
			ExperimentTraces.assertSameTimeline(made.runs().get(i).timeline(), opened.runs().get(i).timeline(),
					made.runs().get(i).name());
		}
		CrRun missed = opened.run("soft-cow [placeholder]");
		assertNotNull(missed);
		assertEquals(1, missed.metrics().consistency().violations().size(),
				"the placeholder misses the write through the pointer table");
		assertTrue(opened.run("soft-cow [observed]").metrics().consistency().consistent());
	}

	@Test
	void aChangedOrMissingTraceIsReportedAndNotOpenedUnlessAsked() throws Exception {
		Path file = ExperimentTraces.sample("cuda-suite.phos", dir);
		ExperimentStore store = ExperimentStore.of(file);
		store.create("one", COMPARISON, ExperimentTraces.load(file), ExperimentListener.NONE, null);
		Files.write(file, new byte[] { 0 }, StandardOpenOption.APPEND);
		SavedExperiment changed = store.get("one");
		assertEquals(SavedExperiment.State.TRACE_CHANGED, changed.state());
		assertTrue(changed.problem().contains("changed since one ran") && changed.problem().contains("SHA-256"),
				changed.problem());
		ExperimentException refused = assertThrows(ExperimentException.class, () -> store.open("one"));
		assertTrue(refused.getMessage().contains("re-run it"), refused.getMessage());
		assertEquals(4, store.open("one", true).runs().size(), "opened knowingly");
		Files.delete(file);
		assertEquals(SavedExperiment.State.TRACE_MISSING, store.get("one").state());
	}

	@Test
	void namesAreCheckedWithClearMessages() throws Exception {
		Path file = ExperimentTraces.sample("cuda-suite.phos", dir);
		ExperimentStore store = ExperimentStore.of(file);
		assertTrue(ExperimentStore.nameProblem("").contains("empty"));
		assertTrue(ExperimentStore.nameProblem("a/b").contains("path separator"));
		assertTrue(ExperimentStore.nameProblem("a\\b").contains("path separator"));
		assertTrue(ExperimentStore.nameProblem("..").contains("dot"));
		assertTrue(ExperimentStore.nameProblem(".hidden").contains("dot"));
		assertTrue(ExperimentStore.nameProblem(" budget").contains("space"));
		assertTrue(ExperimentStore.nameProblem("x".repeat(101)).contains("longer than 100"));
		assertTrue(ExperimentStore.nameProblem("a\nb").contains("control character"));
		assertNull(ExperimentStore.nameProblem("budget 1 GiB, first-use"));
		store.create("taken", COMPARISON, ExperimentTraces.load(file), ExperimentListener.NONE, null);
		ExperimentProblem taken = store.checkNewName("taken");
		assertNotNull(taken);
		assertEquals(ExperimentOption.NAME, taken.option());
		assertTrue(taken.message().contains("already exists"), taken.message());
		ExperimentException e = assertThrows(ExperimentException.class, () -> store.create("taken", COMPARISON,
				ExperimentTraces.load(file), ExperimentListener.NONE, null));
		assertEquals(ExperimentOption.NAME, e.problem().option());
		ExperimentException bad = assertThrows(ExperimentException.class, () -> store.create("../escape",
				COMPARISON, ExperimentTraces.load(file), ExperimentListener.NONE, null));
		assertTrue(bad.getMessage().contains("path separator"), bad.getMessage());
		assertFalse(Files.exists(dir.resolve("escape")));
	}

	@Test
	void renameAndDelete() throws Exception {
		Path file = ExperimentTraces.sample("cuda-suite.phos", dir);
		ExperimentStore store = ExperimentStore.of(file);
		Trace trace = ExperimentTraces.load(file);
		store.create("a", COMPARISON, trace, ExperimentListener.NONE, null);
		store.create("b", COMPARISON, trace, ExperimentListener.NONE, null);
		ExperimentException taken = assertThrows(ExperimentException.class, () -> store.rename("a", "b"));
		assertTrue(taken.getMessage().contains("already exists"), taken.getMessage());
		SavedExperiment renamed = store.rename("a", "c");
		assertEquals("c", renamed.name());
		assertEquals(SavedExperiment.State.READY, renamed.state(), renamed.problem());
		assertEquals(List.of("b", "c"), store.list().stream().map(SavedExperiment::name).toList());
		assertEquals(4, store.open("c").runs().size());
		store.delete("b");
		assertEquals(List.of("c"), store.list().stream().map(SavedExperiment::name).toList());
		assertEquals(List.of("c"), names(store.root()), "nothing left aside");
		ExperimentException missing = assertThrows(ExperimentException.class, () -> store.delete("b"));
		assertTrue(missing.getMessage().contains("no experiment named 'b'"), missing.getMessage());
	}

	@Test
	void aFailedOrCancelledRerunLeavesTheOldOutputsAndARerunReplacesThem() throws Exception {
		Path file = ExperimentTraces.sample("cuda-suite.phos", dir);
		ExperimentStore store = ExperimentStore.of(file);
		Trace trace = ExperimentTraces.load(file);
		store.create("keep", COMPARISON, trace, ExperimentListener.NONE, null);
		Path outputs = store.folder("keep").resolve("outputs");
		Map<String, byte[]> before = files(outputs);

		NullProgressMonitor cancelled = new NullProgressMonitor();
		cancelled.setCanceled(true);
		assertThrows(OperationCanceledException.class,
				() -> store.rerun("keep", trace, ExperimentListener.NONE, cancelled));
		assertFiles(before, files(outputs));
		assertEquals(List.of("experiment.json", "outputs"), names(store.folder("keep")), "no temporary folder left");

		// a trace that no longer suits the configuration (launch:10 past its end): refused, outputs kept
		Path small = ExperimentTraces.sample("ptx-driver.phos", dir);
		Trace few = ExperimentTraces.load(small);
		if (few.launchCount() <= 10) {
			ExperimentException e = assertThrows(ExperimentException.class,
					() -> store.rerun("keep", few, ExperimentListener.NONE, null));
			assertTrue(e.getMessage().contains("launch:10"), e.getMessage());
			assertFiles(before, files(outputs));
		}

		// a cancel in the middle of the simulation, from the monitor itself
		NullProgressMonitor midway = new NullProgressMonitor() {
			@Override
			public void subTask(String name) {
				if (name.startsWith("replaying with soft-cow")) {
					setCanceled(true);
				}
			}
		};
		assertThrows(OperationCanceledException.class,
				() -> store.rerun("keep", trace, ExperimentListener.NONE, midway));
		assertFiles(before, files(outputs));
		assertEquals(List.of("experiment.json", "outputs"), names(store.folder("keep")));

		store.rerun("keep", trace, ExperimentListener.NONE, null);
		Map<String, byte[]> after = files(outputs);
		assertEquals(before.keySet(), after.keySet());
		assertFalse(new String(before.get("manifest.json")).equals(new String(after.get("manifest.json"))),
				"a new manifest (finished at another time)");
		assertArrayEquals(before.get("metrics.csv"), after.get("metrics.csv"), "the same simulation");
		assertEquals(SavedExperiment.State.READY, store.get("keep").state());
	}

	private static void assertFiles(Map<String, byte[]> expected, Map<String, byte[]> actual) {
		assertEquals(expected.keySet(), actual.keySet());
		for (String name : expected.keySet()) {
			assertArrayEquals(expected.get(name), actual.get(name), name + " changed");
		}
	}

	@Test
	void damagedFilesAreNamedAndNothingIsDeleted() throws Exception {
		Path file = ExperimentTraces.sample("cuda-suite.phos", dir);
		ExperimentStore store = ExperimentStore.of(file);
		Trace trace = ExperimentTraces.load(file);
		store.create("json", COMPARISON, trace, ExperimentListener.NONE, null);
		store.create("runs", COMPARISON, trace, ExperimentListener.NONE, null);
		store.create("manifest", COMPARISON, trace, ExperimentListener.NONE, null);
		Path config = store.folder("json").resolve("experiment.json");
		Files.writeString(config, "{\"format\": \"phos-experiment/1\", \"config\": {\"policy\": ");
		Path runs = store.folder("runs").resolve("outputs").resolve("runs.phosruns");
		byte[] whole = Files.readAllBytes(runs);
		Files.write(runs, java.util.Arrays.copyOf(whole, whole.length / 2));
		Path manifest = store.folder("manifest").resolve("outputs").resolve("manifest.json");
		Files.writeString(manifest, Files.readString(manifest).replace("\"complete\": true", "\"complete\": false"));

		Map<String, SavedExperiment> byName = new TreeMap<>();
		store.list().forEach(e -> byName.put(e.name(), e));
		assertEquals(3, byName.size(), "damaged experiments stay in the list");
		SavedExperiment json = byName.get("json");
		assertEquals(SavedExperiment.State.DAMAGED, json.state());
		assertTrue(json.problem().contains(config.toString()) && json.problem().contains("damaged JSON"),
				json.problem());
		SavedExperiment m = byName.get("manifest");
		assertEquals(SavedExperiment.State.DAMAGED, m.state());
		assertTrue(m.problem().contains(manifest.toString()) && m.problem().contains("incomplete"), m.problem());
		assertEquals(SavedExperiment.State.READY, byName.get("runs").state(), "the runs file is read on open");
		ExperimentException truncated = assertThrows(ExperimentException.class, () -> store.open("runs"));
		assertTrue(truncated.getMessage().contains(runs.toString())
				&& truncated.getMessage().contains("truncated"), truncated.getMessage());
		ExperimentException cannot = assertThrows(ExperimentException.class, () -> store.open("json"));
		assertTrue(cannot.getMessage().contains("experiment.json"), cannot.getMessage());
		assertTrue(Files.exists(config) && Files.exists(runs) && Files.exists(manifest), "nothing deleted");

		// a re-run repairs what a damaged manifest or runs file broke
		store.rerun("runs", trace, ExperimentListener.NONE, null);
		assertEquals(4, store.open("runs").runs().size());
	}

	@Test
	void aRerunKilledBetweenItsTwoMovesIsRepaired() throws Exception {
		Path file = ExperimentTraces.sample("cuda-suite.phos", dir);
		ExperimentStore store = ExperimentStore.of(file);
		store.create("killed", COMPARISON, ExperimentTraces.load(file), ExperimentListener.NONE, null);
		Path folder = store.folder("killed");
		// the state a process killed after moving the old outputs aside leaves (its pid no longer runs)
		Files.move(folder.resolve("outputs"), folder.resolve(".old-" + Long.MAX_VALUE + "-x1"));
		Files.createDirectory(folder.resolve(".next-" + Long.MAX_VALUE + "-x2"));
		Files.createDirectory(store.root().resolve(".new-" + Long.MAX_VALUE + "-x3"));
		assertEquals(SavedExperiment.State.READY, store.list().get(0).state());
		assertEquals(List.of("experiment.json", "outputs"), names(folder));
		assertEquals(List.of("killed"), names(store.root()));
	}
}
