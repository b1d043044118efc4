package org.phos.workbench.internal.ui.experiment;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.ProgressMonitorWrapper;

/**
 * What a running experiment has reported, for the Experiments view's progress bar: the monitor the Job hands to the
 * core is wrapped so every report lands here (and still reaches the platform's progress); the view reads it on the UI
 * thread. Only reports count as progress (task, sub-task, work done); the cancel polls in between do not.
 */
final class ExperimentProgress {
    private volatile String task = "";
    private volatile String subTask = "";
    private volatile int total = IProgressMonitor.UNKNOWN;
    private volatile double worked;
    private volatile long reports;

    /** The Job's monitor, reporting into this. */
    IProgressMonitor wrap(IProgressMonitor monitor) {
        return new ProgressMonitorWrapper(monitor) {
            @Override
            public void beginTask(String name, int totalWork) {
                if (total == IProgressMonitor.UNKNOWN) { // the first (outermost) task sets the scale
                    task = name;
                    total = totalWork;
                }
                reports++;
                super.beginTask(name, totalWork);
            }

            @Override
            public void subTask(String name) {
                subTask = name;
                reports++;
                super.subTask(name);
            }

            @Override
            public void setTaskName(String name) {
                task = name;
                reports++;
                super.setTaskName(name);
            }

            @Override
            public void worked(int work) {
                internalWorked(work);
            }

            @Override
            public void internalWorked(double work) {
                worked += work;
                reports++;
                super.internalWorked(work);
            }
        };
    }

    /** How many reports (task, sub-task, work) came so far: a change means the run reported progress. */
    long moves() {
        return reports;
    }

    /** Fraction done in [0, 1], or -1 when the run did not say how much work there is. */
    double fraction() {
        int t = total;
        return t <= 0 ? -1 : Math.min(1, worked / t);
    }

    /** The task and what it does now, for the label beside the bar. */
    String text() {
        String s = subTask;
        return s.isEmpty() ? task : task + ": " + s;
    }
}
