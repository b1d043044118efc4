package org.phos.workbench.internal.ui.timeline.cr;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.internal.ui.timeline.SvgTimelineWriter;
import org.phos.workbench.internal.ui.timeline.TimeWindow;
import org.phos.workbench.internal.ui.timeline.TimelineCanvas;
import org.phos.workbench.internal.ui.timeline.TimelinePainter;
import org.phos.workbench.internal.ui.timeline.TraceTimelineView;
import org.phos.workbench.ui.PhoenixUi;
import org.phos.workbench.ui.model.ExperimentComparison;
import org.phos.workbench.ui.model.ExperimentSelection;

/**
 * C/R Compare: two runs, of one experiment (picked in the two panes' combos) or of two experiments (an
 * {@link ExperimentComparison}, possibly of two different traces), as two C/R timelines stacked on one time axis: both
 * span the longer run, and zooming or panning one moves the other to the same simulated window. Below them a table of
 * their metrics and the difference, right minus left, absolute and in percent of the left. Exports what is shown:
 * PNG and SVG of both timelines stacked, Chrome JSON and CSV of each side's window ({@code NAME-left},
 * {@code NAME-right}) and the table ({@code NAME-metrics.csv}).
 */
public final class CrCompareView extends ViewPart {
    /** The view id (the contract's). */
    public static final String ID = PhoenixUi.CR_COMPARE_VIEW_ID;

    private final ISelectionListener selectionListener = this::selectionChanged;
    private CrTimelinePane left;
    private CrTimelinePane right;
    private Table table;
    private Label details;
    private Button export;
    private boolean syncing;
    private List<MetricDifference> rows = List.of();

    @Override
    public void createPartControl(Composite parent) {
        Composite root = new Composite(parent, SWT.NONE);
        GridLayout gl = new GridLayout(2, false);
        gl.marginWidth = 0;
        gl.marginHeight = 0;
        root.setLayout(gl);
        SashForm sash = new SashForm(root, SWT.VERTICAL);
        sash.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true, 2, 1));
        left = new CrTimelinePane(sash, "left", callbacks(true));
        right = new CrTimelinePane(sash, "right", callbacks(false));
        table = new Table(sash, SWT.BORDER | SWT.FULL_SELECTION);
        table.setData(TraceTimelineView.ROLE, "compare-table");
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        String[] headers = { "Metric", "Left", "Right", "Right - left", "%" };
        int[] widths = { 190, 120, 120, 120, 80 };
        for (int i = 0; i < headers.length; i++) {
            TableColumn c = new TableColumn(table, i == 0 ? SWT.LEFT : SWT.RIGHT);
            c.setText(headers[i]);
            c.setWidth(widths[i]);
        }
        sash.setWeights(38, 38, 24);
        details = new Label(root, SWT.NONE);
        details.setData(TraceTimelineView.ROLE, "compare-details");
        details.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        details.setText("Two runs on one time axis: zoom or pan one, both move. Click an interval for its details.");
        export = new Button(root, SWT.PUSH);
        export.setText("Export...");
        export.setData(TraceTimelineView.ROLE, "compare-export");
        export.setToolTipText(
                "PNG or SVG of both timelines as shown; Chrome JSON or CSV of each side's window (and the table)");
        export.addListener(SWT.Selection, e -> exportMenu());
        left.canvas().addWindowListener(w -> follow(right, w));
        right.canvas().addWindowListener(w -> follow(left, w));
        left.onInstalled(p -> installed());
        right.onInstalled(p -> installed());
        getSite().getPage().addSelectionListener(selectionListener);
    }

    private TimelineCanvas.Callbacks callbacks(boolean isLeft) {
        return new TimelineCanvas.Callbacks() {
            @Override
            public void picked(int item) {
                CrTimelinePane p = isLeft ? left : right;
                CrTimelineContent c = p.content();
                ExperimentSelection e = p.experiment();
                if (c == null || e == null) {
                    return;
                }
                TimelinePainter.Marks m = p.canvas().marks();
                p.canvas().setMarks(new TimelinePainter.Marks(item, m.rangeFrom(), m.rangeTo()));
                details.setText(item < 0 ? "Nothing under the mouse."
                        : (isLeft ? "Left: " : "Right: ") + CrItemDetails.describe(c, item, e.trace().trace()));
            }

            @Override
            public void rangeSelected(long fromNs, long toNs) {
            }

            @Override
            public void step(int direction) {
            }
        };
    }

    @Override
    public void dispose() {
        getSite().getPage().removeSelectionListener(selectionListener);
        super.dispose();
    }

    @Override
    public void setFocus() {
        left.canvas().control().setFocus();
    }

    /** An experiment: its first two runs; a comparison: the first run of each experiment. */
    public void selectionChanged(IWorkbenchPart part, ISelection selection) {
        if (part == this || !(selection instanceof IStructuredSelection s) || s.size() != 1) {
            return;
        }
        Object o = s.getFirstElement();
        if (o instanceof ExperimentComparison c) {
            compare(c);
        } else if (o instanceof ExperimentSelection e && (e != left.experiment() || e != right.experiment())) {
            compare(e, 0, Math.min(1, e.result().runs().size() - 1));
        }
    }

    /** Compares runs {@code l} and {@code r} of experiment {@code e}. */
    public void compare(ExperimentSelection e, int l, int r) {
        rows = List.of(); // no content description: each pane's head names its experiment, trace and run
        left.show(e, l);
        right.show(e, r);
    }

    /** Compares the first runs of two experiments (of one trace or two). */
    public void compare(ExperimentComparison c) {
        rows = List.of();
        left.show(c.left(), 0);
        right.show(c.right(), 0);
    }

    private void installed() {
        CrTimelineContent l = left.content();
        CrTimelineContent r = right.content();
        if (!left.isReady() || !right.isReady() || l == null || r == null) {
            return;
        }
        // one time axis: both span the longer run, from the same window
        long from = Math.min(l.start(), r.start());
        long to = Math.max(l.end(), r.end());
        left.canvas().setIndex(l, from, to);
        right.canvas().setIndex(r, from, to);
        rows = MetricDifference.of(l.run().metrics(), r.run().metrics());
        table.removeAll();
        for (MetricDifference d : rows) {
            TableItem item = new TableItem(table, SWT.NONE);
            double diff = d.difference();
            item.setText(new String[] { d.metric(), d.format(d.left()), d.format(d.right()),
                    (diff > 0 ? "+" : "") + d.format(diff), d.formatPercent() });
        }
    }

    private void follow(CrTimelinePane other, TimeWindow w) {
        if (syncing || !other.isReady()) {
            return;
        }
        syncing = true;
        try {
            other.canvas().showWindow(w.fromNs(), w.toNs());
        } finally {
            syncing = false;
        }
    }

    // export

    private void exportMenu() {
        Menu menu = new Menu(export);
        for (CrTimelineExport.Format f : CrTimelineExport.Format.values()) {
            MenuItem item = new MenuItem(menu, SWT.PUSH);
            item.setText(f.label() + " ...");
            item.addListener(SWT.Selection, e -> {
                FileDialog d = new FileDialog(export.getShell(), SWT.SAVE);
                d.setOverwrite(true);
                d.setFilterExtensions(new String[] { "*." + f.extension() });
                d.setFileName("compare." + f.extension());
                String file = d.open();
                if (file != null) {
                    try {
                        details.setText("Exported " + f.label() + ": " + export(f, Path.of(file)));
                    } catch (IOException | RuntimeException ex) {
                        MessageDialog.openError(export.getShell(), "Export failed",
                                "Cannot write " + file + ": " + ex.getMessage());
                    }
                }
            });
        }
        menu.setLocation(export.toDisplay(0, export.getSize().y));
        menu.setVisible(true);
    }

    /**
     * Writes what the view shows as {@code format}: one PNG or SVG of both timelines; for Chrome JSON and CSV one file
     * per side ({@code -left}, {@code -right}) and, for CSV, the table ({@code -metrics}). Returns the files written.
     */
    public List<Path> export(CrTimelineExport.Format format, Path file) throws IOException {
        CrTimelineContent l = left.content();
        CrTimelineContent r = right.content();
        if (l == null || r == null) {
            throw new IllegalStateException("no runs are compared");
        }
        Path out = CrTimelineExport.withExtension(file, format);
        TimeWindow w = visibleRange();
        List<Path> written = new ArrayList<>();
        switch (format) {
            case PNG -> {
                CrTimelineExport.png(List.of(left.canvas(), right.canvas()), List.of("Left: " + left.headText(),
                        "Right: " + right.headText()), out);
                written.add(out);
            }
            case SVG -> {
                CrTimelineExport.svg(List.of(
                        new SvgTimelineWriter.Panel("Left: " + left.headText(), l, w, left.canvas().palette()),
                        new SvgTimelineWriter.Panel("Right: " + right.headText(), r, right.canvas().navigator().window(),
                                right.canvas().palette())),
                        Math.max(800, left.canvas().control().getSize().x), out);
                written.add(out);
            }
            case CHROME_JSON -> {
                Path a = CrTimelineExport.withSuffix(out, "-left");
                Path b = CrTimelineExport.withSuffix(out, "-right");
                CrTimelineExport.chromeJson(l, w, a);
                CrTimelineExport.chromeJson(r, right.canvas().navigator().window(), b);
                written.addAll(List.of(a, b));
            }
            case CSV -> {
                Path a = CrTimelineExport.withSuffix(out, "-left");
                Path b = CrTimelineExport.withSuffix(out, "-right");
                Path m = CrTimelineExport.withSuffix(out, "-metrics");
                CrTimelineExport.csv(l, w, a);
                CrTimelineExport.csv(r, right.canvas().navigator().window(), b);
                writeMetrics(m);
                written.addAll(List.of(a, b, m));
            }
        }
        return written;
    }

    private void writeMetrics(Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("metric,unit,left,right,difference,percent\n");
            for (MetricDifference d : rows) {
                w.write(String.format(Locale.ROOT, "%s,%s,%s,%s,%s,%s%n", d.metric().replace(",", ";"), d.unit(),
                        num(d.left()), num(d.right()), num(d.difference()), num(d.percent())));
            }
        }
    }

    private static String num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "" : v == Math.rint(v) && Math.abs(v) < 1e15
                ? Long.toString((long) v) : Double.toString(v);
    }

    // accessors for tests

    public boolean isReady() {
        return left.isReady() && right.isReady() && !rows.isEmpty();
    }

    public CrTimelinePane left() {
        return left;
    }

    public CrTimelinePane right() {
        return right;
    }

    /** The table's rows as computed. */
    public List<MetricDifference> rows() {
        return rows;
    }

    /** The table's cells as shown, row by row. */
    public List<String[]> shownRows() {
        List<String[]> out = new ArrayList<>();
        for (TableItem i : table.getItems()) {
            String[] r = new String[table.getColumnCount()];
            for (int c = 0; c < r.length; c++) {
                r[c] = i.getText(c);
            }
            out.add(r);
        }
        return out;
    }

    /** The shared window (the left timeline's). */
    public TimeWindow visibleRange() {
        return left.canvas().navigator().window();
    }

    public @Nullable String detailsText() {
        return details.getText();
    }
}
