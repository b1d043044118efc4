package org.phos.workbench.internal.ui.accesses;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
import org.phos.workbench.internal.ui.accuracy.CsvExport;
import org.phos.workbench.internal.ui.accuracy.SpeculationPicker;
import org.phos.workbench.internal.ui.accuracy.SpeculationTheme;
import org.phos.workbench.internal.ui.accuracy.Validations;
import org.phos.workbench.analysis.core.AccessAnswer;
import org.phos.workbench.analysis.core.AccessQuery;
import org.phos.workbench.analysis.core.AccessRow;
import org.phos.workbench.analysis.core.LaunchVerdict;
import org.phos.workbench.analysis.core.table.TableRenderer;
import org.phos.workbench.trace.core.AddressRange;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * "Accesses": for the selected launch, one row per allocation that an engine speculated or instrumentation observed,
 * with each chosen engine's verdict (in the theme's verdict colour), its speculated direction, and its speculated
 * extents drawn above the observed ones inside the allocation. Everything shown is the analysis layer's
 * {@link AccessQuery} answer (the command line's {@code accesses}), never computed here.
 */
public final class AccessesView extends ViewPart {
	/** The view's id in plugin.xml. */
	public static final String ID = "org.phos.workbench.ui.accessesView";

	/** Abbreviations of the verdicts, drawn when the full label does not fit its column (the full one in CSV). */
	static final java.util.Map<LaunchVerdict, String> SHORT = new java.util.EnumMap<>(java.util.Map.of(
			LaunchVerdict.EXACT, "exact", LaunchVerdict.OVER_APPROXIMATED, "over", LaunchVerdict.MISSED_READ, "miss R",
			LaunchVerdict.MISSED_WRITE, "miss W", LaunchVerdict.WRONG_DIRECTION, "wrong", LaunchVerdict.UNRELIABLE,
			"unrel.", LaunchVerdict.NOT_OBSERVED, "no truth", LaunchVerdict.NOT_NAMED, "-"));
	/** Narrowest and widest extents bar (px). */
	public static final int MIN_BAR = 48;
	static final int MAX_BAR = 220;

	private Label header;
	private SpeculationPicker picker;
	private Table table;
	private List<String> engines = List.of();
	private @Nullable String tool;
	private CsvExport export;
	private @Nullable LaunchSelection shown;
	private @Nullable Job job;
	private final List<AccessRow> rows = new ArrayList<>();
	private @Nullable AccessAnswer answer;
	private final ISelectionListener listener = this::selectionChanged;

	@Override
	public void createPartControl(Composite parent) {
		GridLayoutFactory.fillDefaults().margins(4, 4).applyTo(parent);
		header = new Label(parent, SWT.WRAP);
		header.setData(TracesView.ROLE, "accesses-header");
		header.setText("Select a launch (Launches, Kernels, Accuracy or the timeline) to compare speculated with "
				+ "observed accesses.");
		GridDataFactory.fillDefaults().grab(true, false).hint(100, SWT.DEFAULT).applyTo(header);
		picker = new SpeculationPicker(parent, Validations.SESSION.catalog(), this::choiceChanged);
		GridDataFactory.fillDefaults().grab(true, false).hint(100, SWT.DEFAULT).applyTo(picker.control());
		engines = picker.engines();
		table = new Table(parent, SWT.BORDER | SWT.FULL_SELECTION | SWT.MULTI | SWT.V_SCROLL | SWT.H_SCROLL);
		table.setData(TracesView.ROLE, "accesses");
		table.setHeaderVisible(true);
		table.setLinesVisible(true);
		table.addListener(SWT.EraseItem, this::eraseBar);
		table.addListener(SWT.PaintItem, this::paintBar);
		GridDataFactory.fillDefaults().grab(true, true).applyTo(table);
		table.addListener(SWT.Resize, e -> fitColumns());
		table.addListener(SWT.MouseHover, this::hover);
		Label legend = new Label(parent, SWT.WRAP);
		legend.setText("Bytes (bars across the allocation): upper lane speculated (amber read, red written), lower lane "
				+ "observed by the tools (green read, red written); amber with nothing below is over-marking. "
				+ "Verdicts: exact, over(-approximated), miss R/W (missed read/write), wrong (direction), unrel(iable).");
		GridDataFactory.fillDefaults().grab(true, false).hint(100, SWT.DEFAULT).applyTo(legend);
		contributeToolbar();
		rebuildColumns();
		org.phos.workbench.internal.ui.theme.PhoenixThemes.onChange(table, () -> {
			LaunchSelection s = shown;
			if (s != null && answer != null) {
				render(s, answer, null); // item colours again from the registry
			}
			table.redraw();
		});
		getSite().getPage().addSelectionListener(listener);
	}

	private void contributeToolbar() {
		IToolBarManager bar = getViewSite().getActionBars().getToolBarManager();
		export = new CsvExport(getViewSite(), table, () -> {
			AccessAnswer a = answer;
			LaunchSelection s = shown;
			return a == null || s == null ? null
					: new CsvExport.Export(s.trace().name().replaceFirst("\\.phos$", "") + "-launch-" + s.launch()
							+ "-accesses.csv", s.trace().file(), a.table());
		});
		bar.add(export.action("Export this launch's accesses as CSV (as accesses --launch N --engine ... --tool ... "
				+ "--format csv)"));
		Action copy = org.phos.workbench.internal.ui.accuracy.CsvExport.copyAction(table,
		        "Copy the table as CSV", this::csv);
		bar.add(copy);
		getViewSite().getActionBars().updateActionBars();
	}

	private void choiceChanged() {
		engines = picker.engines();
		tool = picker.tool();
		rebuildColumns();
		LaunchSelection s = shown;
		if (s != null) {
			show(s.trace(), s.launch());
		}
	}

	private void rebuildColumns() {
		table.setRedraw(false);
		try {
			table.removeAll();
			for (TableColumn c : table.getColumns()) {
				c.dispose();
			}
			column("Allocation", SWT.LEFT, 120).setToolTipText("base address of the allocation");
			column("Size", SWT.RIGHT, 75).setToolTipText("its size (bytes exactly in the CSV)");
			column("Kind", SWT.LEFT, 80).setToolTipText("how it was allocated");
			for (String e : engines) {
				TableColumn verdict = column(e, SWT.LEFT, 140);
				verdict.setToolTipText("verdict of engine " + e + " (abbreviated when narrow; see the legend)");
				verdict.setData("verdict", e);
				column("dir", SWT.CENTER, 75).setToolTipText("direction engine " + e + " speculated (R, W, RW)");
				TableColumn bar = column("bytes", SWT.LEFT, 170); // a short header: the bars may be narrow
				bar.setToolTipText("inside the allocation: upper lane the bytes engine " + e
						+ " speculated, lower lane the bytes observed");
				bar.setData("bar", e);
			}
		} finally {
			table.setRedraw(true);
		}
		fitColumns();
	}

	/**
	 * Fits the columns into the view, giving up detail step by step until the bars have room ({@link #MIN_BAR} px
	 * each): first the verdicts are abbreviated ({@link #SHORT}), then the direction columns are hidden (the bars show
	 * read and written in their colours), then the kind (in the row's tooltip with the exact size). The bars share
	 * what is left, {@link #MIN_BAR}..{@link #MAX_BAR} px each.
	 */
	private void fitColumns() {
		int width = table.getClientArea().width;
		int n = engines.size();
		if (width <= 0 || table.getColumnCount() != 3 + 3 * n) {
			return;
		}
		GC gc = new GC(table);
		try {
			table.getColumn(0).pack();
			table.getColumn(1).pack();
			TableColumn kind = table.getColumn(2);
			kind.pack();
			int kindWidth = kind.getWidth();
			int fixed = table.getColumn(0).getWidth() + table.getColumn(1).getWidth();
			int full = 0;
			int brief = 0;
			int dirs = 0;
			int[] fullWidth = new int[n];
			int[] briefWidth = new int[n];
			int[] dirWidth = new int[n];
			for (int i = 0; i < n; i++) {
				TableColumn dir = table.getColumn(4 + 3 * i);
				dir.pack();
				dirWidth[i] = dir.getWidth();
				dirs += dirWidth[i];
				int head = gc.textExtent(table.getColumn(3 + 3 * i).getText()).x + 24;
				fullWidth[i] = head;
				briefWidth[i] = head;
				for (TableItem item : table.getItems()) {
					if (item.getData() instanceof AccessRow r && i < r.engines().size()) {
						LaunchVerdict v = r.engines().get(i).verdict();
						fullWidth[i] = Math.max(fullWidth[i], gc.textExtent(v.label()).x + 12);
						briefWidth[i] = Math.max(briefWidth[i], gc.textExtent(SHORT.get(v)).x + 12);
					}
				}
				full += fullWidth[i];
				brief += briefWidth[i];
			}
			// level 0: everything; 1: verdicts abbreviated; 2: and no direction columns; 3: and no kind column
			int[] needed = { fixed + kindWidth + full + dirs, fixed + kindWidth + brief + dirs, fixed + kindWidth + brief,
					fixed + brief };
			int level = 0;
			while (level < 3 && width - needed[level] < n * MIN_BAR) {
				level++;
			}
			int bars = Math.clamp((width - needed[level]) / Math.max(1, n), MIN_BAR, MAX_BAR);
			show(kind, level < 3 ? kindWidth : 0);
			for (int i = 0; i < n; i++) {
				table.getColumn(3 + 3 * i).setWidth(level == 0 ? fullWidth[i] : briefWidth[i]);
				show(table.getColumn(4 + 3 * i), level < 2 ? dirWidth[i] : 0);
				table.getColumn(5 + 3 * i).setWidth(bars);
			}
		} finally {
			gc.dispose();
		}
	}

	/** A column {@code width} px wide, or hidden (0 px, not resizable). */
	private static void show(TableColumn c, int width) {
		c.setWidth(width);
		c.setResizable(width > 0);
	}

	/** The row's tooltip: what the narrow columns may leave out. */
	private void hover(Event e) {
		TableItem item = table.getItem(new org.eclipse.swt.graphics.Point(e.x, e.y));
		String tip = null;
		if (item != null && item.getData() instanceof AccessRow r) {
			tip = "0x" + Long.toHexString(r.base()) + ": " + (r.allocatedAt() < 0 ? "no live allocation"
					: r.size() + " bytes, " + (r.kind() == null ? "kind unknown" : r.kind().name().toLowerCase(Locale.ROOT))
							+ ", allocated at event " + r.allocatedAt());
			List<String> dirs = new ArrayList<>();
			for (int i = 0; i < engines.size() && i < r.engines().size(); i++) {
				dirs.add(engines.get(i) + " " + r.engines().get(i).direction() + " (" + r.engines().get(i).verdict().label()
						+ ")");
			}
			tip += "\n" + String.join(", ", dirs);
		}
		if (!java.util.Objects.equals(tip, table.getToolTipText())) {
			table.setToolTipText(tip);
		}
	}

	private TableColumn column(String title, int style, int width) {
		TableColumn c = new TableColumn(table, style);
		c.setText(title);
		c.setWidth(width);
		return c;
	}

	private void selectionChanged(IWorkbenchPart part, ISelection selection) {
		if (part == this || !(selection instanceof IStructuredSelection s)) {
			return;
		}
		if (s.getFirstElement() instanceof LaunchSelection l && !l.equals(shown)) {
			show(l.trace(), l.trace().trace().launchIndex(l.event()));
		} else if (s.getFirstElement() instanceof LoadedTrace t && shown != null && shown.trace() != t) {
			// another trace became the current one: a launch of the previous trace would read as one of this
			forget("Select a launch of " + t.name() + " to compare speculated with observed accesses.");
		}
	}

	private void forget(String message) {
		Job old = job;
		if (old != null) {
			old.cancel();
		}
		shown = null;
		answer = null;
		rows.clear();
		table.removeAll();
		header.setText(message);
		header.getParent().layout(true, true);
	}

	/** Shows launch {@code launch} (dense index) of {@code trace}; the analysis layer answers in a Job. */
	public void show(LoadedTrace trace, int launch) {
		LaunchSelection selection = new LaunchSelection(trace, launch);
		shown = selection;
		picker.setTrace(trace.trace());
		if (!picker.engines().equals(engines) || !java.util.Objects.equals(picker.tool(), tool)) {
			engines = picker.engines();
			tool = picker.tool();
			rebuildColumns();
		}
		List<String> wanted = List.copyOf(engines);
		String truth = tool;
		List<String> tools = truth == null ? List.of() : List.of(truth);
		header.setText(describe(selection) + ": asking the analysis layer (" + String.join(", ", wanted)
				+ (truth == null ? "" : " against " + truth) + ")...");
		table.removeAll();
		rows.clear();
		answer = null;
		Job old = job;
		if (old != null) {
			old.cancel();
		}
		Job j = Job.create("Accesses of launch " + launch + " of " + trace.name(), (IProgressMonitor m) -> {
			AccessAnswer a = null;
			String error = null;
			try {
				a = Validations.SESSION.accesses(new AccessQuery(trace.trace(), launch, wanted, tools), m);
			} catch (org.eclipse.core.runtime.OperationCanceledException e) {
				return Status.CANCEL_STATUS;
			} catch (RuntimeException e) {
				error = trace.name() + ", launch " + launch + ": " + e.getMessage();
			}
			AccessAnswer result = a;
			String failure = error;
			if (!table.isDisposed()) {
				table.getDisplay().asyncExec(() -> {
					if (!table.isDisposed() && selection.equals(shown) && wanted.equals(engines)
							&& java.util.Objects.equals(truth, tool)) {
						render(selection, result, failure);
					}
				});
			}
			return Status.OK_STATUS;
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

	/** @return the tool whose records are shown and judged by, or null for all */
	public @Nullable String tool() {
		return tool;
	}

	/** @return the engine and tool picker */
	public SpeculationPicker picker() {
		return picker;
	}

	/** @return the Export CSV action's helper */
	public CsvExport export() {
		return export;
	}

	/** @return the answer shown, or null */
	public @Nullable AccessAnswer answer() {
		return answer;
	}

	private static String describe(LaunchSelection s) {
		Trace t = s.trace().trace();
		int e = s.event();
		FunctionInfo f = t.functionById(t.functionId(e));
		String kernel = f == null ? "function #" + t.functionId(e) : f.displayName();
		return String.format(Locale.ROOT, "Launch %d of %s: %s <<<(%d,%d,%d), (%d,%d,%d)>>>",
				org.phos.workbench.internal.ui.launches.Analysis.session().launchNumber(t, s.launch()), // i14-incr
				s.trace().name(), kernel, t.gridX(e), t.gridY(e), t.gridZ(e), t.blockX(e), t.blockY(e), t.blockZ(e));
	}

	private void render(LaunchSelection s, @Nullable AccessAnswer a, @Nullable String error) {
		rows.clear();
		table.removeAll();
		answer = a;
		String head = describe(s);
		if (a == null) {
			header.setText(head + "\n" + error);
			header.getParent().layout(true, true);
			return;
		}
		rows.addAll(a.table().rows());
		String truth;
		if (a.unreliable() != null) {
			truth = "Observed truth unreliable: " + a.unreliable() + " (verdicts greyed, excluded by validate).";
		} else if (a.tools().isEmpty() || rows.stream().allMatch(r -> r.engines().stream()
				.allMatch(e -> e.verdict() == LaunchVerdict.NOT_OBSERVED))) {
			truth = "The trace has no observed accesses (no truth) for this launch: speculation only.";
		} else {
			truth = rows.size() + (rows.size() == 1 ? " allocation" : " allocations") + " speculated or observed; truth by "
					+ String.join(", ", a.tools()) + "; verdicts as 'workbench validate' gives them.";
		}
		header.setText(head + "\n" + truth);
		for (AccessRow r : rows) {
			TableItem item = new TableItem(table, SWT.NONE);
			item.setData(r);
			item.setText(0, "0x" + Long.toHexString(r.base()));
			item.setText(1, r.allocatedAt() < 0 ? "?" : bytes(r.size()));
			item.setText(2, r.kind() == null ? "?" : r.kind().name().toLowerCase(Locale.ROOT));
			for (int i = 0; i < engines.size(); i++) {
				AccessRow.EngineSide side = r.engines().get(i);
				if (!named(r, side)) {
					// neither this engine nor a tool names the allocation (another engine does): no pair to judge
					item.setText(3 + 3 * i, "-");
				} else {
					item.setText(3 + 3 * i, side.verdict().label());
					item.setForeground(3 + 3 * i, colour(side.verdict())); // painted in paintBar; kept for readers
				}
				item.setText(4 + 3 * i, side.direction());
			}
		}
		fitColumns();
		header.getParent().layout(true, true);
	}

	/** A size as people read it: 100 B, 4 KiB, 1.5 MiB. */
	static String bytes(long n) {
		if (n < 1024) {
			return n + " B";
		}
		String[] units = { "KiB", "MiB", "GiB", "TiB" };
		double v = n;
		int u = -1;
		while (v >= 1024 && u < units.length - 1) {
			v /= 1024;
			u++;
		}
		return (v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v)) + " " + units[u];
	}

	/** @return whether the engine or a tool names the allocation (a pair that validate judges) */
	private static boolean named(AccessRow r, AccessRow.EngineSide side) {
		return side.verdict() != LaunchVerdict.NOT_NAMED;
	}

	private static Color colour(LaunchVerdict v) {
		var access = v.access();
		return access == null ? SpeculationTheme.color("unreliable") : SpeculationTheme.verdict(access);
	}

	private AccessRow.@Nullable EngineSide side(Event e, String key) {
		if (e.index < 3 || !(e.item instanceof TableItem item) || !(item.getData() instanceof AccessRow r)) {
			return null;
		}
		Object engine = table.getColumn(e.index).getData(key);
		int i = engine instanceof String name ? engines.indexOf(name) : -1;
		return i < 0 || i >= r.engines().size() ? null : r.engines().get(i);
	}

	private void eraseBar(Event e) {
		AccessRow.EngineSide v = side(e, "verdict");
		if (side(e, "bar") != null || (v != null && named((AccessRow) e.item.getData(), v))) {
			e.detail &= ~SWT.FOREGROUND;
		}
	}

	private void paintBar(Event e) {
		AccessRow.EngineSide cell = side(e, "verdict");
		if (cell != null && named((AccessRow) e.item.getData(), cell)) {
			TableItem item = (TableItem) e.item;
			Color old = e.gc.getForeground();
			boolean selected = (e.detail & SWT.SELECTED) != 0;
			e.gc.setForeground(selected ? table.getDisplay().getSystemColor(SWT.COLOR_LIST_SELECTION_TEXT)
					: colour(cell.verdict()));
			String text = item.getText(e.index);
			if (e.gc.textExtent(text).x + 8 > table.getColumn(e.index).getWidth()) {
				text = SHORT.getOrDefault(cell.verdict(), text);
			}
			int h = e.gc.textExtent(text).y;
			e.gc.drawText(text, e.x + 4, e.y + (e.height - h) / 2, true);
			e.gc.setForeground(old);
			return;
		}
		AccessRow.EngineSide side = side(e, "bar");
		if (side == null) {
			return;
		}
		AccessRow r = (AccessRow) ((TableItem) e.item).getData();
		long size = Math.max(1, r.size());
		int width = table.getColumn(e.index).getWidth() - 8;
		int x = e.x + 4;
		int lane = Math.max(3, (e.height - 7) / 2);
		int y1 = e.y + 2;
		int y2 = y1 + lane + 2;
		GC gc = e.gc;
		Color oldBg = gc.getBackground();
		Color oldFg = gc.getForeground();
		gc.setForeground(SpeculationTheme.color("bar-frame"));
		gc.drawRectangle(x - 1, y1 - 1, width + 1, 2 * lane + 3);
		lane(gc, side.read(), r.base(), size, x, y1, width, lane, SpeculationTheme.color("over-approximated"));
		lane(gc, side.written(), r.base(), size, x, y1, width, lane, SpeculationTheme.color("missed-write"));
		for (AccessRow.ToolSide t : r.tools()) {
			lane(gc, t.read(), r.base(), size, x, y2, width, lane, SpeculationTheme.color("exact"));
			lane(gc, t.written(), r.base(), size, x, y2, width, lane, SpeculationTheme.color("missed-write"));
		}
		gc.setBackground(oldBg);
		gc.setForeground(oldFg);
	}

	/** Fills the ranges (absolute addresses) of an allocation of {@code size} bytes at {@code base} in a lane. */
	private static void lane(GC gc, List<AddressRange> ranges, long base, long size, int x, int y, int width, int h,
			Color c) {
		gc.setBackground(c);
		for (AddressRange a : ranges) {
			long from = Math.max(0, a.begin() - base);
			long to = Math.min(size, a.end() - base);
			if (to <= from) {
				continue;
			}
			int x0 = x + (int) (from * width / size);
			int x1 = x + (int) Math.max(from * width / size + 2, to * width / size);
			gc.fillRectangle(x0, y, Math.min(x1, x + width) - x0, h);
		}
	}

	/** @return the answer as CSV, by the analysis layer's renderer (the same CSV as {@code accesses --format csv}) */
	public String csv() {
		AccessAnswer a = answer;
		if (a == null) {
			return "";
		}
		java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
		java.io.PrintStream out = new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8);
		TableRenderer.CSV.render(a.table(), out);
		out.flush();
		return bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
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
