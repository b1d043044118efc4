package org.phos.workbench.internal.ui.experiment;

import org.eclipse.swt.graphics.Color;
import org.eclipse.ui.PlatformUI;

/** The experiments' colours from the current theme (plugin.xml: light values, dark overrides). */
final class ExperimentColors {
    /** A refused value in the dialog, a failed run in the view. */
    static final String PROBLEM = "org.phos.workbench.ui.experiment.problem";
    /** A saved experiment whose trace changed since it ran. */
    static final String STALE = "org.phos.workbench.ui.experiment.stale";

    private ExperimentColors() {
    }

    static Color get(String id) {
        return PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry().get(id);
    }
}
