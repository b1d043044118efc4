package org.phos.workbench.internal.analysis.core.experiment;

import org.eclipse.core.runtime.IProgressMonitor;

/**
 * A share of a parent monitor's task handed to one phase: the phase may {@code beginTask} with any total and
 * {@code worked} against it; the parent receives the same fraction of this slice's units. Cancellation and sub-task
 * names pass through. What {@code SubMonitor.split} does, without its OSGi run-time needs (the command line runs on
 * a plain classpath).
 */
public final class ProgressSlice implements IProgressMonitor {
	private final IProgressMonitor parent;
	private final double units;
	private double total;
	private double done;
	private double sent;

	/** @param units how many of the parent's work units this slice is worth */
	public ProgressSlice(IProgressMonitor parent, double units) {
		this.parent = parent;
		this.units = units;
	}

	@Override
	public void beginTask(String name, int totalWork) {
		if (name != null && !name.isEmpty()) {
			parent.subTask(name);
		}
		total = totalWork;
		done = 0;
	}

	@Override
	public void done() {
		send(units);
	}

	@Override
	public void internalWorked(double work) {
		done += work;
		if (total > 0) {
			send(Math.min(units, done * units / total));
		}
	}

	private void send(double target) {
		if (target > sent) {
			parent.internalWorked(target - sent);
			sent = target;
		}
	}

	@Override
	public boolean isCanceled() {
		return parent.isCanceled();
	}

	@Override
	public void setCanceled(boolean value) {
		parent.setCanceled(value);
	}

	@Override
	public void setTaskName(String name) {
		parent.subTask(name);
	}

	@Override
	public void subTask(String name) {
		parent.subTask(name);
	}

	@Override
	public void worked(int work) {
		internalWorked(work);
	}
}
