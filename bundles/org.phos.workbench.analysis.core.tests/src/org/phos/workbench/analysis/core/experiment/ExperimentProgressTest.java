package org.phos.workbench.analysis.core.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.trace.core.Trace;

/**
 * A long experiment reports progress all along (the simulation every 1024 operations, the slow phases from a
 * worker) and returns promptly after a cancel, leaving nothing saved. The figures on a 1M-launch trace are
 * {@code workbench bench experiment}'s (docs/benchmarks.md); here a 100k-launch trace, with bounds loose enough for
 * a busy machine.
 */
class ExperimentProgressTest {

	@TempDir
	Path dir;

	/** Notes the time of every report and the work done. */
	static final class Recording extends NullProgressMonitor {
		final List<Long> times = new ArrayList<>();
		double work;
		int total = -1;

		@Override
		public synchronized void beginTask(String name, int totalWork) {
			if (total < 0) {
				total = totalWork;
			}
			times.add(System.nanoTime());
		}

		@Override
		public synchronized void internalWorked(double w) {
			work += w;
			times.add(System.nanoTime());
		}

		@Override
		public void worked(int w) {
			internalWorked(w);
		}

		synchronized double workDone() {
			return work;
		}

		@Override
		public synchronized void subTask(String name) {
			times.add(System.nanoTime());
		}
	}

	@Test
	void progressAllAlongAndAPromptCancel() throws Exception {
		Path file = ExperimentTraces.generated(100_000, dir);
		Trace trace = ExperimentTraces.load(file);
		ExperimentConfig config = new ExperimentConfig("soft-cow", "launch:50000", "h100",
				"placeholder,engine:phos", 800);
		ExperimentStore store = ExperimentStore.of(file);

		Recording recording = new Recording();
		long start = System.nanoTime();
		store.create("whole", config, trace, ExperimentListener.NONE, recording);
		long end = System.nanoTime();
		assertEquals(100, recording.total);
		assertEquals(100, recording.work, 0.5, "all the work reported, once");
		long gap = 0;
		long last = start;
		for (long t : recording.times) {
			gap = Math.max(gap, t - last);
			last = t;
		}
		gap = Math.max(gap, end - last);
		assertTrue(recording.times.size() > 200, recording.times.size() + " reports");
		assertTrue(gap < 2_000_000_000L, "longest silence " + gap / 1e6 + " ms of " + (end - start) / 1e6 + " ms");

		// cancel from another thread at about a third of the run (by its progress, not by the first run's time: the
		// first run warms the JIT up, so on a busy machine the second could finish within a third of the first)
		Recording cancelled = new Recording();
		AtomicReference<Throwable> outcome = new AtomicReference<>();
		long[] returned = new long[1];
		Thread job = new Thread(() -> {
			try {
				store.create("cancelled", config, trace, ExperimentListener.NONE, cancelled);
			} catch (Throwable t) {
				outcome.set(t);
			}
			returned[0] = System.nanoTime();
		});
		job.start();
		while (job.isAlive() && cancelled.workDone() < 33) {
			Thread.sleep(1);
		}
		long cancelAt = System.nanoTime();
		cancelled.setCanceled(true);
		job.join();
		assertTrue(outcome.get() instanceof OperationCanceledException, String.valueOf(outcome.get()));
		double latencyMs = (returned[0] - cancelAt) / 1e6;
		// the figure is bench experiment's; this bound allows a busy machine's GC pauses
		assertTrue(latencyMs < 3000, "cancel took " + latencyMs + " ms");
		assertFalse(Files.exists(store.folder("cancelled")));
		assertEquals(List.of("whole"), store.list().stream().map(SavedExperiment::name).toList());
		assertThrows(ExperimentException.class, () -> store.get("cancelled"));
	}
}
