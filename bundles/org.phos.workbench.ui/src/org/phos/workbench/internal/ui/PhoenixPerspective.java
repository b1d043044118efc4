package org.phos.workbench.internal.ui;

import org.eclipse.ui.IFolderLayout;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IPerspectiveFactory;
import org.phos.workbench.internal.ui.accesses.AccessesView;
import org.phos.workbench.internal.ui.accuracy.AccuracyView;
import org.phos.workbench.internal.ui.kernels.KernelsView;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.properties.PropertiesView;
import org.phos.workbench.ui.PhoenixUi;

/**
 * The "Phoenix" perspective: traces and the selection's Properties on the left, the open traces (editors) in the
 * centre with the launch views below them (Launches, and the Trace Timeline, which stacks itself there from its own
 * bundle), and on the right what the selected launch did (Accesses) over the per-kernel and per-engine tables.
 */
public final class PhoenixPerspective implements IPerspectiveFactory {

    @Override
    public void createInitialLayout(IPageLayout layout) {
        String editors = layout.getEditorArea();
        layout.setEditorAreaVisible(true);
        layout.addView(PhoenixUi.TRACES_VIEW_ID, IPageLayout.LEFT, 0.2f, editors);
        // i12-experiments: begin: the saved C/R experiments under the traces, stacked with Properties
        IFolderLayout left = layout.createFolder("org.phos.workbench.ui.left", IPageLayout.BOTTOM, 0.55f,
                PhoenixUi.TRACES_VIEW_ID);
        left.addView(PropertiesView.ID);
        left.addView(PhoenixUi.EXPERIMENTS_VIEW_ID);
        // i12-experiments: end
        // what the selected launch did, and the per-kernel and per-engine tables under it
        layout.addView(AccessesView.ID, IPageLayout.RIGHT, 0.55f, editors);
        IFolderLayout tables = layout.createFolder("org.phos.workbench.ui.tables", IPageLayout.BOTTOM, 0.5f,
                AccessesView.ID);
        tables.addView(KernelsView.ID);
        tables.addView(AccuracyView.ID);
        // i11-buffers: begin: the memory map and allocation table, stacked with the per-kernel tables
        tables.addView(org.phos.workbench.internal.ui.buffers.BuffersView.ID);
        // i11-buffers: end
        // i12-crviews: begin: the C/R result views stacked with the tables (a violation's launch and buffer, a double
        // click in Consistency, show in Launches under the editors and in Buffers here)
        tables.addView(PhoenixUi.CR_COMPARISON_VIEW_ID);
        tables.addView(PhoenixUi.CR_DIRTY_BYTES_VIEW_ID);
        tables.addView(PhoenixUi.CR_METRICS_VIEW_ID);
        tables.addView(PhoenixUi.CR_CONSISTENCY_VIEW_ID);
        // i12-crviews: end
        // the launches under the open traces (the Trace Timeline stacks itself here), the selection's properties
        IFolderLayout launches = layout.createFolder("org.phos.workbench.ui.launches", IPageLayout.BOTTOM, 0.45f,
                editors);
        launches.addView(LaunchesView.ID);
    }
}
