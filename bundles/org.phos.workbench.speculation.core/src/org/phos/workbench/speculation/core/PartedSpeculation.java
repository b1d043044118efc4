package org.phos.workbench.speculation.core;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.ProgressMonitorWrapper;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.Trace;

/**
 * Speculates a trace in contiguous parts of its launches, one thread per part. Each part gets its own engines (made
 * again by {@link EngineRegistry#create} from the names of the engines given) and its own {@link TraceSpeculator},
 * which replays the events before the part and shows its engines the launches they remember
 * ({@link SpeculationEngine#memory()}), so every launch is speculated exactly as in one walk from the start. The
 * caller keeps one result per part (a visitor per part) and combines them afterwards.
 * <p>
 * The replay before a part costs a fraction of walking it (no engine runs but on remembered launches), so on a
 * machine with idle cores parts speculate a large trace in less time. A trace stays in one part when it is small,
 * when an engine remembers every launch, or when an engine cannot be made again by name.
 * <p>
 * Usage: {@code PartedSpeculation.run(trace, engines, PartedSpeculation.parts(trace, engines, threads), monitor,
 * (part, partEngines) -> launch -> ...)}.
 */
public final class PartedSpeculation {

	/** Launches below which a trace is not split: a part's fixed cost would outweigh what it saves. */
	public static final int MIN_LAUNCHES_PER_PART = 50_000;

	/** Makes the visitor of one part. */
	@FunctionalInterface
	public interface PartVisitors {
		/**
		 * @param part the part, from 0 in launch order
		 * @param engines the part's engines, in the order given ({@code part == 0}: the instances given)
		 * @return the visitor that part's walk calls for each of its launches (on the part's thread)
		 */
		TraceSpeculator.LaunchVisitor visitor(int part, List<SpeculationEngine> engines);
	}

	private PartedSpeculation() {
	}

	/**
	 * How many parts a trace should be speculated in.
	 *
	 * @param trace the trace
	 * @param engines the engines
	 * @param threads threads available (for example {@code Runtime.availableProcessors()})
	 * @return at least 1; 1 when the trace is small, an engine remembers every launch, or one cannot be made again
	 */
	public static int parts(Trace trace, List<SpeculationEngine> engines, int threads) {
		int parts = Math.max(1, Math.min(threads, trace.launchCount() / MIN_LAUNCHES_PER_PART));
		if (parts == 1) {
			return 1;
		}
		for (SpeculationEngine e : engines) {
			if (e.memory() == SpeculationEngine.Memory.EVERY_LAUNCH || !EngineRegistry.canCreate(e.name())) {
				return 1;
			}
		}
		return parts;
	}

	/**
	 * Walks the trace in parts, each on its own thread (part 0 on the calling one), and returns when all are done.
	 *
	 * @param trace the trace
	 * @param engines fresh engines for it (part 0 uses them; the other parts get new ones made by name)
	 * @param parts how many parts (from {@link #parts}); launches are split evenly
	 * @param monitor progress (in events) and cancellation, may be null; called from every part's thread, one at a
	 *        time
	 * @param visitors makes each part's visitor
	 * @return each part's engines, by part (to read their notes)
	 * @throws OperationCanceledException when cancelled
	 * @throws RuntimeException the first failure of a part, after all parts have stopped
	 */
	public static List<List<SpeculationEngine>> run(Trace trace, List<SpeculationEngine> engines, int parts,
			@Nullable IProgressMonitor monitor, PartVisitors visitors) {
		if (parts < 1) {
			throw new IllegalArgumentException("parts must be >= 1, got " + parts);
		}
		List<List<SpeculationEngine>> partEngines = new ArrayList<>();
		partEngines.add(engines);
		for (int p = 1; p < parts; p++) {
			List<SpeculationEngine> fresh = new ArrayList<>();
			for (SpeculationEngine e : engines) {
				fresh.add(EngineRegistry.create(e.name(), trace));
			}
			partEngines.add(fresh);
		}
		long launches = trace.launchCount();
		SharedMonitor shared = new SharedMonitor(monitor != null ? monitor : new NullProgressMonitor());
		shared.beginTask("Speculating launches", Math.max(1, trace.eventCount() >> 16));
		Throwable[] failures = new Throwable[parts];
		Thread[] threads = new Thread[parts];
		for (int p = parts - 1; p >= 0; p--) { // part 0 last, on this thread
			int part = p;
			int from = (int) (launches * p / parts);
			int to = (int) (launches * (p + 1) / parts);
			Runnable walk = () -> {
				try {
					List<SpeculationEngine> mine = partEngines.get(part);
					TraceSpeculator.forEngines(trace, mine).run(shared.forPart(), from, to,
							visitors.visitor(part, mine));
				} catch (Throwable t) { // reported below, once the other parts have stopped
					failures[part] = t;
					shared.stop();
				}
			};
			if (p == 0) {
				walk.run();
			} else {
				threads[p] = new Thread(walk, "speculation part " + p);
				threads[p].setDaemon(true);
				threads[p].start();
			}
		}
		boolean interrupted = false;
		for (int p = 1; p < parts; p++) {
			while (true) {
				try {
					threads[p].join();
					break;
				} catch (InterruptedException e) {
					interrupted = true;
					shared.stop();
				}
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
		shared.done();
		Throwable first = null;
		for (Throwable t : failures) {
			if (t != null && (first == null || first instanceof OperationCanceledException)) {
				first = t; // a part's real failure rather than the cancellations it caused elsewhere
			}
		}
		if (first instanceof RuntimeException r) {
			throw r;
		}
		if (first instanceof Error e) {
			throw e;
		}
		if (first != null) {
			throw new IllegalStateException("a speculation part failed: " + first, first);
		}
		return partEngines;
	}

	/**
	 * One engine's notes over all parts: those of the last part for an engine that remembers first launches (it has
	 * seen every function's first launch, as one walk would have), otherwise each distinct note of any part, in part
	 * order.
	 *
	 * @param partEngines what {@link #run} returned
	 * @param engine the engine's index in the list given to {@code run}
	 * @return the notes
	 */
	public static List<String> notes(List<List<SpeculationEngine>> partEngines, int engine) {
		SpeculationEngine last = partEngines.get(partEngines.size() - 1).get(engine);
		if (last.memory() != SpeculationEngine.Memory.NONE) {
			return last.notes();
		}
		java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>();
		for (List<SpeculationEngine> part : partEngines) {
			all.addAll(part.get(engine).notes());
		}
		return List.copyOf(all);
	}

	/**
	 * The caller's monitor, shared by the parts: work is reported one part at a time, and a part that fails or a
	 * cancellation stops every part at its next check.
	 */
	private static final class SharedMonitor {
		private final IProgressMonitor target;
		private volatile boolean stopped;

		SharedMonitor(IProgressMonitor target) {
			this.target = target;
		}

		synchronized void beginTask(String name, int work) {
			target.beginTask(name, work);
		}

		synchronized void done() {
			target.done();
		}

		void stop() {
			stopped = true;
		}

		/** The view a part's walk gets: begin and done are the shared task's, not the part's. */
		IProgressMonitor forPart() {
			return new ProgressMonitorWrapper(target) {
				@Override
				public void beginTask(String name, int totalWork) {
					// the task was begun once for all parts
				}

				@Override
				public void done() {
					// ended once all parts are
				}

				@Override
				public void worked(int work) {
					synchronized (SharedMonitor.this) {
						target.worked(work);
					}
				}

				@Override
				public boolean isCanceled() {
					return stopped || target.isCanceled();
				}
			};
		}
	}
}
