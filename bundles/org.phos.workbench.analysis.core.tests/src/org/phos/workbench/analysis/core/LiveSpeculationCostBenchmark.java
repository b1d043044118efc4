package org.phos.workbench.analysis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * What live speculation costs per launch, per engine set (docs/benchmarks.md, block i14-livebest): a synthetic trace
 * with pointer tables copied into device memory (so {@code best}'s {@code +indirect} follows them) and 2,000 live
 * allocations is fed to a {@link LiveSpeculation} as one generation (each event once, as a live attach feeds them, the
 * answers packed and kept as the live views keep them), 3 rounds per set, median. Run with {@code -Dphos.slow=true
 * -Dtest=LiveSpeculationCostBenchmark}; {@code -Dphos.livecost.launches=N} (default 100,000: every answer is kept, as a window of 100,000 launches keeps them).
 */
@Tag("slow")
class LiveSpeculationCostBenchmark {
	@TempDir
	Path dir;

	@Test
	void microsecondsPerLaunchPerEngineSet() throws Exception {
		int launches = Integer.getInteger("phos.livecost.launches", 100_000);
		Path file = dir.resolve("synthetic.phos");
		SyntheticTraceGenerator.generate(file, SyntheticTraceOptions.defaults(launches), null);
		Trace trace = TraceReader.read(file, null).trace();
		EngineCatalog catalog = EngineCatalog.standard();
		List<String> registered = LiveSpeculation.registered(catalog);
		List<String> withoutBest = new ArrayList<>(registered);
		withoutBest.remove(EngineCatalog.BEST);
		List<List<String>> sets = new ArrayList<>();
		for (String e : registered) {
			sets.add(List.of(e));
		}
		sets.add(List.of(LiveSpeculation.BEST_DIRECT));
		sets.add(List.of("ptx-flow/arg-scan+indirect"));
		sets.add(withoutBest);
		sets.add(registered);
		System.out.printf(Locale.ROOT, "LIVE COST: %,d launches, %,d events (synthetic defaults)%n",
				trace.launchCount(), trace.eventCount());
		for (List<String> set : sets) {
			double[] us = new double[3];
			LiveSpeculation last = null;
			for (int round = 0; round < us.length; round++) {
				LiveSpeculation live = new LiveSpeculation(catalog, set);
				LiveSpeculation.Update u = live.update(trace, List.of(), l -> l, null);
				assertEquals(trace.launchCount(), u.speculated());
				us[round] = u.nanos() / 1e3 / u.speculated();
				last = live;
			}
			double[] sorted = us.clone();
			Arrays.sort(sorted);
			System.out.printf(Locale.ROOT, "  %-45s median %.2f µs per launch (rounds %.2f, %.2f, %.2f); state %s%n",
					String.join(",", set), sorted[1], us[0], us[1], us[2], last.state());
		}
	}
}
