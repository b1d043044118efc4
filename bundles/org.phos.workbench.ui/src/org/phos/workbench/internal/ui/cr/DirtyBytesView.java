package org.phos.workbench.internal.ui.cr;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.action.IToolBarManager;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.swt.widgets.Composite;
import org.phos.workbench.cr.charts.ChartPalette;
import org.phos.workbench.cr.charts.DirtyBytesChartBuilder;
import org.phos.workbench.ui.PhoenixUi;
import org.phos.workbench.ui.model.ExperimentComparison;

/**
 * "Dirty bytes": the bytes written or allocated after each run's checkpoint instant, over simulated time, one step
 * line per run in its colour ({@link DirtyBytesChartBuilder}, the chart {@code simulate} writes as dirty.png); for a
 * single run also the copy-on-write budget in use and the checkpoint markers; of two compared experiments, the
 * second one's runs are dashed (two runs that dirty the same bytes stay both visible). Drag over the chart (left to right) or
 * Ctrl+wheel to zoom the time axis, drag to the left or Reset zoom to see it all; the exports draw it as shown.
 */
public final class DirtyBytesView extends CrView {
    /** The view id in plugin.xml. */
    public static final String ID = PhoenixUi.CR_DIRTY_BYTES_VIEW_ID;

    private Composite area;
    private ChartBox chart;
    private FileExport png;
    private FileExport svg;

    @Override
    protected String role() {
        return "cr-dirty";
    }

    @Override
    protected void createBody(Composite body) {
        area = body;
        GridLayoutFactory.fillDefaults().applyTo(area);
        chart = new ChartBox(area, "cr-dirty-chart", true);
        png = new FileExport(getViewSite(), area, "png", "Export the dirty-bytes chart as shown (zoom included), as PNG",
                () -> content("png"));
        svg = new FileExport(getViewSite(), area, "svg", "Export the dirty-bytes chart as shown (zoom included), as SVG",
                () -> content("svg"));
        Action reset = new Action("Reset zoom") {
            @Override
            public void run() {
                chart.resetZoom();
            }
        };
        reset.setToolTipText("Show the whole time axis again");
        IToolBarManager bar = getViewSite().getActionBars().getToolBarManager();
        bar.add(reset);
        bar.add(png.action());
        bar.add(svg.action());
        getViewSite().getActionBars().updateActionBars();
    }

    private FileExport.@Nullable Content content(String extension) throws java.io.IOException {
        ShownRuns s = shown();
        if (s == null || chart.chart() == null) {
            return null;
        }
        byte[] bytes = extension.equals("png") ? chart.png() : chart.svg();
        return new FileExport.Content(s.stem() + "-dirty." + extension, s.traceFile(), bytes);
    }

    @Override
    protected void show(ShownRuns runs) {
        ChartPalette palette = ChartBox.palette();
        // long series are thinned per pixel of this width: four samples' worth per pixel on screen keeps the steps'
        // detail through a zoom of a few times (the series are not rebuilt on zoom)
        int width = 4 * Math.max(400, area.getClientArea().width);
        DirtyBytesChartBuilder builder = new DirtyBytesChartBuilder(palette).widthPx(width)
                .title("Dirty bytes after the checkpoint instant (" + runs.machines() + ")");
        org.jfree.chart.JFreeChart built = builder.build(runs.timelines());
        if (runs.source() instanceof ExperimentComparison c
                && built.getPlot() instanceof org.jfree.chart.plot.XYPlot plot) {
            // the second experiment's runs dashed: where two runs dirty the same bytes, both lines stay visible
            String second = c.right().result().name() + "/" + c.right().trace().name() + ": ";
            java.awt.BasicStroke dashed = new java.awt.BasicStroke(2f, java.awt.BasicStroke.CAP_BUTT,
                    java.awt.BasicStroke.JOIN_MITER, 10f, new float[] { 7f, 5f }, 0f);
            plot.setSeriesRenderingOrder(org.jfree.chart.plot.SeriesRenderingOrder.FORWARD); // dashes drawn on top
            for (int i = 0; i < plot.getDataset().getSeriesCount(); i++) {
                if (String.valueOf(plot.getDataset().getSeriesKey(i)).startsWith(second)) {
                    plot.getRenderer().setSeriesStroke(i, dashed);
                }
            }
        }
        chart.setChart(built, palette, 300);
        var c = chart.control();
        if (c != null) {
            GridDataFactory.fillDefaults().grab(true, true).applyTo(c);
            area.layout(true, true);
        }
    }

    @Override
    protected String headerNote(ShownRuns runs) {
        return ". Drag across the chart or Ctrl+wheel to zoom the time axis; Reset zoom shows it all.";
    }

    /** The chart shown. */
    public ChartBox chart() {
        return chart;
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
