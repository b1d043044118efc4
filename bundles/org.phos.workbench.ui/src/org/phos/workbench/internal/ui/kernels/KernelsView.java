package org.phos.workbench.internal.ui.kernels;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.action.IToolBarManager;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.analysis.core.KernelRow;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accuracy.CsvExport;
import org.phos.workbench.internal.ui.accuracy.SpeculationPicker;
import org.phos.workbench.internal.ui.accuracy.SpeculationTheme;
import org.phos.workbench.internal.ui.accuracy.Validations;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.ViewSelectionProvider;

/**
 * "Kernels": one row per launched kernel with its launches and GPU time, and per chosen engine the byte precision,
 * read and write recall and unsafe launches that {@code workbench validate --engine ... --tool ...} gives for it (the
 * analysis layer's {@code KernelQuery}, whose table Export CSV and Copy write). Sortable by any column (click the
 * header); a double-click (or Enter) on a row selects the kernel's first launch. Engine columns have short headers
 * (the view is narrow) and say in full what they hold in their tooltips.
 */
public final class KernelsView extends ViewPart {
	/** The view's id in plugin.xml. */
	public static final String ID = "org.phos.workbench.ui.kernelsView";
	/** Column data key: what a column holds in full ("best precision", "phos unsafe", ...). */
	public static final String METRIC = "metric";

	private static final String[] METRICS = { " precision", " read recall", " write recall", " unsafe",
			" direction" };
	private static final String[] SHORT = { " prec", " R-rec", " W-rec", " unsafe", " dir" };
	private static final String[] TIPS = { ": byte precision, useful bytes / speculated bytes",
			": read recall, read pairs fully speculated as read / read pairs",
			": write recall, write pairs fully speculated as written / write pairs (must be 100%)",
			": unsafe launches (a write not speculated as written, or wrong direction)",
			": direction accuracy, pairs speculated with the observed class (read, write, read-write) / pairs "
					+ "both name" }; // i15-val: direction

	private Label header;
	private SpeculationPicker picker;
	private Table table;
	private final ViewSelectionProvider provider = new ViewSelectionProvider();
	private @Nullable LoadedTrace trace;
	private @Nullable Job job;
	private Validations.@Nullable Result shown;
	private List<String> engines = List.of();
	private final List<Row> rows = new ArrayList<>();
	private int sortColumn = -1;
	private boolean ascending = true;
	private CsvExport export;
	private final ISelectionListener listener = this::selectionChanged;

	/** One kernel: its cells as shown, their sort keys, and its first launch. */
	record Row(String[] cells, Comparable<?>[] keys, int firstLaunch) {
	}

	@Override
	public void createPartControl(Composite parent) {
		GridLayoutFactory.fillDefaults().margins(4, 4).applyTo(parent);
		header = new Label(parent, SWT.WRAP);
		header.setData(TracesView.ROLE, "kernels-header");
		header.setText("Select a launch or open a trace to see its kernels.");
		GridDataFactory.fillDefaults().grab(true, false).hint(100, SWT.DEFAULT).applyTo(header);
		picker = new SpeculationPicker(parent, Validations.SESSION.catalog(), this::choiceChanged);
		GridDataFactory.fillDefaults().grab(true, false).hint(100, SWT.DEFAULT).applyTo(picker.control());
		table = new Table(parent, SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE | SWT.V_SCROLL | SWT.H_SCROLL);
		table.setData(TracesView.ROLE, "kernels");
		table.setHeaderVisible(true);
		table.setLinesVisible(true);
		GridDataFactory.fillDefaults().grab(true, true).applyTo(table);
		table.addListener(SWT.DefaultSelection, e -> {
			if (e.item instanceof TableItem item && item.getData() instanceof Row r && trace != null) {
				provider.setSelection(new StructuredSelection(new LaunchSelection(trace, r.firstLaunch())));
			}
		});
		table.addListener(SWT.Resize, e -> fit());
		rebuildColumns(picker.engines());
		org.phos.workbench.internal.ui.theme.PhoenixThemes.onChange(table, this::fill);
		getSite().setSelectionProvider(provider);
		export = new CsvExport(getViewSite(), table, () -> {
			Validations.Result r = shown;
			return r == null || r.kernels() == null ? null
					: new CsvExport.Export(r.trace().name().replaceFirst("\\.phos$", "") + "-kernels.csv",
							r.trace().file(), r.kernels());
		});
		IToolBarManager bar = getViewSite().getActionBars().getToolBarManager();
		bar.add(export.action("Export the kernel table as CSV (the analysis layer's KernelQuery for these engines and tool)"));
		Action copy = org.phos.workbench.internal.ui.accuracy.CsvExport.copyAction(table,
		        "Copy the kernel table as CSV", this::csv);
		bar.add(copy);
		getViewSite().getActionBars().updateActionBars();
		getSite().getPage().addSelectionListener(listener);
	}

	private void rebuildColumns(List<String> wanted) {
		engines = List.copyOf(wanted);
		table.setRedraw(false);
		try {
			table.removeAll();
			for (TableColumn c : table.getColumns()) {
				c.dispose();
			}
			sortColumn = -1;
			table.setSortColumn(null);
			column("Kernel", "Kernel", SWT.LEFT, "the kernel's demangled name");
			column("Launches", "Launches", SWT.RIGHT, "launches of the kernel");
			column("GPU time", "GPU time", SWT.RIGHT, "GPU time summed over its measured launches");
			// one metric of every engine side by side: precision of best next to precision of phos, and so on
			for (int m = 0; m < METRICS.length; m++) {
				for (String e : engines) {
					column(e + METRICS[m], e + SHORT[m], SWT.RIGHT, e + TIPS[m]);
				}
			}
		} finally {
			table.setRedraw(true);
		}
		fit();
	}

	// i15-cost: begin
	/** The GPU time column says how the trace's GPU times were taken (for a sampled trace: estimated). */
	private void gpuTimeTooltip(LoadedTrace loaded) {
		for (TableColumn c : table.getColumns()) {
			if ("GPU time".equals(c.getData(METRIC))) {
				c.setToolTipText(loaded.trace().header().timingSampling().sampled()
						? "GPU time of all its launches, estimated per launch shape (function, grid, block) from the "
								+ "timed launches. " + org.phos.workbench.internal.ui.launches.LaunchesView
										.gpuTimeHow(loaded.trace())
						: "GPU time summed over its measured launches");
			}
		}
	}
	// i15-cost: end

	private void column(String metric, String title, int style, String tip) {
		TableColumn c = new TableColumn(table, style);
		c.setText(title);
		c.setToolTipText(tip);
		c.setData(METRIC, metric);
		int index = table.getColumnCount() - 1;
		c.addListener(SWT.Selection, e -> sortBy(index));
	}

	private void fit() {
		org.phos.workbench.internal.ui.accuracy.ColumnFit.fill(table, 0, 180); // names readable, figures scroll
	}

	private void sortBy(int column) {
		ascending = column == sortColumn ? !ascending : column == 0;
		sortColumn = column;
		table.setSortColumn(table.getColumn(column));
		table.setSortDirection(ascending ? SWT.UP : SWT.DOWN);
		fill();
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private void fill() {
		List<Row> sorted = new ArrayList<>(rows);
		if (sortColumn >= 0) {
			int c = sortColumn;
			Comparator<Row> cmp = (a, b) -> ((Comparable) a.keys()[c]).compareTo(b.keys()[c]);
			sorted.sort(ascending ? cmp : cmp.reversed());
		}
		table.removeAll();
		for (Row r : sorted) {
			TableItem item = new TableItem(table, SWT.NONE);
			item.setData(r);
			item.setText(r.cells());
			for (int i = 0; i < engines.size(); i++) {
				int unsafe = 3 + 3 * engines.size() + i;
				if (r.keys()[unsafe] instanceof Long n && n > 0) {
					item.setForeground(unsafe, SpeculationTheme.color("missed-write"));
				}
			}
		}
		fit();
	}

	private void choiceChanged() {
		LoadedTrace t = trace;
		rebuildColumns(picker.engines());
		if (t != null) {
			show(t);
		}
	}

	private void selectionChanged(IWorkbenchPart part, ISelection selection) {
		if (part != this && selection instanceof IStructuredSelection s && s.getFirstElement() instanceof LaunchSelection l
				&& l.trace() != trace) {
			show(l.trace());
		}
	}

	/** Shows the kernels of {@code loaded}; validation runs in a Job the first time. */
	public void show(LoadedTrace loaded) {
		trace = loaded;
		picker.setTrace(loaded.trace());
		List<String> wanted = picker.engines();
		String tool = picker.tool();
		if (!wanted.equals(engines)) {
			rebuildColumns(wanted);
		}
		gpuTimeTooltip(loaded); // i15-cost
		Validations.Result cached = Validations.cached(loaded, wanted, tool);
		if (cached != null) {
			render(cached);
			return;
		}
		shown = null;
		header.setText(loaded.name() + ": validating " + String.join(", ", wanted)
				+ (tool == null ? "" : " against " + tool) + "...");
		rows.clear();
		table.removeAll();
		job = Validations.validateInBackground(loaded, wanted, tool, job, table, result -> {
			if (trace == loaded && result.engines().equals(picker.engines()) && Objects.equals(result.tool(), picker.tool())) {
				render(result);
			}
		});
	}

	/** @return the trace shown, or null */
	public @Nullable LoadedTrace trace() {
		return trace;
	}

	/** @return the result shown, or null */
	public Validations.@Nullable Result result() {
		return shown;
	}

	/** @return the engine and tool picker */
	public SpeculationPicker picker() {
		return picker;
	}

	/** @return the Export CSV action's helper */
	public CsvExport export() {
		return export;
	}

	private static String share(KernelRow.EngineFigures f, double share) {
		return f.compared() == 0 ? "-" : String.format(Locale.ROOT, "%.2f%%", share * 100);
	}

	private void render(Validations.Result result) {
		rows.clear();
		shown = result;
		Trace t = result.trace().trace();
		var kernels = result.kernels();
		if (kernels == null) {
			table.removeAll();
			header.setText(result.trace().name() + ": " + result.error());
			header.getParent().layout(true, true);
			return;
		}
		int[] firstLaunch = new int[t.functions().stream().mapToInt(f -> f.id()).max().orElse(0) + 1];
		java.util.Arrays.fill(firstLaunch, -1);
		for (int l = t.launchCount() - 1; l >= 0; l--) {
			int f = t.functionId(t.launchEvent(l));
			if (f >= 0 && f < firstLaunch.length) {
				firstLaunch[f] = l;
			}
		}
		int n = engines.size();
		for (KernelRow k : kernels.rows()) {
			int columns = 3 + METRICS.length * n;
			String[] cells = new String[columns];
			Comparable<?>[] keys = new Comparable<?>[columns];
			cells[0] = k.kernel();
			keys[0] = cells[0];
			cells[1] = Long.toString(k.launches());
			keys[1] = k.launches();
			cells[2] = String.format(Locale.ROOT, "%.3f ms", k.gpuNs() / 1e6);
			keys[2] = k.gpuNs();
			for (int i = 0; i < n; i++) {
				KernelRow.EngineFigures f = k.engines().get(i);
				boolean none = f.compared() == 0;
				int c = 3 + i;
				cells[c] = share(f, f.precision());
				keys[c] = none ? -1.0 : f.precision();
				cells[c + n] = share(f, f.readRecall());
				keys[c + n] = none ? -1.0 : f.readRecall();
				cells[c + 2 * n] = share(f, f.writeRecall());
				keys[c + 2 * n] = none ? -1.0 : f.writeRecall();
				cells[c + 3 * n] = none ? "-" : Long.toString(f.unsafeLaunches());
				keys[c + 3 * n] = none ? -1L : f.unsafeLaunches();
				cells[c + 4 * n] = share(f, f.directionAccuracy()); // i15-val
				keys[c + 4 * n] = none ? -1.0 : f.directionAccuracy();
			}
			int fid = k.functionId();
			rows.add(new Row(cells, keys, fid >= 0 && fid < firstLaunch.length ? firstLaunch[fid] : 0));
		}
		header.setText(result.trace().name() + ": " + rows.size() + " kernels, " + t.launchCount() + " launches"
				+ (result.tool() == null ? "" : ", truth by " + result.tool())
				+ "; '-' where no launch of the kernel was judged. Double-click a kernel to select its first launch.");
		fill();
		header.getParent().layout(true, true);
	}

	/** @return the kernel table as CSV (the analysis layer's table for the engines and tool shown), or "" */
	public String csv() {
		Validations.Result r = shown;
		return r == null || r.kernels() == null ? ""
				: new String(CsvExport.csv(r.kernels()), StandardCharsets.UTF_8);
	}

	@Override
	public void setFocus() {
		table.setFocus();
	}

	@Override
	public void dispose() {
		getSite().getPage().removeSelectionListener(listener);
		Job j = job;
		if (j != null) {
			j.cancel();
		}
		super.dispose();
	}
}
