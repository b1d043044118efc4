package org.phos.workbench.internal.analysis.core.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.runtime.NullProgressMonitor;
import org.junit.jupiter.api.Test;

/**
 * A phase run by {@link Background} keeps the bar moving while its worker is silent, also after the worker said it
 * was done but has not returned yet (its last chart still drawing, or waiting for the trace's hash beside it): the
 * case that left the charts phase of a 1M-launch experiment without a report for up to a second.
 */
class BackgroundTest {

	/** Notes the time of each report that moves the bar (work above zero), as a progress bar sees them. */
	static final class Bar extends NullProgressMonitor {
		final List<Long> times = new ArrayList<>();
		double work;

		@Override
		public synchronized void internalWorked(double w) {
			if (w > 0) {
				work += w;
				times.add(System.nanoTime());
			}
		}

		@Override
		public void worked(int w) {
			internalWorked(w);
		}

		synchronized int reportsBetween(long from, long to) {
			return (int) times.stream().filter(t -> t >= from && t <= to).count();
		}
	}

	@Test
	void aWorkerThatSaidItIsDoneStillGetsProgressUntilItReturns() throws Exception {
		Bar bar = new Bar();
		// the phase through a slice, as the experiment's phases are: a slice forwards work above zero only
		ProgressSlice slice = new ProgressSlice(bar, 100);
		slice.beginTask("experiment", 1000);
		long[] silentFrom = new long[1];
		String result = Background.call("charts", slice, 1000, true, m -> {
			m.beginTask("charts", 4);
			m.worked(4); // all of its steps reported ...
			silentFrom[0] = System.nanoTime();
			Thread.sleep(600); // ... but still busy (waiting for a helper thread, say)
			return "done";
		});
		long returned = System.nanoTime();
		assertEquals("done", result);
		assertEquals(100, bar.work, 1e-9, "the whole phase is reported once it returned");
		// the poll looks every 40 ms and creeps after 60 ms without news: about 8 reports in 600 ms; before the
		// worker's share was capped, none came (the bar was already at the end of the phase)
		int reports = bar.reportsBetween(silentFrom[0] + 100_000_000L, returned - 1);
		assertTrue(reports >= 3, "reports while the worker was silent after saying it was done: " + reports);
	}

	@Test
	void theWorkersOwnProgressIsForwarded() throws Exception {
		Bar bar = new Bar();
		double[] seen = new double[1];
		Background.call("sets", bar, 1000, true, m -> {
			m.beginTask("sets", 10);
			for (int i = 0; i < 5; i++) {
				m.worked(1);
			}
			Thread.sleep(3 * Background.POLL_MS);
			synchronized (bar) {
				seen[0] = bar.work;
			}
			return null;
		});
		assertTrue(seen[0] >= 500 - 1e-9, "half the worker's steps are half the phase, seen " + seen[0]);
		assertEquals(1000, bar.work, 1e-9);
	}
}
