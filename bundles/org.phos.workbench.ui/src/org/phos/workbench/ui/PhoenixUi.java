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
    /** Title of the workbench window. */
    public static final String WINDOW_TITLE = "Phoenix Workbench";
    /** System property naming the folder of sample traces shown first in the Traces view. */
    public static final String SAMPLES_PROPERTY = "phos.samples";

    private PhoenixUi() {
    }
}
