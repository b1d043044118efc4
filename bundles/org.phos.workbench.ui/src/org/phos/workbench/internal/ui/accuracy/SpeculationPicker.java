package org.phos.workbench.internal.ui.accuracy;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.RowLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.speculation.core.validate.SpeculationValidator;
import org.phos.workbench.trace.core.Trace;

/**
 * The speculation views' choice of what to compare: which engines (from the session's {@link EngineCatalog}: the
 * {@code best} combination, every base engine, and the {@code ptx-flow/arg-scan} fallback that {@code validate} runs by
 * default) and which observing tool's records are the truth (all of them united, the default, or one tool when the
 * trace holds several). The same choice as {@code validate --engine A,B --tool T} and {@code accesses --engine A,B
 * --tool T}. A row of check and radio buttons that wraps in a narrow view; at least one engine stays chosen.
 * <p>
 * Buttons carry {@link TracesView#ROLE} data {@code engine:NAME} and {@code tool:NAME} ({@code tool:} for all) for
 * the UI tests.
 */
public final class SpeculationPicker {
	/** Role data of the "all tools" radio button. */
	public static final String ALL_TOOLS = "tool:";

	private final Composite row;
	private final Composite tools;
	private final Runnable changed;
	private final List<String> offered;
	private final List<String> chosen = new ArrayList<>(Validations.DEFAULT_ENGINES);
	private @Nullable String tool;
	private List<String> traceTools = List.of();

	/**
	 * @param parent where the row goes (its layout data is the caller's)
	 * @param catalog the engines to offer
	 * @param changed called on the UI thread after the user changed the choice
	 */
	public SpeculationPicker(Composite parent, EngineCatalog catalog, Runnable changed) {
		this.changed = changed;
		this.offered = offered(catalog);
		row = new Composite(parent, SWT.NONE);
		RowLayout layout = new RowLayout(SWT.HORIZONTAL);
		layout.wrap = true;
		layout.center = true;
		layout.marginLeft = layout.marginRight = layout.marginTop = layout.marginBottom = 0;
		layout.spacing = 6;
		row.setLayout(layout);
		Label engines = new Label(row, SWT.NONE);
		engines.setText("Engines:");
		engines.setToolTipText("speculation engines shown side by side (validate --engine)");
		for (String name : offered) {
			Button b = new Button(row, SWT.CHECK);
			b.setText(name);
			b.setData(TracesView.ROLE, "engine:" + name);
			b.setToolTipText(description(catalog, name));
			b.setSelection(chosen.contains(name));
			b.addListener(SWT.Selection, e -> toggle(b, name));
		}
		tools = new Composite(row, SWT.NONE);
		RowLayout toolLayout = new RowLayout(SWT.HORIZONTAL);
		toolLayout.center = true;
		toolLayout.marginLeft = toolLayout.marginRight = toolLayout.marginTop = toolLayout.marginBottom = 0;
		toolLayout.spacing = 6;
		tools.setLayout(toolLayout);
		rebuildTools();
	}

	/** @return the engines offered, in their order: best, the catalog's base engines, ptx-flow/arg-scan */
	static List<String> offered(EngineCatalog catalog) {
		List<String> names = new ArrayList<>();
		names.add(EngineCatalog.BEST);
		for (EngineRegistry.EngineInfo info : catalog.engines()) {
			names.add(info.name());
		}
		String fallback = "ptx-flow/arg-scan";
		if (catalog.canCreate(fallback) && !names.contains(fallback)) {
			names.add(fallback);
		}
		return names;
	}

	private static String description(EngineCatalog catalog, String name) {
		if (name.equals(EngineCatalog.BEST)) {
			return "best = " + EngineCatalog.BEST_SPEC + " (+alloc-blocks where the trace has allocator events): the "
					+ "most accurate combination";
		}
		for (EngineRegistry.EngineInfo info : catalog.engines()) {
			if (info.name().equals(name)) {
				return name + ": " + info.description();
			}
		}
		return name + ": the first engine where it covers the launch, else the second";
	}

	private void toggle(Button b, String name) {
		if (b.getSelection()) {
			chosen.add(name);
		} else if (chosen.size() == 1) {
			b.setSelection(true); // one engine at least: there is nothing to show without one
			return;
		} else {
			chosen.remove(name);
		}
		changed.run();
	}

	/** Shows the tools of {@code trace} (a radio button each when it holds records of several). */
	public void setTrace(Trace trace) {
		List<String> now = SpeculationValidator.tools(trace);
		if (now.equals(traceTools)) {
			return;
		}
		traceTools = now;
		if (tool != null && !now.contains(tool)) {
			tool = null;
		}
		rebuildTools();
	}

	private void rebuildTools() {
		for (Control c : tools.getChildren()) {
			c.dispose();
		}
		Label truth = new Label(tools, SWT.NONE);
		truth.setText("Truth:");
		truth.setToolTipText("whose observed accesses the engines are judged against (validate --tool)");
		radio(null, traceTools.size() > 1 ? "all tools" : traceTools.isEmpty() ? "none recorded" : traceTools.get(0));
		if (traceTools.size() > 1) {
			for (String t : traceTools) {
				radio(t, t);
			}
		}
		row.layout(true, true);
		if (row.getParent() != null) {
			row.getParent().layout(true, true);
		}
	}

	private void radio(@Nullable String value, String text) {
		Button b = new Button(tools, SWT.RADIO);
		b.setText(text);
		b.setData(TracesView.ROLE, value == null ? ALL_TOOLS : "tool:" + value);
		b.setToolTipText(value == null ? "the records of every tool in the trace, united" : "only " + value + "'s records");
		b.setSelection(java.util.Objects.equals(value, tool));
		b.addListener(SWT.Selection, e -> {
			if (b.getSelection() && !java.util.Objects.equals(value, tool)) {
				tool = value;
				changed.run();
			}
		});
	}

	/** @return the chosen engines, in the order offered */
	public List<String> engines() {
		List<String> out = new ArrayList<>();
		for (String name : offered) {
			if (chosen.contains(name)) {
				out.add(name);
			}
		}
		return out;
	}

	/** @return the chosen tool, or null for every tool united */
	public @Nullable String tool() {
		return tool;
	}

	/** @return the row */
	public Control control() {
		return row;
	}
}
