package org.phos.workbench.internal.ui.launches;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntConsumer;
import java.util.regex.PatternSyntaxException;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;
import org.phos.workbench.analysis.core.LaunchQuery;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.speculation.core.EngineRegistry;

/**
 * The filter controls above the launch table, as the {@code launches} command's options: kernel regex
 * ({@code --kernel}), stream ({@code --stream}), engine and verdict ({@code --engine}, {@code --verdict}), host-time
 * range ({@code --from}, {@code --to}), and a "go to launch" field. It only reads and checks what was typed; the view
 * runs the query. Bad input is reported as a {@link BadFilterException} whose message names the field.
 */
final class LaunchFilterBar {
    /** Verdict labels the verdict combo offers (as {@code launches --verdict}); index 0 is "any". */
    static final List<String> VERDICTS = List.of("exact", "over-approximated", "missed-read", "missed-write",
            "wrong-direction", "unsafe", "unreliable", "not-observed");
    private static final String NO_ENGINE = "none";
    private static final String ANY_VERDICT = "any verdict";
    private static final String ALL_STREAMS = "all streams";

    /** What the bar asks for. */
    record Request(LaunchQuery.Filter filter, @Nullable String engine) {
    }

    /** Input that cannot be turned into a filter; the message names the field and the value. */
    static final class BadFilterException extends Exception {
        private static final long serialVersionUID = 1L;

        BadFilterException(String message) {
            super(message);
        }
    }

    private final Text kernel;
    private final Combo stream;
    private final Combo engine;
    private final Combo verdict;
    private final Text from;
    private final Text to;
    private final Text goTo;
    private long[] streams = new long[0];

    /**
     * Creates the controls in {@code parent} (which must have a one-column GridLayout).
     *
     * @param onChange called when a filter changed (typed text after a short pause, Enter, a combo choice)
     * @param onGoTo called with the launch typed into the "go to" field (Enter)
     * @param onBadGoTo called with a message when the "go to" field does not hold a launch index
     */
    LaunchFilterBar(Composite parent, Runnable onChange, IntConsumer onGoTo, java.util.function.Consumer<String> onBadGoTo) {
        // three short rows: the view is about 540 px wide at the default window size
        Composite row1 = row(parent, 4);
        label(row1, "Kernel regex:");
        kernel = new Text(row1, SWT.BORDER | SWT.SINGLE);
        kernel.setData(TracesView.ROLE, "kernelFilter");
        kernel.setMessage("e.g. gemm|reduce (found anywhere in the demangled name)");
        kernel.setToolTipText("Regular expression found anywhere in the demangled kernel name (launches --kernel)");
        // the field takes what the row leaves: a regex of 40+ characters stays readable
        GridDataFactory.fillDefaults().grab(true, false).hint(220, SWT.DEFAULT).applyTo(kernel);
        label(row1, "Stream:");
        stream = combo(row1, "streamFilter", 130);
        stream.setToolTipText("Only launches on this stream (launches --stream); in brackets its launches");

        Composite row2 = row(parent, 6);
        label(row2, "Engine:");
        engine = combo(row2, "engineFilter", 95);
        engine.setToolTipText("Judge each launch with this engine against the observed truth, as validate does "
                + "(launches --engine); fills the verdict column");
        label(row2, "Verdict:");
        verdict = combo(row2, "verdictFilter", 150);
        verdict.setToolTipText("Only launches with this verdict under the engine (launches --verdict); "
                + "unsafe: missed-write or wrong-direction");
        label(row2, "Go to launch:");
        goTo = new Text(row2, SWT.BORDER | SWT.SINGLE);
        goTo.setData(TracesView.ROLE, "goToLaunch");
        goTo.setMessage("N");
        goTo.setToolTipText("Type a launch index and press Enter: selects and reveals it (Ctrl+G in the table)");
        GridDataFactory.fillDefaults().grab(true, false).hint(60, SWT.DEFAULT).applyTo(goTo);

        Composite row3 = row(parent, 5);
        label(row3, "Host time from:");
        from = new Text(row3, SWT.BORDER | SWT.SINGLE);
        from.setData(TracesView.ROLE, "fromFilter");
        from.setMessage("ns (≥)");
        from.setToolTipText("Only launches issued at host time ≥ this, in ns as the trace stores it (launches --from); "
                + "a range dragged on the Trace Timeline fills it");
        GridDataFactory.fillDefaults().grab(true, false).hint(100, SWT.DEFAULT).applyTo(from);
        label(row3, "to:");
        to = new Text(row3, SWT.BORDER | SWT.SINGLE);
        to.setData(TracesView.ROLE, "toFilter");
        to.setMessage("ns (<)");
        to.setToolTipText("Only launches issued at host time < this, in ns (launches --to)");
        GridDataFactory.fillDefaults().grab(true, false).hint(100, SWT.DEFAULT).applyTo(to);
        Button clear = new Button(row3, SWT.PUSH);
        clear.setText("All time");
        clear.setData(TracesView.ROLE, "clearTimeRange");
        clear.setToolTipText("Drop the host-time range");
        clear.addListener(SWT.Selection, e -> {
            setRange(null, null);
            onChange.run();
        });

        stream.setItems(ALL_STREAMS);
        stream.select(0);
        List<String> engines = new ArrayList<>();
        engines.add(NO_ENGINE);
        engines.add(EngineRegistry.BEST);
        for (EngineRegistry.EngineInfo info : Analysis.session().catalog().engines()) {
            engines.add(info.name());
        }
        engine.setItems(engines.toArray(String[]::new));
        engine.select(0);
        List<String> verdicts = new ArrayList<>();
        verdicts.add(ANY_VERDICT);
        verdicts.addAll(VERDICTS);
        verdict.setItems(verdicts.toArray(String[]::new));
        verdict.select(0);
        verdict.setEnabled(false);

        // typing: wait for a pause so a 10M-launch trace is not filtered once per key; Enter filters at once
        for (Text t : List.of(kernel, from, to)) {
            t.addListener(SWT.Modify, e -> {
                int stamp = ++typed;
                t.getDisplay().timerExec(300, () -> {
                    if (stamp == typed && !t.isDisposed()) {
                        onChange.run();
                    }
                });
            });
            t.addListener(SWT.DefaultSelection, e -> {
                typed++;
                onChange.run();
            });
        }
        stream.addListener(SWT.Selection, e -> onChange.run());
        engine.addListener(SWT.Selection, e -> {
            verdict.setEnabled(engine.getSelectionIndex() > 0);
            if (engine.getSelectionIndex() <= 0) {
                verdict.select(0);
            }
            onChange.run();
        });
        verdict.addListener(SWT.Selection, e -> onChange.run());
        goTo.addListener(SWT.DefaultSelection, e -> {
            String text = goTo.getText().trim().replace("_", "").replace(",", "");
            try {
                onGoTo.accept(Integer.parseInt(text));
            } catch (NumberFormatException x) {
                onBadGoTo.accept("Go to launch: '" + goTo.getText().trim() + "' is not a launch index (a whole number "
                        + "from 0)");
            }
        });
    }

    private int typed;

    private static Composite row(Composite parent, int columns) {
        Composite row = new Composite(parent, SWT.NONE);
        GridLayoutFactory.fillDefaults().numColumns(columns).spacing(6, 0).applyTo(row);
        GridDataFactory.fillDefaults().grab(true, false).applyTo(row);
        return row;
    }

    private static void label(Composite parent, String text) {
        Label l = new Label(parent, SWT.NONE);
        l.setText(text);
        GridDataFactory.swtDefaults().align(SWT.BEGINNING, SWT.CENTER).applyTo(l);
    }

    private static Combo combo(Composite parent, String role, int width) {
        Combo c = new Combo(parent, SWT.READ_ONLY | SWT.DROP_DOWN);
        c.setData(TracesView.ROLE, role);
        c.setVisibleItemCount(16);
        GridDataFactory.fillDefaults().hint(width, SWT.DEFAULT).applyTo(c);
        return c;
    }

    /** Reads the controls into a filter and an engine. */
    Request read() throws BadFilterException {
        String regex = kernel.getText().trim();
        int s = stream.getSelectionIndex();
        Long streamHandle = s <= 0 || s > streams.length ? null : streams[s - 1];
        long fromNs = time(from, "from", Long.MIN_VALUE);
        long toNs = time(to, "to", Long.MAX_VALUE);
        if (fromNs != Long.MIN_VALUE && toNs != Long.MAX_VALUE && fromNs > toNs) {
            throw new BadFilterException("Host time range: from " + fromNs + " is after to " + toNs);
        }
        String engineName = engine.getSelectionIndex() <= 0 ? null : engine.getText();
        String verdictLabel = engineName == null || verdict.getSelectionIndex() <= 0 ? null : verdict.getText();
        try {
            return new Request(new LaunchQuery.Filter(regex.isEmpty() ? null : regex, streamHandle, fromNs, toNs,
                    verdictLabel), engineName);
        } catch (PatternSyntaxException e) {
            throw new BadFilterException("Kernel regex '" + regex + "' is not a regular expression: "
                    + e.getDescription() + (e.getIndex() >= 0 ? " near index " + e.getIndex() : ""));
        }
    }

    private static long time(Text field, String name, long none) throws BadFilterException {
        String text = field.getText().trim().replace("_", "").replace(",", "");
        if (text.isEmpty()) {
            return none;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new BadFilterException("Host time " + name + ": '" + field.getText().trim()
                    + "' is not a time in ns (a whole number, as the trace stores host time)");
        }
    }

    /** Offers the streams of the trace (handles, with their launch counts). */
    void setStreams(long[] handles, long[] launches) {
        String chosen = stream.getText();
        streams = handles.clone();
        String[] items = new String[handles.length + 1];
        items[0] = ALL_STREAMS;
        int keep = 0;
        for (int i = 0; i < handles.length; i++) {
            items[i + 1] = streamLabel(handles[i], launches[i]);
            if (items[i + 1].equals(chosen)) {
                keep = i + 1;
            }
        }
        stream.setItems(items);
        stream.select(keep);
    }

    /** Whether the streams of the trace are still to be offered. */
    boolean streamsMissing() {
        return streams.length == 0;
    }

    /** The label a stream has in the combo. */
    static String streamLabel(long handle, long launches) {
        return String.format(Locale.ROOT, "0x%x (%,d)", handle, launches);
    }

    /** Sets the host-time range fields (null: unbounded). */
    void setRange(@Nullable Long fromNs, @Nullable Long toNs) {
        typed++; // not a typed change: the caller refilters once
        from.setText(fromNs == null ? "" : Long.toString(fromNs));
        to.setText(toNs == null ? "" : Long.toString(toNs));
        typed++;
    }

    /** Puts the caret into the "go to launch" field with its text selected (Ctrl+G). */
    void focusGoTo() {
        goTo.setFocus();
        goTo.selectAll();
    }

    /** Whether a control of the bar has the keyboard focus (the view then leaves it there). */
    boolean hasFocus() {
        for (org.eclipse.swt.widgets.Control c : List.of(kernel, stream, engine, verdict, from, to, goTo)) {
            if (c.isFocusControl()) {
                return true;
            }
        }
        return false;
    }
}
