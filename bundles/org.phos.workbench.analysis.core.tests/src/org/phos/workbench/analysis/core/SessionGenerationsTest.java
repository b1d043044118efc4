package org.phos.workbench.analysis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * The session's answers hold their trace, so its weak keys alone keep every generation of a live trace a view asked
 * about (the first half shows that); told of the generations ({@link AnalysisSession#generation}), it keeps the
 * newest {@value AnalysisSession#GENERATIONS_KEPT} and the older ones are collected; {@link AnalysisSession#endLineage}
 * lets the rest go.
 */
class SessionGenerationsTest {
	@TempDir
	Path dir;

	private Path file;

	private Trace load() throws Exception {
		return TraceReader.read(file, null).trace();
	}

	/** Asks what a view asks of a generation: a page of launches and one launch's accesses. */
	private static void ask(AnalysisSession session, Trace t) {
		session.launches(LaunchQuery.page(t, 0, 50), null);
		session.accesses(AccessQuery.of(t, t.launchCount() - 1), null);
	}

	private static void collect(List<WeakReference<Trace>> refs, int expectCleared) throws InterruptedException {
		for (int i = 0; i < 50 && refs.stream().filter(r -> r.get() == null).count() < expectCleared; i++) {
			System.gc();
			Thread.sleep(20);
		}
	}

	@Test
	void oldGenerationsAreCollectable() throws Exception {
		file = dir.resolve("g.phos");
		SyntheticTraceGenerator.generate(file, SyntheticTraceOptions.defaults(2_000).withLiveAllocations(20), null);
		AnalysisSession session = AnalysisSession.standard();
		// without generations: nothing is collected (an answer holds its trace)
		List<WeakReference<Trace>> plain = new ArrayList<>();
		for (int g = 0; g < 6; g++) {
			Trace t = load();
			ask(session, t);
			plain.add(new WeakReference<>(t));
		}
		collect(plain, 1);
		for (WeakReference<Trace> r : plain) {
			assertNotNull(r.get(), "held by the session's answers");
		}
		assertEquals(6, session.cachedTraces());
		for (WeakReference<Trace> r : plain) {
			session.forget(r.get());
		}
		// as generations of a live trace: the older ones go
		Object lineage = new Object();
		List<WeakReference<Trace>> refs = new ArrayList<>();
		for (int g = 0; g < 10; g++) {
			Trace t = load();
			session.generation(lineage, t, null, l -> l + 1000);
			ask(session, t);
			assertEquals(1000 + 7, session.launchNumber(t, 7));
			refs.add(new WeakReference<>(t));
		}
		collect(refs, 10 - AnalysisSession.GENERATIONS_KEPT);
		for (int g = 0; g < 10; g++) {
			if (g < 10 - AnalysisSession.GENERATIONS_KEPT) {
				assertNull(refs.get(g).get(), "generation " + g + " collected");
			} else {
				assertNotNull(refs.get(g).get(), "generation " + g + " kept");
			}
		}
		assertEquals(AnalysisSession.GENERATIONS_KEPT, session.cachedTraces());
		session.endLineage(lineage);
		collect(refs, 10);
		assertEquals(0, session.cachedTraces());
		for (WeakReference<Trace> r : refs) {
			assertNull(r.get(), "every generation collected after the live trace ended");
		}
	}
}
