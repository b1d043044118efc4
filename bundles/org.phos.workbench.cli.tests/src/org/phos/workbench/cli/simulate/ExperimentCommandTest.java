package org.phos.workbench.cli.simulate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cli.CliRun;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * {@code experiment new/run/list/show/rename/delete} through the real parser: a saved experiment's outputs are
 * {@code simulate}'s, file by file, and reopen without simulating.
 */
class ExperimentCommandTest {


	@TempDir
	Path dir;

	/** SimulateCommandTest's trace with observed accesses: the placeholder misses a write through a table. */
	private Path trace() throws IOException {
		return SimulateCommandTest.trace(dir.resolve("observed.phos"), true);
	}

	private static List<String> names(Path folder) throws IOException {
		try (Stream<Path> s = Files.list(folder)) {
			return s.map(p -> p.getFileName().toString()).sorted().toList();
		}
	}

	/**
	 * A file's bytes with what differs from one run to the next made equal: the manifest's finishing time and the
	 * SVG definitions' prefix, which JFreeSVG draws from the clock.
	 */
	private static String normalised(Path file) throws IOException {
		String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
		String name = file.getFileName().toString();
		if (name.equals("manifest.json")) {
			return text.replaceAll("\"finished\": \"[^\"]*\"", "\"finished\": \"T\"");
		}
		if (name.endsWith(".svg")) {
			return text.replaceAll("_\\d+clip", "_Nclip");
		}
		return text;
	}

	@Test
	void aSavedExperimentHoldsSimulatesOutputsFileByFileAndShowsItsTable() throws IOException {
		String t = trace().toString();
		String[] options = { "--policy", "stop-the-world;soft-cow", "--at", "launch:1", "--sets",
				"observed,placeholder", "--machine", "a800-pcie4,d2h=20GB/s", "--width", "500" };
		List<String> simulate = new ArrayList<>(List.of("simulate", t, "--out", dir.resolve("sim").toString()));
		simulate.addAll(List.of(options));
		CliRun sim = CliRun.of(simulate.toArray(String[]::new));
		assertEquals(ExitCode.OK, sim.exit(), sim.toString());

		List<String> create = new ArrayList<>(List.of("experiment", "new", t, "cmp"));
		create.addAll(List.of(options));
		CliRun made = CliRun.of(create.toArray(String[]::new));
		assertEquals(ExitCode.OK, made.exit(), made.toString());
		Path folder = dir.resolve("observed.phos.experiments").resolve("cmp");
		assertTrue(made.out().contains("saved cmp: " + folder), made.out());
		Path outputs = folder.resolve("outputs");
		assertSameOutputsExceptManifestTime(dir.resolve("sim"), outputs);

		// the metrics table and the verdicts: simulate's, from the saved runs (no simulation)
		CliRun show = CliRun.of("experiment", "show", folder.toString());
		assertEquals(ExitCode.OK, show.exit(), show.toString());
		String table = sim.out().substring(sim.out().indexOf("RUN "), sim.out().indexOf("\nwrote "));
		assertTrue(show.out().contains(table), "show:\n" + show.out() + "\nsimulate:\n" + sim.out());
		assertTrue(show.out().contains("INCONSISTENT"), show.out());
		assertTrue(show.out().contains("--policy 'stop-the-world;soft-cow' --at launch:1"), show.out());

		CliRun list = CliRun.of("experiment", "list", t);
		assertEquals(ExitCode.OK, list.exit(), list.toString());
		assertTrue(list.out().lines().anyMatch(l -> l.startsWith("cmp ") && l.contains(" ready ")), list.out());

		// a re-run writes the same outputs again
		CliRun rerun = CliRun.of("experiment", "run", folder.toString());
		assertEquals(ExitCode.OK, rerun.exit(), rerun.toString());
		assertTrue(rerun.out().contains("simulating " + t), rerun.out());
		assertSameOutputsExceptManifestTime(dir.resolve("sim"), outputs);
		assertEquals(List.of("experiment.json", "outputs"), names(folder));
	}

	private static void assertSameOutputsExceptManifestTime(Path simulated, Path outputs) throws IOException {
		List<String> expected = new ArrayList<>(names(simulated));
		expected.add("runs.phosruns");
		expected.sort(null);
		assertEquals(expected, names(outputs));
		for (String f : names(simulated)) {
			if (f.endsWith(".png") || f.endsWith(".csv") || (f.endsWith(".json") && !f.equals("manifest.json"))) {
				assertArrayEquals(Files.readAllBytes(simulated.resolve(f)), Files.readAllBytes(outputs.resolve(f)),
						f + " differs");
			} else {
				assertEquals(normalised(simulated.resolve(f)), normalised(outputs.resolve(f)), f + " differs");
			}
		}
	}

	@Test
	void aChangedTraceIsSaidAndTheExperimentNotShownUntilRerun() throws IOException {
		Path t = trace();
		CliRun made = CliRun.of("experiment", "new", t.toString(), "one", "--policy", "soft-cow", "--at",
				"launch:1");
		assertEquals(ExitCode.OK, made.exit(), made.toString());
		Path folder = dir.resolve("observed.phos.experiments").resolve("one");
		Files.write(t, new byte[] { 0 }, StandardOpenOption.APPEND);
		CliRun list = CliRun.of("experiment", "list", t.toString());
		assertTrue(list.out().contains("trace-changed") && list.out().contains("re-run it"), list.out());
		CliRun show = CliRun.of("experiment", "show", folder.toString());
		assertEquals(ExitCode.FAILURE, show.exit(), show.toString());
		assertTrue(show.err().contains("changed since one ran"), show.err());
	}

	@Test
	void badCommandLinesAndNamesAreRefusedWithTheReason() throws IOException {
		String t = trace().toString();
		CliRun noPolicy = CliRun.of("experiment", "new", t, "x");
		assertEquals(ExitCode.USAGE, noPolicy.exit());
		assertTrue(noPolicy.err().contains("needs --policy"), noPolicy.err());
		CliRun badPolicy = CliRun.of("experiment", "new", t, "x", "--policy", "soft-magic");
		assertEquals(ExitCode.USAGE, badPolicy.exit());
		assertTrue(badPolicy.err().contains("unknown policy 'soft-magic'"), badPolicy.err());
		CliRun slash = CliRun.of("experiment", "new", t, "a/b", "--policy", "soft-cow");
		assertEquals(ExitCode.USAGE, slash.exit());
		assertTrue(slash.err().contains("path separator"), slash.err());
		CliRun noName = CliRun.of("experiment", "new", t);
		assertEquals(ExitCode.USAGE, noName.exit());
		assertTrue(noName.err().contains("needs a NAME"), noName.err());
		CliRun action = CliRun.of("experiment", "launch", t);
		assertEquals(ExitCode.USAGE, action.exit());
		assertTrue(action.err().contains("unknown action 'launch'"), action.err());
		CliRun optionElsewhere = CliRun.of("experiment", "list", t, "--policy", "soft-cow");
		assertEquals(ExitCode.USAGE, optionElsewhere.exit());
		assertTrue(optionElsewhere.err().contains("belongs to experiment new"), optionElsewhere.err());
		CliRun notOne = CliRun.of("experiment", "show", dir.toString());
		assertEquals(ExitCode.FAILURE, notOne.exit());
		assertTrue(notOne.err().contains("not a saved experiment"), notOne.err());
		assertEquals(ExitCode.OK, CliRun.of("experiment", "new", t, "x", "--policy", "soft-cow").exit());
		CliRun again = CliRun.of("experiment", "new", t, "x", "--policy", "soft-cow");
		assertEquals(ExitCode.USAGE, again.exit());
		assertTrue(again.err().contains("already exists"), again.err());
		CliRun none = CliRun.of("experiment", "list", dir.resolve("other.phos").toString());
		assertEquals(ExitCode.OK, none.exit());
		assertTrue(none.out().contains("no saved experiments"), none.out());
	}

	@Test
	void renameAndDelete() throws IOException {
		String t = trace().toString();
		assertEquals(ExitCode.OK, CliRun.of("experiment", "new", t, "a", "--policy", "soft-cow").exit());
		Path root = dir.resolve("observed.phos.experiments");
		CliRun renamed = CliRun.of("experiment", "rename", root.resolve("a").toString(), "b");
		assertEquals(ExitCode.OK, renamed.exit(), renamed.toString());
		assertEquals(List.of("b"), names(root));
		CliRun deleted = CliRun.of("experiment", "delete", root.resolve("b").toString());
		assertEquals(ExitCode.OK, deleted.exit(), deleted.toString());
		assertEquals(List.of(), names(root));
		CliRun gone = CliRun.of("experiment", "delete", root.resolve("b").toString());
		assertEquals(ExitCode.FAILURE, gone.exit());
		assertTrue(gone.err().contains("no such experiment folder"), gone.err());
		assertFalse(Files.exists(root.resolve("b")));
	}
}
