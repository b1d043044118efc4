package org.phos.workbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.ObservationCoverage;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.TraceWriter;

/**
 * i15-cost: the commands say how GPU times were taken and which launches an observer observed: {@code info} and
 * {@code validate} on the Triton sample (sampled timing policy in its header, sanitizer coverage merged), and
 * {@code merge-observed} carrying a side file's coverage into the merged trace and refusing one from another run.
 */
class SamplingCoverageCommandsTest {

	@TempDir
	Path dir;

	private static Path triton() {
		Path p = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces/triton-ops.phos");
		return Files.exists(p) ? p : Path.of("../../sample-traces/triton-ops.phos");
	}

	@Test
	void infoSaysTheTimingPolicyAndTheCoverage() {
		CliRun info = CliRun.of("info", triton().toString());
		assertEquals(ExitCode.OK, info.exit(), info.toString());
		assertTrue(info.out().contains("55 of 55 GPU operations timed; sampled: each launch shape's first 3 launches, then 1 in N"),
				info.out());
		assertTrue(info.out().contains("kernel GPU times below are estimated per launch shape"), info.out());
		assertTrue(info.out().contains("coverage (sanitizer): 49 of 49 launches observed (every launch); the other 0 were not observed"),
				info.out());
	}

	@Test
	void validateSaysHowManyLaunchesWereNotObservedAndPtxFlowCoversTriton() throws IOException {
		Path json = dir.resolve("v.json");
		CliRun v = CliRun.of("validate", triton().toString(), "--engine", "ptx-flow,best", "--json", json.toString());
		assertEquals(ExitCode.OK, v.exit(), v.toString());
		assertTrue(v.out().contains("coverage (sanitizer): 49 of 49 launches observed (every launch); 0 not observed, not judged"),
				v.out());
		// Triton's four kernels (12 launches) now have PTX: ptx-flow leaves only the 37 PyTorch/cuBLAS launches uncovered
		assertTrue(v.out().contains("4 functions analysed from PTX"), v.out());
		assertTrue(v.out().lines().anyMatch(l -> l.startsWith("ptx-flow ") && l.trim().split("\\s+")[6].equals("37")), v.out());
		String js = Files.readString(json);
		assertTrue(js.contains("\"not_observed_launches\": 0") && js.contains("\"launches_not_covered\": 37"), js);
	}

	@Test
	void simulateSaysWhereTheDurationsOfASampledTraceComeFrom() {
		CliRun sim = CliRun.of("simulate", triton().toString(), "--policy", "soft-cow", "--at", "launch:20", "--out",
				dir.resolve("sim").toString());
		assertEquals(ExitCode.OK, sim.exit(), sim.toString());
		assertTrue(sim.err().contains("note: kernel durations: measured: all 49 launches timed (recorded with sampling"), sim.err());
	}

	private Path sideFileWithCoverage(long[] observed) throws IOException {
		Path side = dir.resolve("run.phos.observed.phos");
		try (TraceWriter w = TraceWriter.create(side, TraceHeader.builder("phos-sanitizer", "1").build())) {
			w.observed(new ObservedAccess(4, TestTraces.BASE, List.of(new AddressRange(TestTraces.BASE, TestTraces.BASE + 64)),
					List.of(), 16, 0, "sanitizer"));
			w.coverage(new ObservationCoverage("sanitizer", observed, "each launch shape (function+grid+block) 2 times", 6));
		}
		return side;
	}

	@Test
	void mergeObservedCarriesTheCoverageAndValidateCountsTheUnobserved() throws IOException {
		Path trace = dir.resolve("run.phos");
		TestTraces.writeSmall(trace);
		Path out = dir.resolve("merged.phos");
		CliRun run = CliRun.of("merge-observed", trace.toString(), sideFileWithCoverage(new long[] { 4 }).toString(), "--out",
				out.toString());
		assertEquals(ExitCode.OK, run.exit(), run.toString());
		Trace merged = TraceReader.read(out, null).trace();
		assertEquals(List.of(new ObservationCoverage("sanitizer", new long[] { 4 }, "each launch shape (function+grid+block) 2 times", 6)),
				merged.observationCoverage());
		CliRun v = CliRun.of("validate", out.toString(), "--engine", "phos");
		assertEquals(ExitCode.OK, v.exit(), v.toString());
		assertTrue(v.out().contains("coverage (sanitizer): 1 of 6 launches observed (each launch shape (function+grid+block) 2 times); "
				+ "5 not observed, not judged"), v.out());
	}

	@Test
	void coverageNamingANonLaunchIsRefused() throws IOException {
		Path trace = dir.resolve("run.phos");
		TestTraces.writeSmall(trace);
		Path out = dir.resolve("merged.phos");
		CliRun run = CliRun.of("merge-observed", trace.toString(), sideFileWithCoverage(new long[] { 3, 4 }).toString(),
				"--out", out.toString());
		assertEquals(ExitCode.FAILURE, run.exit(), run.toString());
		assertTrue(run.err().contains("its coverage names event 3, which is not a launch"), run.err());
		assertTrue(Files.notExists(out));
	}
}
