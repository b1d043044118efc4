package org.phos.workbench.analysis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.ObservedAccess;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;

/** Kernel and buffer tables add up to what the trace and the validation report say. */
class KernelBufferQueriesTest {

	private static Trace load(String name) throws IOException {
		Path file = Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
		assumeTrue(Files.isRegularFile(file), file + " missing (set -Dphos.repo to the repository root)");
		return TraceReader.read(file, null).trace();
	}

	@ParameterizedTest
	@ValueSource(strings = { "cupy-ops.phos", "triton-ops.phos" })
	void kernelsAddUpToTheTraceAndTheReport(String sample) throws IOException {
		Trace trace = load(sample);
		AnalysisSession session = AnalysisSession.standard();
		List<String> engines = List.of("phos", "best");
		Table<KernelRow> kernels = session.kernels(new KernelQuery(trace, engines, null), null);
		assertEquals(trace.launchCount(), kernels.rows().stream().mapToLong(KernelRow::launches).sum());
		ValidationAnswer v = session.validate(new ValidationQuery(trace, engines, null), null);
		for (int e = 0; e < engines.size(); e++) {
			int engine = e;
			assertEquals(v.report().engines().get(e).total().unsafeLaunches(),
					kernels.rows().stream().mapToLong(r -> r.engines().get(engine).unsafeLaunches()).sum());
			assertEquals(v.unsafeLaunches(e).size(), v.report().engines().get(e).total().unsafeLaunches());
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "cupy-ops.phos", "triton-ops.phos" })
	void buffersListEveryAllocationAndTheLaunchesThatTouchedThem(String sample) throws IOException {
		Trace trace = load(sample);
		Table<BufferRow> buffers = AnalysisSession.standard().buffers(new BufferQuery(trace, null), null);
		assertEquals(trace.count(EventKind.ALLOC), buffers.rows().size());
		for (BufferRow r : buffers.rows()) {
			assertEquals(EventKind.ALLOC, trace.kind(r.allocatedAt()));
			assertTrue(r.freedAt() < 0 || trace.kind(r.freedAt()) == EventKind.FREE);
			assertTrue(r.launchesTouched() >= Math.max(r.launchesRead(), r.launchesWritten()));
		}
		// every observed launch attributed to an allocation is counted once for it
		Set<Long> observedPairs = new HashSet<>();
		for (ObservedAccess a : trace.observedAccesses()) {
			if (a.allocation() != 0) {
				observedPairs.add(a.launchEvent() * 31 + a.allocation());
			}
		}
		long touched = buffers.rows().stream().mapToLong(BufferRow::launchesTouched).sum();
		assertTrue(touched > 0 || observedPairs.isEmpty());
		assertTrue(touched <= observedPairs.size());
	}
}
