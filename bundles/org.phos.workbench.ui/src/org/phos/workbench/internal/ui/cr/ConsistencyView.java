package org.phos.workbench.internal.ui.cr;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.action.IToolBarManager;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PartInitException;
import org.phos.workbench.analysis.core.BufferQuery;
import org.phos.workbench.analysis.core.BufferRow;
import org.phos.workbench.analysis.core.experiment.ConsistencyVerdict;
import org.phos.workbench.analysis.core.experiment.ViolationRow;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.cr.core.trace.TraceBuffers;
import org.phos.workbench.internal.ui.accuracy.CsvExport;
import org.phos.workbench.internal.ui.accuracy.SpeculationTheme;
import org.phos.workbench.internal.ui.buffers.BuffersView;
import org.phos.workbench.internal.ui.launches.Analysis;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.PhoenixUi;
import org.phos.workbench.ui.model.BufferSelection;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.ViewSelectionProvider;

/**
 * "Consistency": each run's verdict (consistent, INCONSISTENT, not checked: {@link ConsistencyVerdict}) over the
 * violations of all runs ({@link ViolationRow}: violations.csv's columns, then the launch and the allocation they
 * point at). A double click (or Enter) on a violation goes to it in the trace views: its launch is selected
 * ({@link LaunchSelection}: Launches, the timeline, Accesses) and then its buffer ({@link BufferSelection}: Buffers
 * and Properties), with Launches and Properties brought on screen; Buffers, in this view's stack, selects the
 * allocation without covering this view, so the next violation stays a double click away. Export CSV and Copy write the violations.
 */
public final class ConsistencyView extends CrView {
    /** The view id in plugin.xml. */
    public static final String ID = PhoenixUi.CR_CONSISTENCY_VIEW_ID;
    /** How long a buffer selection waits for the Buffers view to list a trace it has just been asked to show. */
    private static final int BUFFER_WAIT_MS = 10_000;

    private final ViewSelectionProvider provider = new ViewSelectionProvider();
    private RunTable<ConsistencyVerdict> verdicts;
    private RunTable<ViolationRow> violations;
    private org.eclipse.swt.widgets.Label detail;
    private SashForm sash;
    private final Map<ViolationRow, LoadedTrace> traces = new IdentityHashMap<>();
    private CsvExport csv;
    private String opened = "";
    private @Nullable ViolationRow lastRow;
    private long lastOpenNanos;

    @Override
    protected String role() {
        return "cr-consistency";
    }

    @Override
    protected void createBody(Composite body) {
        body.setLayout(new org.eclipse.swt.layout.FillLayout());
        sash = new SashForm(body, SWT.VERTICAL);
        Composite top = new Composite(sash, SWT.NONE);
        GridLayoutFactory.fillDefaults().applyTo(top);
        verdicts = new RunTable<>(top, "cr-verdicts", -1);
        Composite bottom = new Composite(sash, SWT.NONE);
        GridLayoutFactory.fillDefaults().applyTo(bottom);
        // every column as wide as its text (the table scrolls sideways), and the selected violation's detail in full
        violations = new RunTable<>(bottom, "cr-violations", -1);
        detail = new org.eclipse.swt.widgets.Label(bottom, SWT.WRAP);
        detail.setData(org.phos.workbench.internal.ui.TracesView.ROLE, "cr-violation-detail");
        detail.setText("Select a violation to read it; double-click (or Enter) to go to its launch and buffer.");
        org.eclipse.jface.layout.GridDataFactory.fillDefaults().grab(true, false).hint(100, SWT.DEFAULT)
                .applyTo(detail);
        violations.control().addListener(SWT.Selection, e -> {
            if (e.item instanceof TableItem item && item.getData() instanceof ViolationRow row) {
                detail.setText(row.run() + ": " + row.violation().detail()
                        + (row.launch() >= 0 ? " (launch " + row.launch() + ")" : ""));
                detail.getParent().layout(true, true);
            }
        });
        sash.setWeights(28, 72);
        var control = violations.control();
        // Enter or a double click (GTK reports a double click as DefaultSelection, not always: both are heard, and a
        // row is opened once per gesture)
        control.addListener(SWT.DefaultSelection, e -> {
            TableItem item = e.item instanceof TableItem i ? i
                    : control.getSelectionIndex() >= 0 ? control.getItem(control.getSelectionIndex()) : null;
            if (item != null && item.getData() instanceof ViolationRow row) {
                openOnce(row);
            }
        });
        control.addListener(SWT.MouseDoubleClick, e -> {
            TableItem item = control.getItem(new org.eclipse.swt.graphics.Point(e.x, e.y));
            if (item != null && item.getData() instanceof ViolationRow row) {
                openOnce(row);
            }
        });
        getSite().setSelectionProvider(provider);
        csv = new CsvExport(getViewSite(), violations.control(), () -> {
            ShownRuns s = shown();
            Table<ViolationRow> t = violations.shown();
            return s == null || t == null ? null
                    : new CsvExport.Export(s.stem() + "-violations.csv", s.traceFile(), t);
        });
        IToolBarManager bar = getViewSite().getActionBars().getToolBarManager();
        bar.add(csv.action("Export the violations as CSV (violations.csv's columns, then launch and allocation)"));
        bar.add(CsvExport.copyAction(violations.control(), "Copy the violations as CSV", violations::csv));
        getViewSite().getActionBars().updateActionBars();
    }

    @Override
    protected void show(ShownRuns runs) {
        List<ConsistencyVerdict> v = new ArrayList<>();
        List<ViolationRow> rows = new ArrayList<>();
        Map<Trace, TraceBuffers> buffers = new IdentityHashMap<>();
        traces.clear();
        for (ShownRuns.Run r : runs.runs()) {
            v.add(ConsistencyVerdict.of(r.label(), r.run().metrics()));
            Trace t = r.trace().trace();
            TraceBuffers b = buffers.computeIfAbsent(t, TraceBuffers::of);
            for (ViolationRow row : ViolationRow.of(r.label(), r.run().metrics(), t, b)) {
                rows.add(row);
                traces.put(row, r.trace());
            }
        }
        verdicts.show(Table.of(ConsistencyVerdict.TABLE, v));
        int top = Math.max(20, Math.min(45, 12 + 7 * v.size())); // room for every verdict of a few runs
        sash.setWeights(top, 100 - top);
        violations.show(Table.of(ViolationRow.TABLE, rows));
        // the verdict in its colour: red for a wrong image, green for a checked one, grey when nothing was checked
        int verdictColumn = ConsistencyVerdict.TABLE.headers().indexOf("verdict");
        for (int i = 0; i < verdicts.control().getItemCount(); i++) {
            ConsistencyVerdict c = verdicts.row(i);
            String key = c.inconsistent() ? "missed-write" : c.report().checked() ? "exact" : "unreliable";
            verdicts.control().getItem(i).setForeground(verdictColumn, SpeculationTheme.color(key));
        }
    }

    @Override
    protected String headerNote(ShownRuns runs) {
        long n = runs.runs().stream().mapToLong(r -> r.run().metrics().consistency().violations().size()).sum();
        return n == 0 ? ". No violation." : String.format(Locale.ROOT,
                ". %d violation%s: double-click one to select its launch and buffer.", n, n == 1 ? "" : "s");
    }

    private void openOnce(ViolationRow row) {
        long now = System.nanoTime();
        if (row == lastRow && now - lastOpenNanos < 500_000_000L) {
            return;
        }
        lastRow = row;
        lastOpenNanos = now;
        open(row);
    }

    /** Goes to {@code row}: selects its launch, then its buffer, in the trace views. */
    public void open(ViolationRow row) {
        LoadedTrace trace = traces.get(row);
        if (trace == null) {
            return;
        }
        IWorkbenchPage page = getSite().getPage();
        BuffersView buffersView = null;
        try {
            page.showView(LaunchesView.ID, null, IWorkbenchPage.VIEW_VISIBLE);
            page.showView(org.phos.workbench.internal.ui.properties.PropertiesView.ID, null,
                    IWorkbenchPage.VIEW_VISIBLE);
            IViewPart b = page.showView(BuffersView.ID, null, IWorkbenchPage.VIEW_VISIBLE);
            buffersView = b instanceof BuffersView bv ? bv : null;
        } catch (PartInitException e) {
            status("Cannot open the Launches or Buffers view: " + e.getMessage(), true);
        }
        StringBuilder said = new StringBuilder("Violation of " + row.run() + ": ");
        if (row.launch() >= 0) {
            provider.setSelection(new StructuredSelection(new LaunchSelection(trace, row.launch())));
            said.append("launch ").append(row.launch()).append(" (event ").append(row.violation().opIndex())
                    .append(")");
        } else {
            said.append("operation ").append(row.violation().opIndex()).append(" is not a launch");
        }
        BufferRow buffer = buffer(trace, row.allocatedAt());
        if (buffer != null) {
            BufferSelection selected = new BufferSelection(trace, buffer);
            provider.setSelection(new StructuredSelection(selected));
            said.append(", buffer ").append(row.violation().buffer()).append(" = allocation 0x")
                    .append(Long.toHexString(buffer.base())).append(" (event ").append(buffer.allocatedAt())
                    .append(")");
            if (buffersView != null) {
                revealWhenListed(buffersView, selected, System.currentTimeMillis() + BUFFER_WAIT_MS);
            }
        } else {
            said.append(", buffer ").append(row.violation().buffer()).append(" has no allocation in the trace");
        }
        opened = said.toString();
        status(opened, false);
    }

    /**
     * The Buffers view lists a trace it was just asked to show in a Job and reveals a buffer only from its list:
     * selects the buffer again once the list is there (unless something else has been selected meanwhile).
     */
    private void revealWhenListed(BuffersView view, BufferSelection selected, long deadline) {
        var display = violations.control().getDisplay();
        display.timerExec(100, () -> {
            if (violations.control().isDisposed() || provider.getSelection() instanceof StructuredSelection s
                    && s.getFirstElement() != selected) {
                return;
            }
            BufferRow now = view.selectedBuffer();
            if (view.trace() == selected.trace() && !view.rows().isEmpty()) {
                if (now == null || now.allocatedAt() != selected.buffer().allocatedAt()) {
                    provider.setSelection(new StructuredSelection(selected));
                }
            } else if (System.currentTimeMillis() < deadline) {
                revealWhenListed(view, selected, deadline);
            }
        });
    }

    private static @Nullable BufferRow buffer(LoadedTrace trace, int allocatedAt) {
        if (allocatedAt < 0) {
            return null;
        }
        for (BufferRow b : Analysis.session().buffers(new BufferQuery(trace.trace(), null), null).rows()) {
            if (b.allocatedAt() == allocatedAt) {
                return b;
            }
        }
        return null;
    }

    private void status(String message, boolean error) {
        var line = getViewSite().getActionBars().getStatusLineManager();
        if (error) {
            line.setErrorMessage(message);
        } else {
            line.setErrorMessage(null);
            line.setMessage(message);
        }
    }

    /** What the last double click went to, as the status line said it ("" before one). */
    public String opened() {
        return opened;
    }

    /** The verdicts shown. */
    public RunTable<ConsistencyVerdict> verdicts() {
        return verdicts;
    }

    /** The violations shown. */
    public RunTable<ViolationRow> violations() {
        return violations;
    }

    /** Export CSV (the violations). */
    public CsvExport csvExport() {
        return csv;
    }
}
