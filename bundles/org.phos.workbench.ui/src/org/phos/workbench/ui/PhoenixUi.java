package org.phos.workbench.ui;

/**
 * Identifiers of the Phoenix Workbench user interface: the perspective that arranges the analysis views and the
 * views themselves. Other bundles and tests use these to open or find a part without naming its class.
 */
public final class PhoenixUi {
    /** The "Phoenix" perspective, the workbench's initial layout. */
    public static final String PERSPECTIVE_ID = "org.phos.workbench.ui.perspective";
    /** The "Traces" view: the {@code .phos} trace files of a folder. */
    public static final String TRACES_VIEW_ID = "org.phos.workbench.ui.tracesView";
    /** The "Experiments" view: the saved C/R experiments of the open traces; opening one shows it in the C/R views. */
    public static final String EXPERIMENTS_VIEW_ID = "org.phos.workbench.ui.experimentsView";
    /** The "C/R Timeline" view: the lanes of a simulated (or live) C/R run. */
    public static final String CR_TIMELINE_VIEW_ID = "org.phos.workbench.ui.crTimelineView";
    /** The "C/R Compare" view: two runs or two experiments on synchronised time axes, and their metrics' differences. */
    public static final String CR_COMPARE_VIEW_ID = "org.phos.workbench.ui.crCompareView";
    /** The "Comparison" view: the runs of an experiment side by side (bar charts and a table). */
    public static final String CR_COMPARISON_VIEW_ID = "org.phos.workbench.ui.crComparisonView";
    /** The "Dirty bytes" view: bytes still to copy after the checkpoint instant, over time. */
    public static final String CR_DIRTY_BYTES_VIEW_ID = "org.phos.workbench.ui.crDirtyBytesView";
    /** The "Metrics" view: every metric of every run. */
    public static final String CR_METRICS_VIEW_ID = "org.phos.workbench.ui.crMetricsView";
    /** The "Consistency" view: the violations of the runs' images. */
    public static final String CR_CONSISTENCY_VIEW_ID = "org.phos.workbench.ui.crConsistencyView";
    /** Title of the workbench window. */
    public static final String WINDOW_TITLE = "Phoenix Workbench";
    /** System property naming the folder of sample traces shown first in the Traces view. */
    public static final String SAMPLES_PROPERTY = "phos.samples";

    private PhoenixUi() {
    }
}
