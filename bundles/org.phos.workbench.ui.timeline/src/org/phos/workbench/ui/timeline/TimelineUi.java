package org.phos.workbench.ui.timeline;

/** Public identifiers of the trace timeline. */
public final class TimelineUi {
    /** The Trace Timeline view (org.eclipse.ui.views). */
    public static final String VIEW_ID = "org.phos.workbench.ui.timeline.traceTimeline";
    /** Prefix of the timeline's colour definitions in the theme registry (org.eclipse.ui.themes). */
    public static final String COLOR_PREFIX = "org.phos.workbench.ui.timeline.";

    private TimelineUi() {
    }
}
