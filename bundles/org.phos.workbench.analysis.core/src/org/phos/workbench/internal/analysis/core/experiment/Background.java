package org.phos.workbench.internal.analysis.core.experiment;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.experiment.ExperimentException;

/**
 * Runs a phase that cannot report progress often enough itself (a chart drawn by JFreeChart, a pass over the trace
 * without a monitor, files synced to disk) on a worker thread, while the caller's thread keeps its promise to the
 * monitor: it looks every {@value #POLL_MS} ms, forwards the worker's own progress, or advances the bar a little
 * when the worker said nothing for a while, and, for a cancellable phase, returns at once with
 * {@link OperationCanceledException} when cancelled (the worker is told, and its output is thrown away by the
 * caller's clean-up).
 */
public final class Background {
	/** How often the caller's thread looks at the worker and the monitor. */
	static final long POLL_MS = 40;
	/** Without word from the worker for this long, the bar creeps (a share of what is left of the phase). */
	static final long QUIET_NANOS = 60_000_000L;
	/**
	 * The share of the phase the worker's own reports can fill; the rest is sent when it returns. A worker that says
	 * it is done before it returns (its last step still drawing, or waiting for a helper thread) then still leaves
	 * room for the creep, instead of a silent bar until it returns.
	 */
	static final double WORKER_SHARE = 0.95;

	private Background() {
	}

	/** Work done on the worker thread, with a monitor it may use (thread-safe, cancelled with the caller's). */
	@FunctionalInterface
	public interface Work<T> {
		T run(IProgressMonitor monitor) throws Exception;
	}

	/**
	 * Runs {@code work} on a worker thread, reporting to {@code monitor} as {@code units} of its work.
	 *
	 * @param cancellable whether a cancel returns at once (false: the phase must finish, e.g. moving files into
	 *        place; progress is still reported)
	 */
	public static <T> T call(String phase, IProgressMonitor monitor, double units, boolean cancellable, Work<T> work)
			throws ExperimentException {
		WorkerMonitor worker = new WorkerMonitor();
		CompletableFuture<T> future = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				future.complete(work.run(worker));
			} catch (Throwable t) {
				future.completeExceptionally(t);
			}
		}, "phos-experiment: " + phase);
		thread.setDaemon(true);
		monitor.subTask(phase);
		thread.start();
		double sent = 0;
		long lastNews = System.nanoTime();
		while (true) {
			try {
				T result = future.get(POLL_MS, TimeUnit.MILLISECONDS);
				if (units > sent) {
					monitor.internalWorked(units - sent);
				}
				return result;
			} catch (TimeoutException e) {
				if (monitor.isCanceled()) {
					worker.setCanceled(true);
					if (cancellable) {
						throw new OperationCanceledException();
					}
				}
				long now = System.nanoTime();
				double target = units * Math.min(worker.fraction(), WORKER_SHARE);
				String task = worker.takeSubTask();
				if (task != null) {
					monitor.subTask(task);
				}
				if (target > sent) {
					monitor.internalWorked(target - sent);
					sent = target;
					lastNews = now;
				} else if (now - lastNews >= QUIET_NANOS) {
					// alive but silent (one chart being drawn): a small step, never reaching the end
					double step = (units - sent) * 0.03;
					monitor.internalWorked(step);
					sent += step;
					lastNews = now;
				}
			} catch (InterruptedException e) {
				worker.setCanceled(true);
				Thread.currentThread().interrupt();
				throw new OperationCanceledException();
			} catch (ExecutionException e) {
				Throwable cause = e.getCause();
				if (cause instanceof ExperimentException x) {
					throw x;
				}
				if (cause instanceof RuntimeException x) {
					throw x;
				}
				if (cause instanceof Error x) {
					throw x;
				}
				throw ExperimentException.failure(phase + ": " + cause, cause);
			}
		}
	}

	/** The worker's monitor: what it reports is read by the caller's thread; cancelled by the caller. */
	private static final class WorkerMonitor implements IProgressMonitor {
		private volatile boolean canceled;
		private double total;
		private double done;
		private @Nullable String subTask;

		synchronized double fraction() {
			return total <= 0 ? 0 : Math.min(1, done / total);
		}

		synchronized @Nullable String takeSubTask() {
			String s = subTask;
			subTask = null;
			return s;
		}

		@Override
		public synchronized void beginTask(String name, int totalWork) {
			total = totalWork;
			done = 0;
		}

		@Override
		public void done() {
			// the caller's thread completes the phase when the work returns
		}

		@Override
		public synchronized void internalWorked(double work) {
			done += work;
		}

		@Override
		public boolean isCanceled() {
			return canceled;
		}

		@Override
		public void setCanceled(boolean value) {
			canceled = value;
		}

		@Override
		public void setTaskName(String name) {
			subTask(name);
		}

		@Override
		public synchronized void subTask(String name) {
			subTask = name;
		}

		@Override
		public void worked(int work) {
			internalWorked(work);
		}
	}
}
