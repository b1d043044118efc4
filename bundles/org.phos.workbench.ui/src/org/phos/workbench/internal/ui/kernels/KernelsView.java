package org.phos.workbench.internal.ui.kernels;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.dnd.Clipboard;
import org.eclipse.swt.dnd.TextTransfer;
import org.eclipse.swt.dnd.Transfer;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.ui.model.ViewSelectionProvider;
import org.phos.workbench.internal.ui.accuracy.SpeculationTheme;
import org.phos.workbench.internal.ui.accuracy.Validations;
import org.phos.workbench.speculation.core.validate.Accuracy;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * "Kernels": one row per launched kernel with its launches and GPU time, and per chosen engine the byte precision,
 * read and write recall and unsafe launches that {@code workbench validate} gives for it. Sortable by any column (click
 * the header); a double-click (or Enter) on a row selects the kernel's first launch.
 */
public final class KernelsView extends ViewPart {
	/** The view's id in plugin.xml. */
	public static final String ID = "org.phos.workbench.ui.kernelsView";

	private Label header;
	private Table table;
	private final ViewSelectionProvider provider = new ViewSelectionProvider();
	private @Nullable LoadedTrace trace;
	private @Nullable Job job;
	private final List<String> engines = new ArrayList<>(Validations.DEFAULT_ENGINES);
	private final List<Row> rows = new ArrayList<>();
	private int sortColumn = -1;
	private boolean ascending = true;
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
		GridDataFactory.fillDefaults().grab(true, false).applyTo(header);
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
		column("Kernel", SWT.LEFT, 330);
		column("Launches", SWT.RIGHT, 95);
		column("GPU time", SWT.RIGHT, 95);
		// one metric of every engine side by side: precision of best next to precision of phos, and so on
		String[] metrics = { " precision", " read recall", " write recall", " unsafe" };
		int[] widths = { 125, 130, 135, 105 };
		for (int m = 0; m < metrics.length; m++) {
			for (String e : engines) {
				column(e + metrics[m], SWT.RIGHT, widths[m]);
			}
		}
		getSite().setSelectionProvider(provider);
		Action copy = new Action("Copy") {
			@Override
			public void run() {
				Clipboard c = new Clipboard(table.getDisplay());
				try {
					c.setContents(new Object[] { csv() }, new Transfer[] { TextTransfer.getInstance() });
				} finally {
					c.dispose();
				}
			}
		};
		copy.setToolTipText("Copy the kernel table as CSV");
		getViewSite().getActionBars().getToolBarManager().add(copy);
		getViewSite().getActionBars().updateActionBars();
		getSite().getPage().addSelectionListener(listener);
	}

	private void column(String title, int style, int width) {
		TableColumn c = new TableColumn(table, style);
		c.setText(title);
		c.setWidth(width);
		int index = table.getColumnCount() - 1;
		c.addListener(SWT.Selection, e -> sortBy(index));
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
		List<String> wanted = List.copyOf(engines);
		Validations.Result cached = Validations.cached(loaded, wanted);
		if (cached != null) {
			render(cached);
			return;
		}
		header.setText(loaded.name() + ": validating " + String.join(", ", wanted) + "...");
		rows.clear();
		table.removeAll();
		job = Validations.validateInBackground(loaded, wanted, job, table, result -> {
			if (trace == loaded) {
				render(result);
			}
		});
	}

	/** @return the trace shown, or null */
	public @Nullable LoadedTrace trace() {
		return trace;
	}

	private static String share(@Nullable Accuracy a, double share) {
		return a == null || a.launches() == 0 ? "-" : String.format(Locale.ROOT, "%.2f%%", share * 100);
	}

	private void render(Validations.Result result) {
		rows.clear();
		Trace t = result.trace().trace();
		Map<Integer, long[]> kernels = new LinkedHashMap<>(); // function -> launches, gpu ns, first launch
		for (int l = 0; l < t.launchCount(); l++) {
			int e = t.launchEvent(l);
			int launch = l;
			long[] k = kernels.computeIfAbsent(t.functionId(e), f -> new long[] { 0, 0, launch });
			k[0]++;
			long start = t.gpuStartNs(e);
			long end = t.gpuEndNs(e);
			if (start != 0 && Long.compareUnsigned(end, start) > 0) {
				k[1] += end - start;
			}
		}
		ValidationReport report = result.report();
		for (Map.Entry<Integer, long[]> k : kernels.entrySet()) {
			FunctionInfo f = t.functionById(k.getKey());
			int columns = 3 + 4 * engines.size();
			String[] cells = new String[columns];
			Comparable<?>[] keys = new Comparable<?>[columns];
			cells[0] = f == null ? "function #" + k.getKey() : f.displayName();
			keys[0] = cells[0];
			cells[1] = Long.toString(k.getValue()[0]);
			keys[1] = k.getValue()[0];
			cells[2] = String.format(Locale.ROOT, "%.3f ms", k.getValue()[1] / 1e6);
			keys[2] = k.getValue()[1];
			for (int i = 0; i < engines.size(); i++) {
				Accuracy a = report == null ? null : report.engines().get(i).kernels().get(k.getKey());
				int n = engines.size();
				int c = 3 + i;
				cells[c] = share(a, a == null ? 0 : a.bytePrecision());
				keys[c] = a == null || a.launches() == 0 ? -1.0 : a.bytePrecision();
				cells[c + n] = share(a, a == null ? 0 : a.readRecall());
				keys[c + n] = a == null || a.launches() == 0 ? -1.0 : a.readRecall();
				cells[c + 2 * n] = share(a, a == null ? 0 : a.writeRecall());
				keys[c + 2 * n] = a == null || a.launches() == 0 ? -1.0 : a.writeRecall();
				cells[c + 3 * n] = a == null ? "-" : Long.toString(a.unsafeLaunches());
				keys[c + 3 * n] = a == null ? -1L : a.unsafeLaunches();
			}
			rows.add(new Row(cells, keys, (int) k.getValue()[2]));
		}
		header.setText(result.trace().name() + ": " + kernels.size() + " kernels, " + t.launchCount() + " launches"
				+ (result.error() != null ? "; " + result.error() : "; '-' where no launch of the kernel was observed")
				+ ". Double-click a kernel to select its first launch.");
		fill();
		header.getParent().layout(true);
	}

	/** @return the table as CSV, rows in the order shown */
	public String csv() {
		StringBuilder b = new StringBuilder();
		for (int i = 0; i < table.getColumnCount(); i++) {
			b.append(i == 0 ? "" : ",").append(table.getColumn(i).getText().toLowerCase(Locale.ROOT).replace(' ', '_'));
		}
		b.append('\n');
		for (TableItem item : table.getItems()) {
			for (int i = 0; i < table.getColumnCount(); i++) {
				String s = item.getText(i);
				b.append(i == 0 ? "" : ",").append(s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s);
			}
			b.append('\n');
		}
		return b.toString();
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
