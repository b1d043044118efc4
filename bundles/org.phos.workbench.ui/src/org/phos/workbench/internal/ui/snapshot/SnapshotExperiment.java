package org.phos.workbench.internal.ui.snapshot;

import java.util.List;

import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PartInitException;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.analysis.core.experiment.ExperimentRunner;
import org.phos.workbench.internal.ui.experiment.ExperimentsView;
import org.phos.workbench.ui.PhoenixUi;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * For pictures of the C/R views ({@code ./workbench snapshot --view cr-timeline,cr-compare}): runs a small
 * experiment over the snapshot's trace through the experiment runner, as {@code simulate --policy
 * 'stop-the-world;soft-cow' --at launch:N/2} would (sets auto, machine h100, with the baseline), and shows it
 * through the Experiments view, which publishes it to the C/R views. Nothing happens when no C/R view is pictured.
 */
final class SnapshotExperiment {
    /** The snapshot view names that need an experiment. */
    static final List<String> VIEWS = List.of("cr-timeline", "cr-compare", "cr-comparison", "cr-dirty", "cr-metrics",
            "cr-consistency");
    /** The timelines among them: pictured alone, their stack is maximized so every lane shows. */
    private static final List<String> TIMELINES = List.of("cr-timeline", "cr-compare");

    private SnapshotExperiment() {
    }

    static void publishIfAsked(IWorkbenchWindow window, LoadedTrace trace, List<String> views) throws PartInitException {
        if (views.stream().noneMatch(VIEWS::contains) || trace.trace().launchCount() == 0) {
            return;
        }
        String at = "launch:" + trace.trace().launchCount() / 2;
        ExperimentConfig config = new ExperimentConfig("stop-the-world;soft-cow", at,
                ExperimentConfig.DEFAULT_MACHINE, ExperimentConfig.DEFAULT_SETS, ExperimentConfig.DEFAULT_WIDTH_PX);
        ExperimentResult result;
        try {
            result = new ExperimentRunner(config, trace.file(), trace.trace()).run("snapshot", null);
        } catch (ExperimentException e) {
            throw new IllegalStateException("snapshot experiment on " + trace.name() + ": " + e.getMessage(), e);
        }
        IWorkbenchPage page = window.getActivePage();
        IViewPart v = page.showView(PhoenixUi.EXPERIMENTS_VIEW_ID);
        page.activate(v);
        ((ExperimentsView) v).show(trace, result);
        var ref = page.findViewReference(views.get(0).equals("cr-compare") ? PhoenixUi.CR_COMPARE_VIEW_ID
                : PhoenixUi.CR_TIMELINE_VIEW_ID);
        if (TIMELINES.containsAll(views) && ref != null) { // only C/R views pictured: their stack maximized, lanes seen
            page.setPartState(ref, IWorkbenchPage.STATE_MAXIMIZED);
        }
    }
}
