package org.phos.workbench.internal.ui.accesses;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.action.IAction;
import org.eclipse.jface.action.IToolBarManager;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.dnd.Clipboard;
import org.eclipse.swt.dnd.TextTransfer;
import org.eclipse.swt.dnd.Transfer;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accuracy.SpeculationTheme;
import org.phos.workbench.internal.ui.accuracy.Validations;
import org.phos.workbench.speculation.core.validate.AllocationVerdict;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * "Accesses": for the selected launch, one row per allocation that an engine speculated or instrumentation observed,
 * with each chosen engine's verdict (in the theme's verdict colour), its speculated and observed byte counts, and a
 * bar of useful, over-speculated and missed bytes inside the allocation. Everything shown comes from
 * {@link Validations} (the validator behind {@code workbench validate}).
 */
public final class AccessesView extends ViewPart {
	/** The view's id in plugin.xml. */
	public static final String ID = "org.phos.workbench.ui.accessesView";

	private Label header;
	private Table table;
	private final List<String> engines = new ArrayList<>(Validations.DEFAULT_ENGINES);
	private @Nullable LaunchSelection shown;
	private @Nullable Job job;
	private final List<Row> rows = new ArrayList<>();
	private final ISelectionListener listener = this::selectionChanged;

	/** One allocation of the launch: its verdict per engine (null where the engine gave none). */
	record Row(long base, long size, String kind, Map<String, AllocationVerdict> verdicts) {
	}

	@Override
	public void createPartControl(Composite parent) {
		GridLayoutFactory.fillDefaults().margins(4, 4).applyTo(parent);
		header = new Label(parent, SWT.WRAP);
		header.setData(TracesView.ROLE, "accesses-header");
		header.setText("Select a launch (Launches, Kernels, Accuracy or the timeline) to compare speculated with "
				+ "observed accesses.");
		GridDataFactory.fillDefaults().grab(true, false).applyTo(header);
		table = new Table(parent, SWT.BORDER | SWT.FULL_SELECTION | SWT.MULTI | SWT.V_SCROLL | SWT.H_SCROLL);
		table.setData(TracesView.ROLE, "accesses");
		table.setHeaderVisible(true);
		table.setLinesVisible(true);
		table.addListener(SWT.EraseItem, this::eraseBar);
		table.addListener(SWT.PaintItem, this::paintBar);
		GridDataFactory.fillDefaults().grab(true, true).applyTo(table);
		Label legend = new Label(parent, SWT.WRAP);
		legend.setText("Bytes bar, scaled to the allocation: green useful (speculated and observed), amber "
				+ "over-speculated (wasted), red missed (observed, not speculated). * the engine reached the allocation only "
				+ "through stored pointers.");
		GridDataFactory.fillDefaults().grab(true, false).applyTo(legend);
		contributeToolbar();
		rebuildColumns();
		getSite().getPage().addSelectionListener(listener);
	}

	private void contributeToolbar() {
		IToolBarManager bar = getViewSite().getActionBars().getToolBarManager();
		for (String engine : Validations.OFFERED_ENGINES) {
			Action a = new Action(engine, IAction.AS_CHECK_BOX) {
				@Override
				public void run() {
					if (isChecked() && !engines.contains(engine)) {
						engines.add(engine);
					} else if (!isChecked()) {
						engines.remove(engine);
					}
					rebuildColumns();
					LaunchSelection s = shown;
					if (s != null) {
						show(s.trace(), s.trace().trace().launchIndex(s.event()));
					}
				}
			};
			a.setChecked(engines.contains(engine));
			a.setToolTipText("Show engine " + engine + " side by side with the others");
			bar.add(a);
		}
		Action copy = new Action("Copy") {
			@Override
			public void run() {
				copy();
			}
		};
		copy.setToolTipText("Copy the table as CSV");
		bar.add(copy);
		getViewSite().getActionBars().updateActionBars();
	}

	private void rebuildColumns() {
		table.setRedraw(false);
		try {
			table.removeAll();
			for (TableColumn c : table.getColumns()) {
				c.dispose();
			}
			column("Allocation", SWT.LEFT, 120);
			column("Size", SWT.RIGHT, 75);
			column("Kind", SWT.LEFT, 55);
			for (String e : engines) {
				TableColumn verdict = column(e, SWT.LEFT, 140);
				verdict.setToolTipText("verdict of engine " + e);
				verdict.setData("verdict", e);
				column(e + " spec/obs", SWT.RIGHT, 130).setToolTipText(
						"bytes engine " + e + " speculated / bytes observed");
				TableColumn bar = column(e + " bytes", SWT.LEFT, 110);
				bar.setToolTipText("useful (green), over-speculated (amber) and missed (red) bytes of engine " + e
						+ ", scaled to the allocation");
				bar.setData("bar", e);
			}
		} finally {
			table.setRedraw(true);
		}
	}

	private TableColumn column(String title, int style, int width) {
		TableColumn c = new TableColumn(table, style);
		c.setText(title);
		c.setWidth(width);
		return c;
	}

	private void selectionChanged(IWorkbenchPart part, ISelection selection) {
		if (part != this && selection instanceof IStructuredSelection s && s.getFirstElement() instanceof LaunchSelection l
				&& !l.equals(shown)) {
			show(l.trace(), l.trace().trace().launchIndex(l.event()));
		}
	}

	/** Shows launch {@code launch} (dense index) of {@code trace}; validation runs in a Job the first time. */
	public void show(LoadedTrace trace, int launch) {
		LaunchSelection selection = new LaunchSelection(trace, launch);
		shown = selection;
		List<String> wanted = List.copyOf(engines);
		Validations.Result cached = Validations.cached(trace, wanted);
		if (cached != null) {
			render(selection, cached);
			return;
		}
		header.setText(describe(selection) + ": validating " + String.join(", ", wanted) + "...");
		table.removeAll();
		rows.clear();
		Job old = job;
		if (old != null) {
			old.cancel();
		}
		Job j = Job.create("Validating " + String.join(", ", wanted) + " on " + trace.name(), (IProgressMonitor m) -> {
			Validations.Result r;
			try {
				r = Validations.validate(trace, wanted, m);
			} catch (RuntimeException e) {
				r = new Validations.Result(trace, wanted, null, Map.of(),
						trace.name() + ": validation failed: " + e.getMessage());
			}
			Validations.Result result = r;
			if (!table.isDisposed()) {
				table.getDisplay().asyncExec(() -> {
					if (!table.isDisposed() && selection.equals(shown)) {
						render(selection, result);
					}
				});
			}
			return m.isCanceled() ? Status.CANCEL_STATUS : Status.OK_STATUS;
		});
		job = j;
		j.schedule();
	}

	/** @return the launch being shown, or null */
	public @Nullable LaunchSelection shown() {
		return shown;
	}

	/** @return the engines shown side by side, in column order */
	public List<String> engines() {
		return List.copyOf(engines);
	}

	private static String describe(LaunchSelection s) {
		Trace t = s.trace().trace();
		int e = s.event();
		FunctionInfo f = t.functionById(t.functionId(e));
		String kernel = f == null ? "function #" + t.functionId(e) : f.displayName();
		return String.format(Locale.ROOT, "Launch %d of %s: %s <<<(%d,%d,%d), (%d,%d,%d)>>>", s.launch(),
				s.trace().name(), kernel, t.gridX(e), t.gridY(e), t.gridZ(e), t.blockX(e), t.blockY(e), t.blockZ(e));
	}

	private void render(LaunchSelection s, Validations.Result result) {
		rows.clear();
		table.removeAll();
		String head = describe(s);
		if (result.error() != null) {
			header.setText(head + "\n" + result.error());
			header.getParent().layout(true);
			return;
		}
		int event = s.event();
		Map<Long, Map<String, AllocationVerdict>> byBase = new LinkedHashMap<>();
		for (Validations.Verdict v : result.at(event)) {
			byBase.computeIfAbsent(v.verdict().allocationBase(), k -> new LinkedHashMap<>()).put(v.engine(), v.verdict());
		}
		Trace t = s.trace().trace();
		for (Map.Entry<Long, Map<String, AllocationVerdict>> e : byBase.entrySet()) {
			long base = e.getKey();
			long size = -1;
			String kind = "?";
			for (int i = event - 1; i >= 0; i--) {
				if (t.kind(i) == EventKind.ALLOC && t.address(i) == base) {
					size = t.size(i);
					kind = t.allocKind(i).name().toLowerCase(Locale.ROOT);
					break;
				}
			}
			rows.add(new Row(base, size, kind, e.getValue()));
		}
		rows.sort((a, b) -> Long.compareUnsigned(a.base, b.base));
		var report = result.report();
		String truth;
		if (rows.isEmpty()) {
			truth = report != null && !report.reliability().reliable(event)
					? "The observed truth of this launch is unreliable (" + report.reliability().unreliable().get(event)
							+ "): excluded from validation, as by 'workbench validate'."
					: "The trace has no observed accesses (no truth) for this launch.";
		} else {
			truth = rows.size() + (rows.size() == 1 ? " allocation" : " allocations")
					+ " speculated or observed; verdicts as 'workbench validate' gives them.";
		}
		header.setText(head + "\n" + truth);
		for (Row r : rows) {
			TableItem item = new TableItem(table, SWT.NONE);
			item.setData(r);
			item.setText(0, "0x" + Long.toHexString(r.base));
			item.setText(1, r.size < 0 ? "?" : Long.toString(r.size));
			item.setText(2, r.kind);
			int col = 3;
			for (String engine : engines) {
				AllocationVerdict v = r.verdicts.get(engine);
				if (v == null) {
					item.setText(col, "-");
				} else {
					item.setText(col, v.verdict().label() + (v.indirect() ? "*" : ""));
					item.setForeground(col, SpeculationTheme.verdict(v.verdict()));
					item.setText(col + 1, v.speculatedBytes() + " / " + v.observedBytes());
				}
				col += 3;
			}
		}
		header.getParent().layout(true);
	}

	private @Nullable AllocationVerdict barVerdict(Event e) {
		if (e.index < 3 || !(e.item instanceof TableItem item) || !(item.getData() instanceof Row r)) {
			return null;
		}
		Object engine = table.getColumn(e.index).getData("bar");
		return engine instanceof String s ? r.verdicts.get(s) : null;
	}

	/** The verdict of a verdict column's cell, which is painted here in its colour (GTK ignores cell colours). */
	private @Nullable AllocationVerdict verdictCell(Event e) {
		if (e.index < 3 || !(e.item instanceof TableItem item) || !(item.getData() instanceof Row r)) {
			return null;
		}
		Object engine = table.getColumn(e.index).getData("verdict");
		return engine instanceof String s ? r.verdicts.get(s) : null;
	}

	private void eraseBar(Event e) {
		if (barVerdict(e) != null || verdictCell(e) != null) {
			e.detail &= ~SWT.FOREGROUND;
		}
	}

	private void paintBar(Event e) {
		AllocationVerdict cell = verdictCell(e);
		if (cell != null) {
			TableItem item = (TableItem) e.item;
			Color old = e.gc.getForeground();
			boolean selected = (e.detail & SWT.SELECTED) != 0;
			e.gc.setForeground(selected ? table.getDisplay().getSystemColor(SWT.COLOR_LIST_SELECTION_TEXT)
					: SpeculationTheme.verdict(cell.verdict()));
			String text = item.getText(e.index);
			int h = e.gc.textExtent(text).y;
			e.gc.drawText(text, e.x + 4, e.y + (e.height - h) / 2, true);
			e.gc.setForeground(old);
			return;
		}
		AllocationVerdict v = barVerdict(e);
		if (v == null) {
			return;
		}
		Row r = (Row) ((TableItem) e.item).getData();
		long useful = v.usefulBytes();
		long over = Math.max(0, v.speculatedBytes() - useful);
		long missed = Math.max(0, v.observedBytes() - useful);
		long scale = Math.max(Math.max(r.size, 1), useful + over + missed);
		int width = table.getColumn(e.index).getWidth() - 8;
		int x = e.x + 4;
		int y = e.y + 3;
		int h = Math.max(4, e.height - 6);
		GC gc = e.gc;
		Color old = gc.getBackground();
		gc.setForeground(SpeculationTheme.color("bar-frame"));
		gc.drawRectangle(x, y, width, h);
		x = segment(gc, x, y, h, width, useful, scale, SpeculationTheme.color("exact"));
		x = segment(gc, x, y, h, width, over, scale, SpeculationTheme.color("over-approximated"));
		segment(gc, x, y, h, width, missed, scale, SpeculationTheme.color("missed-write"));
		gc.setBackground(old);
	}

	private static int segment(GC gc, int x, int y, int h, int width, long bytes, long scale, Color c) {
		if (bytes <= 0) {
			return x;
		}
		int w = (int) Math.max(2, Math.round((double) bytes * width / scale));
		gc.setBackground(c);
		gc.fillRectangle(x + 1, y + 1, w - 1, h - 1);
		return x + w;
	}

	/** @return the table as CSV: allocation, size, kind, then per engine verdict, speculated and observed bytes */
	public String csv() {
		StringBuilder b = new StringBuilder("allocation,size,kind");
		for (String e : engines) {
			b.append(',').append(e).append("_verdict,").append(e).append("_speculated_bytes,").append(e)
					.append("_observed_bytes");
		}
		b.append('\n');
		for (Row r : rows) {
			b.append("0x").append(Long.toHexString(r.base)).append(',').append(r.size).append(',').append(r.kind);
			for (String e : engines) {
				AllocationVerdict v = r.verdicts.get(e);
				b.append(',').append(v == null ? "" : v.verdict().label()).append(',')
						.append(v == null ? "" : Long.toString(v.speculatedBytes())).append(',')
						.append(v == null ? "" : Long.toString(v.observedBytes()));
			}
			b.append('\n');
		}
		return b.toString();
	}

	private void copy() {
		Clipboard c = new Clipboard(table.getDisplay());
		try {
			c.setContents(new Object[] { csv() }, new Transfer[] { TextTransfer.getInstance() });
		} finally {
			c.dispose();
		}
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
