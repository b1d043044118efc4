package org.phos.workbench.internal.ui;

import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IPerspectiveFactory;
import org.phos.workbench.ui.PhoenixUi;

/** The "Phoenix" perspective: the trace list on the left; the analysis views of later issues join it. */
public final class PhoenixPerspective implements IPerspectiveFactory {

    @Override
    public void createInitialLayout(IPageLayout layout) {
        layout.setEditorAreaVisible(true);
        layout.addView(PhoenixUi.TRACES_VIEW_ID, IPageLayout.LEFT, 0.25f, layout.getEditorArea());
        layout.addView(org.phos.workbench.internal.ui.launches.LaunchesView.ID, IPageLayout.BOTTOM, 0.55f,
                layout.getEditorArea());
        layout.addView(org.phos.workbench.internal.ui.properties.PropertiesView.ID, IPageLayout.RIGHT, 0.72f,
                layout.getEditorArea());
    }
}
