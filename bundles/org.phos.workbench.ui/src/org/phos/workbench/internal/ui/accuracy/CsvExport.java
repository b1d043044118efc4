package org.phos.workbench.internal.ui.accuracy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.Supplier;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.action.Action;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.ui.IViewSite;
import org.phos.workbench.analysis.core.table.Table;
import org.phos.workbench.analysis.core.table.TableRenderer;
import org.phos.workbench.cr.core.io.OutputFile;
import org.phos.workbench.cr.core.io.OutputFiles;

/**
 * "Export CSV..." of the speculation views: asks for a file (a FileDialog), renders the view's table through
 * {@link TableRenderer#CSV} (so the file equals the command line's CSV of the same table) and writes it in a Job the
 * way every command writes its outputs ({@link OutputFile}: a temporary file beside the target, then an atomic
 * rename; {@link OutputFiles#refusal} refuses the trace itself, links, folders and devices). The outcome goes to the
 * status line, a failure naming the file.
 */
public final class CsvExport {
	/**
	 * For UI tests: when set, answers in place of the FileDialog (argument: the suggested file name; null: cancelled).
	 * The action and the writing are the real ones.
	 */
	public static volatile @Nullable Function<String, @Nullable String> chooserForTests;

	/**
	 * The "Copy" tool bar action every table view has: puts {@code csv} (what the view's Export CSV would write) on
	 * the clipboard as text.
	 */
	public static Action copyAction(Control owner, String toolTip, Supplier<String> csv) {
		Action copy = new Action("Copy") {
			@Override
			public void run() {
				org.eclipse.swt.dnd.Clipboard clipboard = new org.eclipse.swt.dnd.Clipboard(owner.getDisplay());
				try {
					clipboard.setContents(new Object[] { csv.get() },
							new org.eclipse.swt.dnd.Transfer[] { org.eclipse.swt.dnd.TextTransfer.getInstance() });
				} finally {
					clipboard.dispose();
				}
			}
		};
		copy.setToolTipText(toolTip);
		return copy;
	}

	/** What a view exports now, or null when it shows nothing. */
	public record Export(String suggestedName, Path trace, Table<?> table) {
	}

	private final IViewSite site;
	private final Control owner;
	private final Supplier<@Nullable Export> what;
	private volatile String outcome = "";
	private @Nullable Action action;

	/**
	 * @param site the view's site (for its shell and status line)
	 * @param owner a control of the view (its display; the outcome is dropped once it is disposed)
	 * @param what the table to export now
	 */
	public CsvExport(IViewSite site, Control owner, Supplier<@Nullable Export> what) {
		this.site = site;
		this.owner = owner;
		this.what = what;
	}

	/** @return the toolbar action (made once) */
	public Action action(String tooltip) {
		Action a = action;
		if (a == null) {
			a = new Action("Export CSV...") {
				@Override
				public void run() {
					export();
				}
			};
			action = a;
		}
		a.setToolTipText(tooltip);
		return a;
	}

	/** @return the toolbar action, or null before {@link #action(String)} */
	public @Nullable Action action() {
		return action;
	}

	/** @return the last export's outcome as shown in the status line ("" before the first) */
	public String outcome() {
		return outcome;
	}

	/** @return the table as the command line's CSV */
	public static byte[] csv(Table<?> table) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
		TableRenderer.CSV.render(table, out);
		out.flush();
		return bytes.toByteArray();
	}

	private void export() {
		outcome = "";
		Export e = what.get();
		if (e == null) {
			report("Nothing to export yet: the view shows no table", true);
			return;
		}
		Function<String, @Nullable String> hook = chooserForTests;
		String chosen;
		if (hook != null) {
			chosen = hook.apply(e.suggestedName());
		} else {
			FileDialog dialog = new FileDialog(owner.getShell(), SWT.SAVE);
			dialog.setFilterExtensions(new String[] { "*.csv", "*" });
			dialog.setFileName(e.suggestedName());
			dialog.setOverwrite(true);
			chosen = dialog.open();
		}
		if (chosen == null) {
			return;
		}
		Path target = Path.of(chosen);
		byte[] bytes = csv(e.table());
		int rows = e.table().rows().size();
		ExportJob.write(site, owner, target, bytes, e.trace(),
				"Exported " + rows + (rows == 1 ? " row" : " rows") + " to " + target, text -> outcome = text);
	}

	private void report(String message, boolean error) {
		ExportJob.show(site, owner, message, error, text -> outcome = text);
	}
}
