package org.phos.workbench.internal.ui.attach;

import java.util.Locale;

import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Font;
import org.eclipse.swt.graphics.FontData;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.LiveAccuracy;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.internal.ui.accuracy.ColumnFit;
import org.phos.workbench.internal.ui.accuracy.SpeculationTheme;

/**
 * The live trace's "Accuracy" section (i14-liveacc): while the sanitizer tool runs in the attached process, its
 * observed accesses arrive on the stream after each of its read-backs, and each time the engines are judged again on
 * the newest generation as {@code validate} judges them ({@link LiveAccuracy}). One row per engine: launches judged,
 * unsafe launches, missed writes, write recall, byte precision; a figure that changed since the last judgement shows
 * by how much, so that a person watching sees which way it moves. Without an observer in the process the section says
 * how to get one.
 */
public final class LiveAccuracyPanel {
	/** The table's columns. */
	static final String[] COLUMNS = { "Engine", "Launches judged", "Unsafe launches", "Missed writes", "Write recall",
			"Byte precision" };

	private final Label header;
	private final Table table;
	private LiveAccuracy.@Nullable Figures shown;
	private final Font bold;

	LiveAccuracyPanel(Composite parent) {
		Composite box = new Composite(parent, SWT.NONE);
		GridLayoutFactory.fillDefaults().spacing(2, 2).applyTo(box);
		GridDataFactory.fillDefaults().grab(true, false).applyTo(box);
		header = new Label(box, SWT.WRAP);
		header.setData(TracesView.ROLE, "liveAccuracyHeader");
		FontData[] fd = header.getFont().getFontData();
		for (FontData d : fd) {
			d.setStyle(SWT.BOLD);
		}
		bold = new Font(header.getDisplay(), fd);
		header.addListener(SWT.Dispose, e -> bold.dispose());
		header.setText("Accuracy: no observed accesses yet (the sanitizer tool is not in the process, or has not "
				+ "read back yet).");
		header.setToolTipText("Run the process with the sanitizer tool as well as the recorder (LD_PRELOAD="
				+ "libphos_recorder.so:libphos_sanitizer.so, native-hooks/README.md): after each of its read-backs the "
				+ "engines are judged here as validate judges them.");
		GridDataFactory.fillDefaults().grab(true, false).hint(200, SWT.DEFAULT).applyTo(header);
		table = new Table(box, SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE | SWT.H_SCROLL);
		table.setData(TracesView.ROLE, "liveAccuracy");
		table.setHeaderVisible(true);
		table.setLinesVisible(true);
		for (String c : COLUMNS) {
			new TableColumn(table, c.equals("Engine") ? SWT.LEFT : SWT.RIGHT).setText(c);
		}
		GridDataFactory.fillDefaults().grab(true, false).hint(200, table.getHeaderHeight()
				+ 4 * table.getItemHeight() + 6).exclude(true).applyTo(table);
		table.setVisible(false); // until the first figures: the section is one line
		table.addListener(SWT.Resize, e -> ColumnFit.fill(table, 0, 160));
		org.phos.workbench.internal.ui.theme.PhoenixThemes.onChange(table, () -> {
			LiveAccuracy.Figures f = shown;
			if (f != null) {
				render(f, null);
			}
		});
	}

	/** Shows the newest figures (UI thread); the same figures again change nothing. */
	void show(LiveAccuracy.@Nullable Figures figures) {
		if (figures == null || figures == shown || table.isDisposed()) {
			return;
		}
		LiveAccuracy.Figures before = shown;
		shown = figures;
		render(figures, before);
	}

	private void render(LiveAccuracy.Figures f, LiveAccuracy.@Nullable Figures before) {
		if (!table.getVisible()) {
			((org.eclipse.swt.layout.GridData) table.getLayoutData()).exclude = false;
			table.setVisible(true);
		}
		header.setText(String.format(Locale.ROOT, "Accuracy (live, as validate judges; %s): %s",
				f.judgement() == 1 ? "judged once" : "judged " + f.judgement() + " times", f.summary()));
		header.setFont(bold);
		int rows = f.engines().size();
		while (table.getItemCount() > rows) {
			table.getItem(table.getItemCount() - 1).dispose();
		}
		for (int i = 0; i < rows; i++) {
			LiveAccuracy.EngineFigures e = f.engines().get(i);
			LiveAccuracy.EngineFigures was = before == null || before.engines().size() != rows ? null
					: before.engines().get(i);
			TableItem item = i < table.getItemCount() ? table.getItem(i) : new TableItem(table, SWT.NONE);
			item.setText(new String[] { e.engine(), count(e.launchesJudged(), was == null ? -1 : was.launchesJudged()),
					count(e.unsafeLaunches(), was == null ? -1 : was.unsafeLaunches()),
					count(e.missedWrites(), was == null ? -1 : was.missedWrites()),
					share(e, e.writeRecall(), was == null ? Double.NaN : was.writeRecall()),
					share(e, e.bytePrecision(), was == null ? Double.NaN : was.bytePrecision()) });
			item.setData(e);
			item.setForeground(2, e.unsafeLaunches() > 0 ? SpeculationTheme.color("missed-write") : null);
			item.setForeground(3, e.missedWrites() > 0 ? SpeculationTheme.color("missed-write") : null);
			item.setFont(1, was != null && was.launchesJudged() != e.launchesJudged() ? bold : null);
		}
		ColumnFit.fill(table, 0, 160);
		header.getParent().getParent().layout(true, true);
	}

	/** {@code 75 (+45)}: the count and its change since the last judgement. */
	private static String count(long now, long before) {
		return before < 0 || before == now ? Long.toString(now) : String.format(Locale.ROOT, "%d (%+d)", now, now - before);
	}

	/** {@code 98.46%} as validate prints it, with its change in points when it moved. */
	private static String share(LiveAccuracy.EngineFigures e, double now, double before) {
		String s = e.share(now);
		if (Double.isNaN(before) || e.launchesJudged() == 0 || Math.abs(now - before) < 5e-5) {
			return s;
		}
		return s + String.format(Locale.ROOT, " (%+.2f)", (now - before) * 100);
	}

	/** The figures shown, or null (tests). */
	public LiveAccuracy.@Nullable Figures figures() {
		return shown;
	}

	/** The header's text (tests). */
	public String headerText() {
		return header.getText();
	}

	/** The table (tests). */
	public Table table() {
		return table;
	}
}
