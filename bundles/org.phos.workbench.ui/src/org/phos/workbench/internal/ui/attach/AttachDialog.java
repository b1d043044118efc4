package org.phos.workbench.internal.ui.attach;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.dialogs.Dialog;
import org.eclipse.jface.dialogs.IDialogConstants;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Spinner;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.trace.core.attach.LiveProcesses;
import org.phos.workbench.trace.core.attach.LiveProcesses.LiveProcess;

/**
 * File &gt; Attach to GPU Process…: lists the live recording processes of this user (pid, command line, device,
 * start time, events so far), as {@code workbench attach --list} does, and returns the one chosen with the number of
 * events the views are to keep. Listing connects to each socket for a moment, so it runs in a Job; Refresh lists
 * again. Stale sockets (killed processes) and sockets that could not be read are said under the table.
 */
public final class AttachDialog extends Dialog {
	/**
	 * Events the views keep by default (-Dphos.live.window): at 100k launches/s on a 2-core machine the snapshots of a
	 * 1M window starved the reader (docs/benchmarks.md, i14-attachui).
	 */
	public static final int DEFAULT_WINDOW = Integer.getInteger("phos.live.window", 100_000);
	private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT)
			.withZone(ZoneId.systemDefault());

	private final Path directory;
	private Table table;
	private Label message;
	private Spinner window;
	private List<LiveProcess> processes = new ArrayList<>();
	private @Nullable LiveTraceInput chosen;
	private @Nullable Job listing;
	private java.util.function.Consumer<LiveTraceInput> onAttach = in -> {
	};

	public AttachDialog(Shell parent, Path directory) {
		super(parent);
		this.directory = directory;
		setShellStyle(getShellStyle() | SWT.RESIZE);
	}

	@Override
	protected void configureShell(Shell shell) {
		super.configureShell(shell);
		shell.setText("Attach to GPU Process");
	}

	@Override
	protected Control createDialogArea(Composite parent) {
		Composite area = (Composite) super.createDialogArea(parent);
		GridLayoutFactory.swtDefaults().numColumns(2).applyTo(area);
		Label intro = new Label(area, SWT.WRAP);
		intro.setText("GPU processes of this user recording with the phos recorder (sockets in " + directory
				+ "). Attaching reads the process's live stream; it does not stop or slow the process.");
		GridDataFactory.fillDefaults().span(2, 1).grab(true, false).hint(640, SWT.DEFAULT).applyTo(intro);
		table = new Table(area, SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE);
		table.setData(TracesView.ROLE, "attachProcesses");
		table.setHeaderVisible(true);
		table.setLinesVisible(true);
		String[] headers = { "pid", "command line", "device", "started", "events so far" };
		int[] widths = { 80, 300, 170, 150, 110 };
		for (int c = 0; c < headers.length; c++) {
			TableColumn col = new TableColumn(table, c == 0 || c == 4 ? SWT.RIGHT : SWT.LEFT);
			col.setText(headers[c]);
			col.setWidth(widths[c]);
		}
		GridDataFactory.fillDefaults().span(2, 1).grab(true, true).hint(810, 180).applyTo(table);
		table.addListener(SWT.Selection, e -> updateOk());
		table.addListener(SWT.DefaultSelection, e -> {
			if (table.getSelectionIndex() >= 0) {
				okPressed();
			}
		});
		message = new Label(area, SWT.WRAP);
		message.setData(TracesView.ROLE, "attachMessage");
		GridDataFactory.fillDefaults().span(2, 1).grab(true, false).hint(640, SWT.DEFAULT).applyTo(message);
		Label w = new Label(area, SWT.NONE);
		w.setText("Keep the last events in the views:");
		window = new Spinner(area, SWT.BORDER);
		window.setData(TracesView.ROLE, "attachWindow");
		window.setValues(DEFAULT_WINDOW, 1_000, 100_000_000, 0, 100_000, 1_000_000);
		window.setToolTipText("Older events are not kept in memory: they are in the process's trace file, which the "
				+ "live trace offers to open");
		refresh();
		return area;
	}

	@Override
	protected void createButtonsForButtonBar(Composite parent) {
		Button r = createButton(parent, IDialogConstants.CLIENT_ID, "&Refresh", false);
		r.setData(TracesView.ROLE, "attachRefresh");
		Button ok = createButton(parent, IDialogConstants.OK_ID, "&Attach", true);
		ok.setData(TracesView.ROLE, "attachOk");
		createButton(parent, IDialogConstants.CANCEL_ID, IDialogConstants.CANCEL_LABEL, false);
		ok.setEnabled(false);
	}

	@Override
	protected void buttonPressed(int id) {
		if (id == IDialogConstants.CLIENT_ID) {
			refresh();
		} else {
			super.buttonPressed(id);
		}
	}

	private void updateOk() {
		Button ok = getButton(IDialogConstants.OK_ID);
		if (ok != null) {
			ok.setEnabled(table.getSelectionIndex() >= 0);
		}
	}

	/** Lists the processes again (in a Job). */
	public void refresh() {
		message.setText("Listing the recording processes…");
		Job previous = listing;
		if (previous != null) {
			previous.cancel();
		}
		var display = table.getDisplay();
		Job job = Job.create("Listing GPU processes to attach to", (IProgressMonitor m) -> {
			LiveProcesses.Listing l;
			String failure = null;
			try {
				l = LiveProcesses.list(directory, Duration.ofSeconds(2));
			} catch (IOException e) {
				l = null;
				failure = "Cannot list " + directory + ": " + e.getMessage();
			}
			LiveProcesses.Listing listed = l;
			String failed = failure;
			display.asyncExec(() -> show(listed, failed));
			return Status.OK_STATUS;
		});
		job.setSystem(true);
		listing = job;
		job.schedule();
	}

	private void show(LiveProcesses.@Nullable Listing l, @Nullable String failure) {
		if (table.isDisposed()) {
			return;
		}
		long selectedPid = table.getSelectionIndex() >= 0 ? processes.get(table.getSelectionIndex()).pid() : -1;
		table.removeAll();
		processes = l == null ? List.of() : l.live();
		for (LiveProcess p : processes) {
			TableItem item = new TableItem(table, SWT.NONE);
			item.setText(new String[] { Long.toString(p.pid()), command(p, 200), p.device(),
					STARTED.format(Instant.ofEpochSecond(0, p.startUnixNs())),
					String.format(Locale.ROOT, "%,d", p.eventsSoFar()) });
			if (p.pid() == selectedPid) {
				table.setSelection(item);
			}
		}
		List<String> lines = new ArrayList<>();
		if (failure != null) {
			lines.add(failure);
		} else if (l != null) {
			lines.add(processes.isEmpty()
					? "No process of this user records now (a process records when it runs with LD_PRELOAD="
							+ "libphos_recorder.so, or phos-record)."
					: processes.size() + (processes.size() == 1 ? " process records." : " processes record.")
							+ " Choose one and Attach (or double-click it).");
			if (!l.stale().isEmpty()) {
				lines.add("Ended without removing their socket (killed): " + l.stale());
			}
			lines.addAll(l.problems());
		}
		message.setText(String.join("\n", lines));
		message.getParent().layout(true);
		updateOk();
	}

	@Override
	protected void okPressed() {
		int i = table.getSelectionIndex();
		if (i < 0 || i >= processes.size()) {
			return;
		}
		LiveTraceInput in = new LiveTraceInput(directory, processes.get(i), window.getSelection());
		chosen = in;
		super.okPressed();
		onAttach.accept(in);
	}

	@Override
	public boolean close() {
		Job j = listing;
		if (j != null) {
			j.cancel();
		}
		return super.close();
	}

	/** Calls {@code action} with the process chosen when Attach is pressed (the dialog is closed by then). */
	public void onAttach(java.util.function.Consumer<LiveTraceInput> action) {
		onAttach = action;
	}

	/** The process chosen (after OK), or null. */
	public @Nullable LiveTraceInput chosen() {
		return chosen;
	}

	/** The processes listed (UI thread). */
	public List<LiveProcess> listed() {
		return processes;
	}

	/** The process's command line, shortened to {@code max} characters. */
	static String command(LiveProcess p, int max) {
		String c = String.join(" ", p.argv());
		return c.length() <= max ? c : c.substring(0, max - 1) + "…";
	}
}
