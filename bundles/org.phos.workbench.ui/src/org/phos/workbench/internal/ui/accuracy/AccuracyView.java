package org.phos.workbench.internal.ui.accuracy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
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
import org.phos.workbench.ui.model.ViewSelectionProvider;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.analysis.core.ValidationAnswer;
import org.phos.workbench.speculation.core.validate.Accuracy;
import org.phos.workbench.speculation.core.validate.EngineValidation;
import org.phos.workbench.speculation.core.validate.ValidationReport;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.Trace;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * "Accuracy": the table {@code workbench validate TRACE --engine ...} prints per engine (launches, unsafe launches,
 * write and read recall, byte precision, launches not covered, excluded), and below it the unsafe launches (a write
 * that went unspeculated); a click on one publishes it as the {@link LaunchSelection}.
 */
public final class AccuracyView extends ViewPart {
	/** The view's id in plugin.xml. */
	public static final String ID = "org.phos.workbench.ui.accuracyView";

	private Label header;
	private Table engineTable;
	private Table unsafeTable;
	private final ViewSelectionProvider provider = new ViewSelectionProvider();
	private @Nullable LoadedTrace trace;
	private @Nullable Job job;
	private final List<String> engines = new ArrayList<>(Validations.DEFAULT_ENGINES);
	private final ISelectionListener listener = this::selectionChanged;

	@Override
	public void createPartControl(Composite parent) {
		GridLayoutFactory.fillDefaults().margins(4, 4).applyTo(parent);
		header = new Label(parent, SWT.WRAP);
		header.setData(TracesView.ROLE, "accuracy-header");
		header.setText("Open a trace with observed accesses to see how accurately each engine speculates.");
		GridDataFactory.fillDefaults().grab(true, false).applyTo(header);
		SashForm sash = new SashForm(parent, SWT.VERTICAL);
		GridDataFactory.fillDefaults().grab(true, true).applyTo(sash);
		engineTable = table(sash, "accuracy", "Engine:120:L", "Launches:75", "Unsafe:65", "Write recall:95",
				"Read recall:95", "Precision:85", "Uncovered:85", "Excluded:80");
		Composite lower = new Composite(sash, SWT.NONE);
		GridLayoutFactory.fillDefaults().margins(0, 4).applyTo(lower);
		Label unsafe = new Label(lower, SWT.NONE);
		unsafe.setText("Unsafe launches (a write not speculated as written); click one to select it:");
		unsafeTable = table(lower, "unsafe", "Engine:120:L", "Launch:70", "Kernel:330:L", "Verdict:140:L");
		GridDataFactory.fillDefaults().grab(true, true).applyTo(unsafeTable);
		sash.setWeights(2, 3);
		unsafeTable.addListener(SWT.Selection, e -> {
			if (e.item instanceof TableItem item && item.getData() instanceof LaunchSelection s) {
				provider.setSelection(new StructuredSelection(s));
			}
		});
		getSite().setSelectionProvider(provider);
		Action copy = new Action("Copy") {
			@Override
			public void run() {
				Clipboard c = new Clipboard(engineTable.getDisplay());
				try {
					c.setContents(new Object[] { csv() }, new Transfer[] { TextTransfer.getInstance() });
				} finally {
					c.dispose();
				}
			}
		};
		copy.setToolTipText("Copy the accuracy table as CSV");
		getViewSite().getActionBars().getToolBarManager().add(copy);
		getViewSite().getActionBars().updateActionBars();
		getSite().getPage().addSelectionListener(listener);
	}

	private Table table(Composite parent, String role, String... columns) {
		Table t = new Table(parent, SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE | SWT.V_SCROLL);
		t.setData(TracesView.ROLE, role);
		t.setHeaderVisible(true);
		t.setLinesVisible(true);
		for (String c : columns) {
			String[] p = c.split(":");
			TableColumn col = new TableColumn(t, p.length > 2 ? SWT.LEFT : SWT.RIGHT);
			col.setText(p[0]);
			col.setWidth(Integer.parseInt(p[1]));
		}
		return t;
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
		List<String> wanted = List.copyOf(engines);
		Validations.Result cached = Validations.cached(loaded, wanted);
		if (cached != null) {
			render(cached);
			return;
		}
		header.setText(loaded.name() + ": validating " + String.join(", ", wanted) + "...");
		engineTable.removeAll(); // never show the previous trace's figures under this one's name
		unsafeTable.removeAll();
		job = Validations.validateInBackground(loaded, wanted, job, engineTable, result -> {
			if (trace == loaded) {
				render(result);
			}
		});
	}

	/** @return the trace shown, or null */
	public @Nullable LoadedTrace trace() {
		return trace;
	}

	private static String share(Accuracy a, double share) {
		return a.launches() == 0 ? "-" : String.format(Locale.ROOT, "%.2f%%", share * 100);
	}

	private void render(Validations.Result result) {
		engineTable.removeAll();
		unsafeTable.removeAll();
		ValidationReport report = result.report();
		if (report == null) {
			header.setText(String.valueOf(result.error()));
			header.getParent().layout(true);
			return;
		}
		Trace t = result.trace().trace();
		header.setText(String.format(Locale.ROOT, "%s: %d of %d launches observed (%d records by %s)%ntruth: %s",
				result.trace().name(), report.observedLaunches(), t.launchCount(), report.observedEntries(),
				String.join(", ", report.tools()), report.reliability().summary()));
		List<String> expansions = new ArrayList<>();
		for (int i = 0; i < report.engines().size(); i++) {
			EngineValidation e = report.engines().get(i);
			String asked = result.engines().get(i);
			Accuracy a = e.total();
			TableItem item = new TableItem(engineTable, SWT.NONE);
			item.setData(e.engine());
			if (!asked.equals(e.engine())) {
				expansions.add(asked + " = " + e.engine());
			}
			item.setText(new String[] { asked, Long.toString(a.launches()), Long.toString(a.unsafeLaunches()),
					share(a, a.writeRecall()), share(a, a.readRecall()), share(a, a.bytePrecision()),
					Long.toString(e.launchesNotCovered()), Long.toString(a.excludedLaunches()) });
			if (a.unsafeLaunches() > 0) {
				item.setForeground(2, SpeculationTheme.color("missed-write"));
			}
		}
		if (!expansions.isEmpty()) {
			header.setText(header.getText() + "\nengines: " + String.join("; ", expansions));
		}
		ValidationAnswer answer = java.util.Objects.requireNonNull(result.answer());
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
		header.getParent().layout(true);
	}

	/** @return the engine table as CSV, with the columns of the command line's table */
	public String csv() {
		StringBuilder b = new StringBuilder(
				"engine,launches,unsafe_launches,write_recall,read_recall,precision,launches_not_covered,excluded_launches\n");
		for (TableItem item : engineTable.getItems()) {
			for (int i = 0; i < engineTable.getColumnCount(); i++) {
				b.append(i == 0 ? "" : ",").append(item.getText(i));
			}
			b.append('\n');
		}
		return b.toString();
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
