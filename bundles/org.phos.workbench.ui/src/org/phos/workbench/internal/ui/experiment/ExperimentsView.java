package org.phos.workbench.internal.ui.experiment;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.FillLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.ui.PhoenixUi;
import org.phos.workbench.ui.model.ExperimentComparison;
import org.phos.workbench.ui.model.ExperimentSelection;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.ViewSelectionProvider;

/**
 * "Experiments": the C/R experiments of the open traces, one row each. Selecting one publishes an
 * {@link ExperimentSelection} (the C/R views show its runs); selecting two publishes an {@link ExperimentComparison}.
 */
public final class ExperimentsView extends ViewPart {
    /** The view id in plugin.xml. */
    public static final String ID = PhoenixUi.EXPERIMENTS_VIEW_ID;

    private final ViewSelectionProvider selection = new ViewSelectionProvider();
    private final List<ExperimentSelection> rows = new ArrayList<>();
    private Table table;

    @Override
    public void createPartControl(Composite parent) {
        parent.setLayout(new FillLayout());
        table = new Table(parent, SWT.BORDER | SWT.FULL_SELECTION | SWT.MULTI);
        table.setData(TracesView.ROLE, "experiments");
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        String[] headers = { "Experiment", "Trace", "Runs" };
        int[] widths = { 160, 140, 50 };
        for (int i = 0; i < headers.length; i++) {
            TableColumn c = new TableColumn(table, i == 2 ? SWT.RIGHT : SWT.LEFT);
            c.setText(headers[i]);
            c.setWidth(widths[i]);
        }
        table.addListener(SWT.Selection, e -> publish());
        getSite().setSelectionProvider(selection);
    }

    /**
     * Shows an experiment's result: adds its row (or replaces the row of the same trace and name), selects it, and
     * publishes it to the C/R views.
     */
    public void show(LoadedTrace trace, ExperimentResult result) {
        ExperimentSelection shown = new ExperimentSelection(trace, result);
        int index = indexOf(trace, result.name());
        if (index < 0) {
            rows.add(shown);
            index = rows.size() - 1;
            new TableItem(table, SWT.NONE);
        } else {
            rows.set(index, shown);
        }
        TableItem item = table.getItem(index);
        item.setText(new String[] { result.name(), trace.name(), Integer.toString(result.runs().size()) });
        item.setData(shown);
        table.setSelection(index);
        publish();
    }

    /** Selects two shown experiments and publishes their comparison ({@code right} minus {@code left}). */
    public void compare(ExperimentSelection left, ExperimentSelection right) {
        int l = rows.indexOf(left);
        int r = rows.indexOf(right);
        if (l < 0 || r < 0) {
            throw new IllegalArgumentException("compare shown experiments only");
        }
        table.setSelection(new int[] { l, r });
        selection.setSelection(new StructuredSelection(new ExperimentComparison(left, right)));
    }

    /** The experiments shown, in row order. */
    public List<ExperimentSelection> experiments() {
        return List.copyOf(rows);
    }

    private int indexOf(LoadedTrace trace, String name) {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).trace() == trace && rows.get(i).result().name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private void publish() {
        int[] picked = table.getSelectionIndices();
        if (picked.length == 1) {
            selection.setSelection(new StructuredSelection(rows.get(picked[0])));
        } else if (picked.length == 2) {
            selection.setSelection(new StructuredSelection(
                    new ExperimentComparison(rows.get(Math.min(picked[0], picked[1])),
                            rows.get(Math.max(picked[0], picked[1])))));
        }
    }

    @Override
    public void setFocus() {
        table.setFocus();
    }
}
