package org.phos.workbench.internal.ui.cr;

import java.util.Objects;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.theme.PhoenixThemes;
import org.phos.workbench.ui.PhoenixUi;

/**
 * What the four C/R result views share: a header line saying which runs are shown, and the following of the
 * selection. A view shows the runs of the last {@code ExperimentSelection} or {@code ExperimentComparison} published
 * by any part (the Experiments view even when it is not the active part) and keeps them while other things are
 * selected (a launch picked from a violation, say). A switch of theme redraws what is shown in the new colours.
 */
public abstract class CrView extends ViewPart {
    private final ISelectionListener listener = this::selectionChanged;
    private Label header;
    private @Nullable ShownRuns shown;

    /** The role of the view's controls for tests ({@code cr-comparison}, ...): the header is {@code ROLE-header}. */
    protected abstract String role();

    /** Builds the view's controls under {@code body} (no layout set). */
    protected abstract void createBody(Composite body);

    /** Shows {@code runs} (on the UI thread). */
    protected abstract void show(ShownRuns runs);

    @Override
    public final void createPartControl(Composite parent) {
        GridLayoutFactory.fillDefaults().margins(4, 4).spacing(0, 4).applyTo(parent);
        header = new Label(parent, SWT.WRAP);
        header.setData(TracesView.ROLE, role() + "-header");
        header.setText("No experiment selected: run one (New Experiment) or pick one in the Experiments view.");
        GridDataFactory.fillDefaults().grab(true, false).hint(100, SWT.DEFAULT).applyTo(header);
        Composite body = new Composite(parent, SWT.NONE);
        GridDataFactory.fillDefaults().grab(true, true).applyTo(body);
        createBody(body);
        IWorkbenchPage page = getSite().getPage();
        page.addSelectionListener(listener);
        // the Experiments view publishes what it shows even when another part is active
        page.addSelectionListener(PhoenixUi.EXPERIMENTS_VIEW_ID, listener);
        ISelection now = page.getSelection(PhoenixUi.EXPERIMENTS_VIEW_ID);
        if (now != null) {
            selectionChanged(null, now);
        }
        PhoenixThemes.onChange(header, () -> {
            ShownRuns s = shown;
            if (s != null) {
                show(s);
            }
        });
    }

    private void selectionChanged(@Nullable IWorkbenchPart part, ISelection selection) {
        if (part == this || !(selection instanceof IStructuredSelection s) || s.size() != 1) {
            return;
        }
        ShownRuns runs = ShownRuns.of(s.getFirstElement());
        ShownRuns before = shown;
        if (runs != null && (before == null || !Objects.equals(before.source(), runs.source()))) {
            display(runs);
        }
    }

    /** Shows {@code runs} and says so in the header. */
    public void display(ShownRuns runs) {
        shown = runs;
        header.setText(runs.title() + headerNote(runs));
        header.getParent().layout(true, true);
        show(runs);
    }

    /** What follows the title in the header (how to read or use the view), or "". */
    protected String headerNote(ShownRuns runs) {
        return "";
    }

    /** The runs shown, or null before any. */
    public @Nullable ShownRuns shown() {
        return shown;
    }

    /** The header line as shown. */
    public String headerText() {
        return header.getText();
    }

    @Override
    public void setFocus() {
        header.getParent().setFocus();
    }

    @Override
    public void dispose() {
        IWorkbenchPage page = getSite().getPage();
        page.removeSelectionListener(listener);
        page.removeSelectionListener(PhoenixUi.EXPERIMENTS_VIEW_ID, listener);
        super.dispose();
    }
}
