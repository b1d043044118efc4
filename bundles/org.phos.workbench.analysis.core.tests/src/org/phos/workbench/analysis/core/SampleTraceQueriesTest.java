package org.phos.workbench.analysis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.speculation.core.SpeculationEngine;
import org.phos.workbench.speculation.core.validate.AllocationVerdict;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/**
 * The queries on the committed sample traces agree with {@code validate} (SpeculationValidator walking the whole
 * trace): every allocation verdict it gives for a launch is the verdict the access query gives for that launch and
 * allocation, and the launch query's verdict is the worst of them.
 */
class SampleTraceQueriesTest {

	private static final List<String> ENGINES = List.of("phos", "arg-scan", "best");

	private static Trace load(String name) throws IOException {
		Path file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
		assumeTrue(Files.isRegularFile(file), file + " missing (set -Dphos.repo to the repository root)");
		return TraceReader.read(file, null).trace();
	}

	@ParameterizedTest
	@ValueSource(strings = { "cupy-ops.phos", "triton-ops.phos", "jcuda-jacobi.phos" })
	void accessAndLaunchVerdictsAgreeWithValidate(String sample) throws IOException {
		Trace trace = load(sample);
		EngineCatalog catalog = EngineCatalog.standard();
		List<SpeculationEngine> engines = ENGINES.stream().map(e -> catalog.create(e, trace)).toList();
		Map<String, List<AllocationVerdict>> byEngine = new HashMap<>();
		ValidationReport report = SpeculationValidator.validate(trace, engines, null, null,
				(engine, v) -> byEngine.computeIfAbsent(engine, k -> new ArrayList<>()).add(v));
		assumeTrue(report.observedLaunches() > 0, sample + " has no observed truth");
		AnalysisSession session = new AnalysisSession(catalog);
		// per launch event and base, the verdict validate gave, per engine
		Map<Integer, Map<Long, String>>[] expected = new Map[ENGINES.size()];
		for (int e = 0; e < ENGINES.size(); e++) {
			expected[e] = new HashMap<>();
			for (AllocationVerdict v : byEngine.getOrDefault(engines.get(e).name(), List.of())) {
				expected[e].computeIfAbsent(v.launchEvent(), k -> new HashMap<>()).put(v.allocationBase(),
						v.verdict().label());
			}
		}
		int compared = 0;
		for (int launchEvent : expected[0].keySet()) {
			int launch = trace.launchIndex(launchEvent);
			AccessAnswer answer = session.accesses(new AccessQuery(trace, launch, ENGINES, List.of()), null);
			for (int e = 0; e < ENGINES.size(); e++) {
				Map<Long, String> want = expected[e].get(launchEvent);
				Map<Long, String> got = new HashMap<>();
				for (AccessRow row : answer.table().rows()) {
					AccessRow.EngineSide side = row.engines().get(e);
					if (!side.read().isEmpty() || !side.written().isEmpty()
							|| row.tools().stream().anyMatch(t -> !t.read().isEmpty() || !t.written().isEmpty())) {
						got.put(row.base(), side.verdict().label());
					}
				}
				assertEquals(want, got, sample + " launch " + launch + " engine " + ENGINES.get(e));
				compared++;
			}
		}
		assertTrue(compared > 0);
		// the launch table's verdict is the worst allocation verdict
		for (int e = 0; e < ENGINES.size(); e++) {
			Table<LaunchRow> all = session.launches(new LaunchQuery(trace, LaunchQuery.Filter.ALL,
					LaunchQuery.Sort.LAUNCH_ORDER, ENGINES.get(e), null, 0, Integer.MAX_VALUE), null);
			assertEquals(trace.launchCount(), all.total());
			for (LaunchRow row : all.rows()) {
				Map<Long, String> v = expected[e].get(row.event());
				boolean excluded = !report.reliability().reliable(row.event());
				String want = excluded ? "unreliable"
						: v == null ? "not-observed"
								: v.values().stream().map(s -> LaunchVerdict.valueOf(s.toUpperCase().replace('-', '_')))
										.min(Enum::compareTo).orElseThrow().label();
				if (v != null && v.isEmpty()) {
					want = "exact";
				}
				assertEquals(want, row.verdict().label(), sample + " launch " + row.launch() + " " + ENGINES.get(e));
			}
			long unsafe = all.rows().stream().filter(r -> r.verdict().unsafe()).count();
			assertEquals(report.engines().get(e).total().unsafeLaunches(), unsafe);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "cupy-ops.phos", "pytorch-train.phos" })
	void launchPagesFiltersAndSortsAreConsistent(String sample) throws IOException {
		Trace trace = load(sample);
		AnalysisSession session = AnalysisSession.standard();
		LaunchQuery bySlowest = new LaunchQuery(trace, LaunchQuery.Filter.ALL, LaunchQuery.Sort.parse("-gpu_ns"), null,
				null, 0, Integer.MAX_VALUE);
		List<LaunchRow> all = session.launches(bySlowest, null).rows();
		assertEquals(trace.launchCount(), all.size());
		for (int i = 1; i < all.size(); i++) {
			assertTrue(all.get(i - 1).gpuNs() >= all.get(i).gpuNs());
			if (all.get(i - 1).gpuNs() == all.get(i).gpuNs()) {
				assertTrue(all.get(i - 1).launch() < all.get(i).launch(), "ties keep launch order");
			}
		}
		List<LaunchRow> paged = new ArrayList<>();
		for (int off = 0; off < all.size(); off += 7) {
			Table<LaunchRow> page = session.launches(bySlowest.withPage(off, 7), null);
			assertEquals(all.size(), page.total());
			paged.addAll(page.rows());
		}
		assertEquals(all.stream().map(LaunchRow::launch).toList(), paged.stream().map(LaunchRow::launch).toList());
		String kernel = all.get(0).kernel();
		String regex = java.util.regex.Pattern.quote(kernel);
		List<LaunchRow> one = session.launches(new LaunchQuery(trace,
				new LaunchQuery.Filter(regex, null, Long.MIN_VALUE, Long.MAX_VALUE, null), LaunchQuery.Sort.LAUNCH_ORDER,
				null, null, 0, Integer.MAX_VALUE), null).rows();
		assertFalse(one.isEmpty());
		assertTrue(one.stream().allMatch(r -> r.kernel().contains(kernel)));
		assertEquals(all.stream().filter(r -> r.kernel().contains(kernel)).count(), one.size());
		long mid = all.stream().mapToLong(LaunchRow::hostNs).sorted().skip(all.size() / 2).findFirst().orElseThrow();
		List<LaunchRow> late = session.launches(new LaunchQuery(trace,
				new LaunchQuery.Filter(null, null, mid, Long.MAX_VALUE, null), LaunchQuery.Sort.LAUNCH_ORDER, null, null,
				0, Integer.MAX_VALUE), null).rows();
		assertEquals(all.stream().filter(r -> r.hostNs() >= mid).count(), late.size());
	}
}
