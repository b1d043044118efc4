package org.phos.workbench.internal.ui.properties;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.FillLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.analysis.core.LaunchQuery;
import org.phos.workbench.analysis.core.LaunchRow;
import org.phos.workbench.analysis.core.table.Column;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.launches.Analysis;
import org.phos.workbench.trace.core.TraceHeader;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * "Properties" of what is selected: a launch's row of the analysis layer's launch table (every column, parameters
 * decoded as allocation+offset), or a trace's header. A small view of its own rather than the platform's property
 * sheet.
 */
public final class PropertiesView extends ViewPart {
    /** The view id in plugin.xml. */
    public static final String ID = "org.phos.workbench.ui.propertiesView";

    private Table table;
    private final ISelectionListener listener = this::selectionChanged;

    @Override
    public void createPartControl(Composite parent) {
        parent.setLayout(new FillLayout());
        table = new Table(parent, SWT.BORDER | SWT.FULL_SELECTION | SWT.MULTI);
        table.setData(TracesView.ROLE, "properties");
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        new TableColumn(table, SWT.LEFT).setText("Property");
        new TableColumn(table, SWT.LEFT).setText("Value");
        table.getColumn(0).setWidth(110);
        table.getColumn(1).setWidth(400);
        getSite().getPage().addPostSelectionListener(listener);
        ISelection current = getSite().getPage().getSelection();
        if (current != null) {
            selectionChanged(null, current);
        }
    }

    private void selectionChanged(@org.eclipse.jdt.annotation.Nullable IWorkbenchPart part, ISelection selection) {
        if (part == this || !(selection instanceof IStructuredSelection s) || s.size() != 1) {
            return;
        }
        Object o = s.getFirstElement();
        if (o instanceof LaunchSelection ls) {
            show(launchProperties(ls));
        } else if (o instanceof LoadedTrace t) {
            show(traceProperties(t));
        } else if (o instanceof org.phos.workbench.ui.model.BufferSelection b) { // i11-buffers
            show(org.phos.workbench.internal.ui.buffers.BuffersView.properties(b));
        } else if (o instanceof org.phos.workbench.ui.model.TimeSelection ts) { // ui-polish
            show(rangeProperties(ts));
        }
    }

    /** The rows shown for a launch: every column of the launch table, as the CLI prints them. */
    public static List<String[]> launchProperties(LaunchSelection ls) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] { "trace", ls.trace().name() });
        List<LaunchRow> found = Analysis.session()
                .launches(LaunchQuery.page(ls.trace().trace(), ls.launch(), 1), null).rows();
        if (!found.isEmpty()) {
            for (Column<LaunchRow> c : LaunchRow.TABLE.columns()) {
                if (c.header().equals("params")) {
                    List<String> params = found.get(0).params();
                    for (int i = 0; i < params.size(); i++) {
                        rows.add(new String[] { "param " + i, params.get(i) });
                    }
                } else if (c.header().equals("launch")) { // i14-incr: a live trace's launch as its stream numbers it
                    rows.add(new String[] { "launch",
                            Long.toString(Analysis.session().launchNumber(ls.trace().trace(), ls.launch())) });
                } else if (c.header().equals("java_site")) { // i14-jsrc: class.method, file:line; none: no row
                    var site = org.phos.workbench.internal.ui.launches.JavaSourceSite.parse(found.get(0).javaSite());
                    if (site != null) {
                        rows.add(new String[] { "Java call site", site.label() });
                    }
                } else {
                    rows.add(new String[] { c.header(), c.format(found.get(0)) });
                }
            }
        }
        return rows;
    }

    // i14-cupti: begin
    /** "; CUDA events instead of CUPTI in 2 intervals (71.0 ms, checkpoint)" when the trace says so, else "". */
    private static String gpuTimingGaps(LoadedTrace t) {
        var end = t.trace().end();
        String g = end == null ? "" : end.timingGapsText();
        return g.isEmpty() ? "" : "; " + g;
    }
    // i14-cupti: end

    // ui-polish: begin
    /**
     * The rows shown for a time range dragged on a timeline (the Trace Timeline, or the C/R Timeline mapped onto its
     * trace's clock): where it starts and ends after the trace's first event, its length, and the launches issued in
     * it (the count the Launches view filters to).
     */
    public static List<String[]> rangeProperties(org.phos.workbench.ui.model.TimeSelection ts) {
        var t = ts.trace().trace();
        long origin = t.eventCount() == 0 ? ts.fromNs() : t.hostNs(0);
        int launches = 0;
        for (int i = 0; i < t.launchCount(); i++) {
            long h = t.hostNs(t.launchEvent(i));
            if (Long.compareUnsigned(h, ts.fromNs()) >= 0 && Long.compareUnsigned(h, ts.toNs()) <= 0) {
                launches++;
            }
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] { "trace", ts.trace().name() });
        rows.add(new String[] { "range from", "+" + org.phos.workbench.analysis.core.report.ReportFigures
                .duration(ts.fromNs() - origin) + " (" + Long.toUnsignedString(ts.fromNs()) + " ns host)" });
        rows.add(new String[] { "range to", "+" + org.phos.workbench.analysis.core.report.ReportFigures
                .duration(ts.toNs() - origin) + " (" + Long.toUnsignedString(ts.toNs()) + " ns host)" });
        rows.add(new String[] { "length", org.phos.workbench.analysis.core.report.ReportFigures.duration(ts.toNs() - ts.fromNs()) });
        rows.add(new String[] { "launches in it", Integer.toString(launches) });
        return rows;
    }
    // ui-polish: end

    /** The rows shown for a trace: file and header. */
    public static List<String[]> traceProperties(LoadedTrace t) {
        TraceHeader h = t.trace().header();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] { "file", t.file().toString() });
        rows.add(new String[] { "recorder", h.recorder() + " " + h.recorderVersion() });
        rows.add(new String[] { "command", String.join(" ", h.argv()) });
        rows.add(new String[] { "host", h.host() + " (pid " + h.pid() + ")" });
        rows.add(new String[] { "device", h.deviceName() + " (cc " + h.ccMajor() + "." + h.ccMinor() + ")" });
        rows.add(new String[] { "driver", Integer.toString(h.driverVersion()) });
        rows.add(new String[] { "runtime", Integer.toString(h.runtimeVersion()) });
        rows.add(new String[] { "GPU timing", Boolean.toString(h.gpuTiming()) + gpuTimingGaps(t) }); // i14-cupti: gaps
        rows.add(new String[] { "events", Integer.toString(t.trace().eventCount()) });
        rows.add(new String[] { "launches", Integer.toString(t.trace().launchCount()) });
        rows.add(new String[] { "warnings", Integer.toString(t.warnings().size() + t.anomalies().size()) });
        return rows;
    }

    private void show(List<String[]> rows) {
        table.removeAll();
        for (String[] r : rows) {
            new TableItem(table, SWT.NONE).setText(r);
        }
    }

    @Override
    public void dispose() {
        getSite().getPage().removePostSelectionListener(listener);
        super.dispose();
    }

    @Override
    public void setFocus() {
        table.setFocus();
    }
}
