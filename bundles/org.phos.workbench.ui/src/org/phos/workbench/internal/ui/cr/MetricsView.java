package org.phos.workbench.internal.ui.cr;

import org.eclipse.jface.action.IToolBarManager;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.swt.widgets.Composite;
import org.phos.workbench.analysis.core.experiment.MetricRow;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.internal.ui.accuracy.CsvExport;
import org.phos.workbench.ui.PhoenixUi;

/**
 * "Metrics": every figure of every run, one row each ({@code run,metric,value}), the table {@code simulate} writes as
 * metrics.csv for the same configuration ({@link MetricRow}); Export CSV and Copy write it.
 */
public final class MetricsView extends CrView {
    /** The view id in plugin.xml. */
    public static final String ID = PhoenixUi.CR_METRICS_VIEW_ID;

    private RunTable<MetricRow> table;
    private CsvExport csv;

    @Override
    protected String role() {
        return "cr-metrics";
    }

    @Override
    protected void createBody(Composite body) {
        GridLayoutFactory.fillDefaults().applyTo(body);
        table = new RunTable<>(body, "cr-metrics-table", 1);
        table.alignRight("value");
        csv = new CsvExport(getViewSite(), table.control(), () -> {
            ShownRuns s = shown();
            Table<MetricRow> t = table.shown();
            return s == null || t == null ? null : new CsvExport.Export(s.stem() + "-metrics.csv", s.traceFile(), t);
        });
        IToolBarManager bar = getViewSite().getActionBars().getToolBarManager();
        bar.add(csv.action("Export the metrics as CSV (simulate's metrics.csv for these runs)"));
        bar.add(CsvExport.copyAction(table.control(), "Copy the metrics as CSV", table::csv));
        getViewSite().getActionBars().updateActionBars();
    }

    @Override
    protected void show(ShownRuns runs) {
        table.show(MetricRow.of(runs.metrics()));
    }

    @Override
    protected String headerNote(ShownRuns runs) {
        return ". Times in ns, sizes in bytes, slowdown as a fraction: simulate's metrics.csv.";
    }

    /** The table shown. */
    public RunTable<MetricRow> table() {
        return table;
    }

    /** Export CSV. */
    public CsvExport csvExport() {
        return csv;
    }
}
