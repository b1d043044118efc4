package org.phos.workbench.internal.ui.launches;

import org.phos.workbench.analysis.core.AnalysisSession;

/** The workbench's one {@link AnalysisSession}: every view asks it, so answers are computed once per trace. */
public final class Analysis {
    private static final AnalysisSession SESSION = AnalysisSession.standard();

    private Analysis() {
    }

    /** The shared session. */
    public static AnalysisSession session() {
        return SESSION;
    }
}
