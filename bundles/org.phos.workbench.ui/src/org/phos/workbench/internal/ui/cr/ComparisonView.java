package org.phos.workbench.internal.ui.cr;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.action.IToolBarManager;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Composite;
import org.jfree.chart.JFreeChart;
import org.phos.workbench.analysis.core.experiment.ComparisonRow;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.cr.charts.ChartPalette;
import org.phos.workbench.cr.charts.ComparisonChartBuilder;
import org.phos.workbench.cr.charts.LaneBytesChartBuilder;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accuracy.CsvExport;
import org.phos.workbench.ui.PhoenixUi;

/**
 * "Comparison": the runs of the selected experiment side by side. The chart is {@code simulate}'s comparison chart
 * (stall total, longest stall, C/R done, slowdown, C/R bytes; {@link ComparisonChartBuilder}) with two panels more
 * under the same run axis: bytes by lane and the copy-on-write count ({@link LaneBytesChartBuilder}); each run keeps
 * its colour in every panel. The table under it has the same figures as numbers ({@link ComparisonRow}), each equal
 * to its value in metrics.csv. Exports: the chart as shown (PNG, SVG), the table (CSV, Copy).
 */
public final class ComparisonView extends CrView {
    /** The view id in plugin.xml. */
    public static final String ID = PhoenixUi.CR_COMPARISON_VIEW_ID;

    private ScrolledComposite scroll;
    private Composite charts;
    private ChartBox chart;
    private RunTable<ComparisonRow> table;
    private int chartHeight = 600;
    private CsvExport csv;
    private FileExport png;
    private FileExport svg;

    @Override
    protected String role() {
        return "cr-comparison";
    }

    @Override
    protected void createBody(Composite body) {
        body.setLayout(new org.eclipse.swt.layout.FillLayout());
        SashForm sash = new SashForm(body, SWT.VERTICAL);
        scroll = new ScrolledComposite(sash, SWT.V_SCROLL);
        scroll.setExpandHorizontal(true);
        scroll.setExpandVertical(true);
        charts = new Composite(scroll, SWT.NONE);
        GridLayoutFactory.fillDefaults().applyTo(charts);
        scroll.setContent(charts);
        scroll.addListener(SWT.Resize, e -> relayout());
        chart = new ChartBox(charts, "cr-comparison-chart", false);
        Composite bottom = new Composite(sash, SWT.NONE);
        GridLayoutFactory.fillDefaults().applyTo(bottom);
        table = new RunTable<>(bottom, "cr-comparison-table", -1);
        sash.setWeights(68, 32);

        csv = new CsvExport(getViewSite(), table.control(), () -> {
            ShownRuns s = shown();
            Table<ComparisonRow> t = table.shown();
            return s == null || t == null ? null
                    : new CsvExport.Export(s.stem() + "-comparison.csv", s.traceFile(), t);
        });
        png = new FileExport(getViewSite(), table.control(), "png",
                "Export the comparison chart as shown, as PNG", () -> content("png"));
        svg = new FileExport(getViewSite(), table.control(), "svg",
                "Export the comparison chart as shown, as SVG (text stays text)", () -> content("svg"));
        IToolBarManager bar = getViewSite().getActionBars().getToolBarManager();
        bar.add(png.action());
        bar.add(svg.action());
        bar.add(csv.action("Export the runs' table as CSV"));
        bar.add(CsvExport.copyAction(table.control(), "Copy the runs' table as CSV", table::csv));
        getViewSite().getActionBars().updateActionBars();
    }

    private FileExport.@Nullable Content content(String extension) throws java.io.IOException {
        ShownRuns s = shown();
        if (s == null || chart.chart() == null) {
            return null;
        }
        byte[] bytes = extension.equals("png") ? chart.png() : chart.svg();
        return new FileExport.Content(s.stem() + "-comparison." + extension, s.traceFile(), bytes);
    }

    @Override
    protected void show(ShownRuns runs) {
        ChartPalette palette = ChartBox.palette();
        ComparisonChartBuilder builder = new ComparisonChartBuilder(palette)
                .title(runs.source() instanceof org.phos.workbench.ui.model.ExperimentSelection e
                        ? e.trace().name() + ": C/R policies on " + runs.machines() // simulate's title
                        : "C/R runs of two experiments on " + runs.machines());
        JFreeChart built = builder.build(runs.metrics());
        LaneBytesChartBuilder lanes = new LaneBytesChartBuilder(palette);
        lanes.addPanels(built, runs.metrics());
        chartHeight = builder.suggestedHeight() + lanes.addedHeight();
        chart.setChart(built, palette, chartHeight);
        var c = chart.control();
        if (c != null) {
            c.setData(TracesView.ROLE, "cr-comparison-chart");
            GridDataFactory.fillDefaults().grab(true, false).hint(200, chartHeight).applyTo(c);
        }
        table.show(ComparisonRow.table(runs.metrics()));
        relayout();
    }

    private void relayout() {
        int width = Math.max(300, scroll.getClientArea().width);
        Point size = charts.computeSize(width, SWT.DEFAULT);
        scroll.setMinSize(300, Math.max(size.y, chartHeight));
        charts.layout(true, true);
    }

    @Override
    protected String headerNote(ShownRuns runs) {
        return ". Bars: each run in its own colour; lanes in their timeline colours (C/R warm, copy engines teal).";
    }

    /** The chart shown. */
    public ChartBox chart() {
        return chart;
    }

    /** The table shown. */
    public RunTable<ComparisonRow> table() {
        return table;
    }

    /** Export CSV. */
    public CsvExport csvExport() {
        return csv;
    }

    /** Export PNG. */
    public FileExport pngExport() {
        return png;
    }

    /** Export SVG. */
    public FileExport svgExport() {
        return svg;
    }
}
