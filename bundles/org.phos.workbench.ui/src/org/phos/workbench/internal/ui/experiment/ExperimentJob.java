package org.phos.workbench.internal.ui.experiment;

import java.nio.file.Path;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.ISchedulingRule;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.core.runtime.jobs.MultiRule;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.analysis.core.experiment.ExperimentListener;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.analysis.core.experiment.ExperimentStore;
import org.phos.workbench.live.LiveDevice;
import org.phos.workbench.live.LiveDevices;
import org.phos.workbench.live.LiveExperiments;
import org.phos.workbench.live.ReplayException;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * Runs an experiment (a new one, or a saved one again) over an opened trace and saves it beside the trace through
 * the {@link ExperimentStore}: the Job's monitor goes to the core as it is (wrapped only to feed the view's progress
 * bar), so cancel stops the simulation within one cancel poll, and the store writes nothing under a final name
 * unless the run succeeded. Experiments of one trace run one after the other ({@link #rule}); the trace is the
 * Job's family, so closing the trace cancels them.
 */
public final class ExperimentJob extends Job {
    /** The family of every experiment Job. */
    public static final Object FAMILY = ExperimentJob.class;

    private final LoadedTrace trace;
    private final String name;
    private final @Nullable ExperimentConfig config;
    private final boolean live; // i13-live2
    private final ExperimentProgress progress = new ExperimentProgress();
    private volatile @Nullable ExperimentResult result;
    private volatile @Nullable String failure;

    /**
     * @param config what to run; null to re-run the saved experiment {@code name}
     */
    ExperimentJob(LoadedTrace trace, String name, @Nullable ExperimentConfig config) {
        this(trace, name, config, false);
    }

    /**
     * @param live run it live on the GPU ({@link LiveExperiments}); one live Job uses the GPU at a time
     */
    ExperimentJob(LoadedTrace trace, String name, @Nullable ExperimentConfig config, boolean live) {
        super((config == null ? "Re-running experiment " : "Running experiment ") + name + (live ? " live" : "")
                + " on " + trace.name());
        this.trace = trace;
        this.name = name;
        this.config = config;
        this.live = live;
        setUser(true);
        setRule(live ? MultiRule.combine(rule(trace.file()), GPU) : rule(trace.file()));
    }

    /** The GPU (device 0): live runs never share it. */
    static final ISchedulingRule GPU = new ISchedulingRule() {
        @Override
        public boolean contains(ISchedulingRule rule) {
            return rule == this;
        }

        @Override
        public boolean isConflicting(ISchedulingRule rule) {
            return rule == this;
        }
    };

    private ExperimentResult runLive(ExperimentStore store, @Nullable ExperimentConfig c, IProgressMonitor m)
            throws ExperimentException {
        try (LiveDevice device = LiveDevices.gpu()) {
            return c == null
                    ? LiveExperiments.rerun(store, name, trace.trace(), LiveExperiments.DEFAULT_WINDOW, device,
                            ExperimentListener.NONE, m)
                    : LiveExperiments.create(store, name, c, trace.trace(), LiveExperiments.DEFAULT_WINDOW, device,
                            ExperimentListener.NONE, m);
        } catch (ReplayException | LinkageError e) {
            String why = String.valueOf(e.getMessage());
            throw ExperimentException.failure("a live run needs a CUDA GPU and driver on this machine: "
                    + why.lines().findFirst().orElse(why), e);
        }
    }

    /** Whether it runs live on the GPU. */
    public boolean live() {
        return live;
    }

    @Override
    protected IStatus run(IProgressMonitor monitor) {
        IProgressMonitor m = progress.wrap(monitor);
        ExperimentStore store = ExperimentStore.of(trace.file());
        ExperimentListener listener = ExperimentListener.NONE;
        try {
            ExperimentConfig c = config;
            result = live ? runLive(store, c, m) // i13-live2
                    : c == null ? store.rerun(name, trace.trace(), listener, m)
                            : store.create(name, c, trace.trace(), listener, m);
            return Status.OK_STATUS;
        } catch (OperationCanceledException e) {
            return Status.CANCEL_STATUS;
        } catch (ExperimentException | RuntimeException e) {
            if (m.isCanceled()) {
                // a failure while the run unwinds after Cancel (a writer meeting its deleted scratch folder): the
                // person cancelled, the store kept nothing; the error goes to the log for the core's engineers
                org.eclipse.core.runtime.ILog.of(ExperimentJob.class).warn("Experiment " + name + " on "
                        + trace.name() + " failed while it was being cancelled", e);
                return Status.CANCEL_STATUS;
            }
            failure = e instanceof ExperimentException x ? x.problem().message()
                    : e.getClass().getSimpleName() + ": " + e.getMessage();
        } catch (OutOfMemoryError e) {
            failure = "out of memory (" + e.getMessage() + "): give the workbench more heap (-Xmx) or simulate from "
                    + "the command line";
        } finally {
            m.done();
        }
        // the view says it beside the experiment; a warning (not an error) keeps the platform from a second dialog
        return Status.warning("Experiment " + name + " on " + trace.name() + " failed: " + failure);
    }

    @Override
    public boolean belongsTo(Object family) {
        return family == FAMILY || family == trace;
    }

    public LoadedTrace trace() {
        return trace;
    }

    public String experimentName() {
        return name;
    }

    /** The runs, once the Job succeeded; else null. */
    public @Nullable ExperimentResult result() {
        return result;
    }

    /** Why it failed (the core's message), or null. */
    public @Nullable String failure() {
        return failure;
    }

    ExperimentProgress progress() {
        return progress;
    }

    /** Experiments of one trace file run one at a time (the store's operations on a trace are serialised). */
    static ISchedulingRule rule(Path traceFile) {
        return new TraceRule(traceFile.toAbsolutePath().normalize());
    }

    private record TraceRule(Path file) implements ISchedulingRule {
        @Override
        public boolean contains(ISchedulingRule rule) {
            return isConflicting(rule);
        }

        @Override
        public boolean isConflicting(ISchedulingRule rule) {
            return rule instanceof TraceRule r && r.file.equals(file);
        }
    }
}
