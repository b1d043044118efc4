package org.phos.workbench.internal.ui.accuracy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.part.ViewPart;
import org.phos.workbench.analysis.core.AccuracyRow;
import org.phos.workbench.analysis.core.ValidationAnswer;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.speculation.core.validate.PtxCoverage;
import org.phos.workbench.speculation.core.validate.Accuracy;
import org.phos.workbench.speculation.core.validate.EngineValidation;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.ViewSelectionProvider;

/**
 * "Accuracy": what {@code workbench validate TRACE --engine ... --tool ...} reports per engine (launches judged,
 * unsafe launches, write and read recall, byte precision, launches not covered, excluded), one column per chosen
 * engine so that engines compare side by side in a narrow view, and below it the unsafe launches (a write that went
 * unspeculated); a click on one publishes it as the {@link LaunchSelection}. Engines and the truth's tool are picked
 * in the view; Export CSV writes (and Copy copies) validate's {@code --csv} table for the same choice.
 */
public final class AccuracyView extends ViewPart {
	/** The view's id in plugin.xml. */
	public static final String ID = "org.phos.workbench.ui.accuracyView";

	/** The engine table's rows: validate's columns, as full names (the view is narrow, the names are not). */
	static final String[] METRICS = { "Launches judged", "Unsafe launches", "Write recall", "Read recall",
			"Byte precision",
			// i15-val: begin (the direction figures, Accuracy.Directions)
			"Read precision", "Write precision", "Direction accuracy",
			// i15-val: end
			"Launches not covered", "Excluded (truth unreliable)" };

	private Label header;
	private SpeculationPicker picker;
	private Table engineTable;
	private Table unsafeTable;
	private final ViewSelectionProvider provider = new ViewSelectionProvider();
	private @Nullable LoadedTrace trace;
	private @Nullable Job job;
	private Validations.@Nullable Result shown;
	private CsvExport export;
	private final ISelectionListener listener = this::selectionChanged;

	@Override
	public void createPartControl(Composite parent) {
		GridLayoutFactory.fillDefaults().margins(4, 4).applyTo(parent);
		header = new Label(parent, SWT.WRAP);
		header.setData(TracesView.ROLE, "accuracy-header");
		header.setText("Open a trace with observed accesses to see how accurately each engine speculates.");
		GridDataFactory.fillDefaults().grab(true, false).hint(100, SWT.DEFAULT).applyTo(header);
		picker = new SpeculationPicker(parent, Validations.SESSION.catalog(), this::choiceChanged);
		GridDataFactory.fillDefaults().grab(true, false).hint(100, SWT.DEFAULT).applyTo(picker.control());
		SashForm sash = new SashForm(parent, SWT.VERTICAL);
		GridDataFactory.fillDefaults().grab(true, true).applyTo(sash);
		engineTable = new Table(sash, SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE | SWT.V_SCROLL | SWT.H_SCROLL);
		engineTable.setData(TracesView.ROLE, "accuracy");
		engineTable.setHeaderVisible(true);
		engineTable.setLinesVisible(true);
		Composite lower = new Composite(sash, SWT.NONE);
		GridLayoutFactory.fillDefaults().margins(0, 4).applyTo(lower);
		Label unsafe = new Label(lower, SWT.WRAP);
		unsafe.setText("Unsafe launches (a write not speculated as written); click one to select it:");
		GridDataFactory.fillDefaults().grab(true, false).hint(100, SWT.DEFAULT).applyTo(unsafe);
		unsafeTable = new Table(lower, SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE | SWT.V_SCROLL | SWT.H_SCROLL);
		unsafeTable.setData(TracesView.ROLE, "unsafe");
		unsafeTable.setHeaderVisible(true);
		unsafeTable.setLinesVisible(true);
		for (String c : new String[] { "Engine", "Launch", "Kernel", "Verdict" }) {
			new TableColumn(unsafeTable, c.equals("Launch") ? SWT.RIGHT : SWT.LEFT).setText(c);
		}
		GridDataFactory.fillDefaults().grab(true, true).applyTo(unsafeTable);
		unsafeTable.addListener(SWT.Resize, e -> ColumnFit.fill(unsafeTable, 2));
		engineTable.addListener(SWT.Resize, e -> ColumnFit.fill(engineTable, 0));
		sash.setWeights(3, 2);
		sash.addListener(SWT.Resize, e -> fitSash(sash)); // the engine table's rows in full; the unsafe launches scroll
		unsafeTable.addListener(SWT.Selection, e -> {
			if (e.item instanceof TableItem item && item.getData() instanceof LaunchSelection s) {
				provider.setSelection(new StructuredSelection(s));
			}
		});
		rebuildEngineColumns(picker.engines());
		org.phos.workbench.internal.ui.theme.PhoenixThemes.onChange(engineTable, () -> {
			Validations.Result r = shown;
			if (r != null) {
				render(r);
			}
		});
		getSite().setSelectionProvider(provider);
		export = new CsvExport(getViewSite(), engineTable, () -> {
			Validations.Result r = shown;
			ValidationReport report = r == null ? null : r.report();
			return report == null ? null
					: new CsvExport.Export(r.trace().name().replaceFirst("\\.phos$", "") + "-accuracy.csv",
							r.trace().file(), AccuracyRow.of(report, r.trace().trace()));
		});
		IToolBarManager bar = getViewSite().getActionBars().getToolBarManager();
		bar.add(export.action("Export validate's accuracy table as CSV (as validate --engine ... --tool ... --csv)"));
		Action copy = CsvExport.copyAction(engineTable,
		        "Copy validate's accuracy table as CSV", this::csv);
		bar.add(copy);
		getViewSite().getActionBars().updateActionBars();
		getSite().getPage().addSelectionListener(listener);
	}

	/** Gives the engine table the height of its header and rows, leaving the unsafe launches a few rows. */
	private void fitSash(SashForm sash) {
		int total = sash.getClientArea().height;
		int need = engineTable.computeTrim(0, 0, 0, engineTable.getHeaderHeight()
				+ METRICS.length * engineTable.getItemHeight()).height + 2;
		// the unsafe launches keep their label, header and 3 rows; the engine table's first rows (judged, unsafe,
		// recalls, precision) come first: in the default layout the view is short, and 8 rows for the unsafe
		// launches left the engine table its header alone
		int engine = Math.min(need, total - 5 * engineTable.getItemHeight());
		if (engine > 0) {
			sash.setWeights(engine, total - engine);
		}
	}

	private void rebuildEngineColumns(List<String> engines) {
		engineTable.setRedraw(false);
		try {
			engineTable.removeAll();
			for (TableColumn c : engineTable.getColumns()) {
				c.dispose();
			}
			new TableColumn(engineTable, SWT.LEFT).setText("Engine");
			for (String e : engines) {
				TableColumn c = new TableColumn(engineTable, SWT.RIGHT);
				c.setText(e);
				c.setData("engine", e);
			}
			ColumnFit.fill(engineTable, 0);
		} finally {
			engineTable.setRedraw(true);
		}
	}

	private void choiceChanged() {
		LoadedTrace t = trace;
		rebuildEngineColumns(picker.engines());
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

	/** Shows the accuracy of the chosen engines on {@code loaded}; validation runs in a Job the first time. */
	public void show(LoadedTrace loaded) {
		trace = loaded;
		picker.setTrace(loaded.trace());
		List<String> wanted = picker.engines();
		String tool = picker.tool();
		if (engineTable.getColumnCount() != wanted.size() + 1) {
			rebuildEngineColumns(wanted);
		}
		Validations.Result cached = Validations.cached(loaded, wanted, tool);
		if (cached != null) {
			render(cached);
			return;
		}
		shown = null;
		header.setText(loaded.name() + ": validating " + String.join(", ", wanted)
				+ (tool == null ? "" : " against " + tool) + "...");
		engineTable.removeAll(); // never show the previous trace's figures under this one's name
		unsafeTable.removeAll();
		job = Validations.validateInBackground(loaded, wanted, tool, job, engineTable, result -> {
			if (trace == loaded && result.engines().equals(picker.engines()) && Objects.equals(result.tool(), picker.tool())) {
				render(result);
			}
		});
	}

	/** @return the trace shown, or null */
	public @Nullable LoadedTrace trace() {
		return trace;
	}

	/** @return the result shown (engines, tool, report), or null */
	public Validations.@Nullable Result result() {
		return shown;
	}

	/** @return the engine and tool picker */
	public SpeculationPicker picker() {
		return picker;
	}

	/** @return the Export CSV action's helper (its last outcome) */
	public CsvExport export() {
		return export;
	}

	private static String share(Accuracy a, double share) {
		return a.launches() == 0 ? "-" : String.format(Locale.ROOT, "%.2f%%", share * 100);
	}

	private void render(Validations.Result result) {
		engineTable.removeAll();
		unsafeTable.removeAll();
		ValidationReport report = result.report();
		shown = result;
		if (report == null) {
			header.setText(String.valueOf(result.error()));
			header.getParent().layout(true, true);
			return;
		}
		Trace t = result.trace().trace();
		header.setText(String.format(Locale.ROOT, "%s: %d of %d launches observed (%d records by %s)%ntruth: %s",
				result.trace().name(), report.observedLaunches(), t.launchCount(), report.observedEntries(),
				String.join(", ", report.tools()), report.reliability().summary()));
		PtxCoverage.Summary ptx = result.ptx(); // i15-val: the line validate prints
		if (ptx != null) {
			header.setText(header.getText() + "\nPTX: " + ptx.line());
		}
		List<String> expansions = new ArrayList<>();
		String[][] cells = new String[METRICS.length][result.engines().size() + 1];
		for (int m = 0; m < METRICS.length; m++) {
			cells[m][0] = METRICS[m];
		}
		for (int i = 0; i < report.engines().size(); i++) {
			EngineValidation e = report.engines().get(i);
			String asked = result.engines().get(i);
			Accuracy a = e.total();
			engineTable.getColumn(i + 1).setToolTipText(asked.equals(e.engine()) ? asked : asked + " = " + e.engine());
			engineTable.getColumn(i + 1).setData("reported", e.engine());
			if (!asked.equals(e.engine())) {
				expansions.add(asked + " = " + e.engine());
			}
			String[] column = { Long.toString(a.launches()), Long.toString(a.unsafeLaunches()), share(a, a.writeRecall()),
					share(a, a.readRecall()), share(a, a.bytePrecision()),
					share(a, a.directions().readPrecision()), share(a, a.directions().writePrecision()), // i15-val
					share(a, a.directions().directionAccuracy()), // i15-val
					Long.toString(e.launchesNotCovered()),
					Long.toString(a.excludedLaunches()) };
			for (int m = 0; m < METRICS.length; m++) {
				cells[m][i + 1] = column[m];
			}
		}
		for (int m = 0; m < METRICS.length; m++) {
			TableItem item = new TableItem(engineTable, SWT.NONE);
			item.setText(cells[m]);
			if (m == 1) {
				for (int i = 0; i < report.engines().size(); i++) {
					if (report.engines().get(i).total().unsafeLaunches() > 0) {
						item.setForeground(i + 1, SpeculationTheme.color("missed-write"));
					}
				}
			}
		}
		if (!expansions.isEmpty()) {
			header.setText(header.getText() + "\nengines: " + String.join("; ", expansions));
		}
		ValidationAnswer answer = Objects.requireNonNull(result.answer());
		for (int i = 0; i < result.engines().size(); i++) {
			for (int launch : answer.unsafeLaunches(i)) {
				int event = t.launchEvent(launch);
				FunctionInfo f = t.functionById(t.functionId(event));
				TableItem item = new TableItem(unsafeTable, SWT.NONE);
				item.setData(new LaunchSelection(result.trace(), launch));
				item.setText(new String[] { result.engines().get(i), Integer.toString(launch),
						f == null ? "function #" + t.functionId(event) : f.displayName(),
						answer.verdict(i, launch).label() });
				item.setForeground(SpeculationTheme.color("missed-write"));
			}
		}
		if (unsafeTable.getItemCount() == 0) {
			TableItem item = new TableItem(unsafeTable, SWT.NONE);
			item.setText(new String[] { "(none)", "", "no engine missed a write on this trace", "" });
		}
		ColumnFit.fill(engineTable, 0);
		ColumnFit.fill(unsafeTable, 2);
		header.getParent().layout(true, true);
	}

	/** @return the header's text (trace, truth, PTX line), for tests; call on the UI thread */
	public String headerText() {
		return header.getText();
	}

	/** @return validate's accuracy table as CSV ({@code validate --csv} for the same engines and tool), or "" */
	public String csv() {
		Validations.Result r = shown;
		ValidationReport report = r == null ? null : r.report();
		return report == null ? ""
				: new String(CsvExport.csv(AccuracyRow.of(report, r.trace().trace())), StandardCharsets.UTF_8);
	}

	@Override
	public void setFocus() {
		engineTable.setFocus();
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
