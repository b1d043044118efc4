package org.phos.workbench.internal.ui.experiment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.jface.dialogs.IDialogConstants;
import org.eclipse.jface.dialogs.Dialog;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StackLayout;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Group;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.PartInitException;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.live.LiveDevices;
import org.phos.workbench.internal.ui.TracesView;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.ui.model.LaunchSelection;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.model.TimeSelection;

/**
 * "New Experiment": every option of {@code simulate} with its default shown (policies with their parameters, the
 * checkpoint or restore point, the machine preset and its knobs, the read/write set sources, the chart width) and the
 * experiment's name. Each value is checked as it is typed; a refused one shows the reason next to its field and Run
 * stays disabled. The dialog is modeless so that "Pick on timeline" works: while it is pressed, a launch clicked in
 * the Trace Timeline (or the Launches view) becomes the point, and a range dragged there gives its start time.
 */
public final class NewExperimentDialog extends Dialog {
    /** What Run hands over: the trace, the experiment's name, its configuration and whether it runs live. */
    public record Request(LoadedTrace trace, String name, ExperimentConfig config, boolean live) {
        /** A simulated experiment. */
        public Request(LoadedTrace trace, String name, ExperimentConfig config) {
            this(trace, name, config, false);
        }
    }

    /** View id of the Trace Timeline (bundle org.phos.workbench.ui.timeline). */
    static final String TRACE_TIMELINE_ID = "org.phos.workbench.ui.timeline.traceTimeline";
    private static final String EXCLUDABLE = "org.phos.workbench.ui.experiment.excludable";

    private final IWorkbenchPage page;
    private final List<LoadedTrace> traces;
    private final ExperimentForm form = new ExperimentForm();
    private final Consumer<Request> onRun;
    private final Map<String, Label> errors = new HashMap<>();
    private final Map<String, Text> knobFields = new HashMap<>();
    private final ISelectionListener picker = this::picked;
    private boolean nameTouched;
    private Combo traceCombo;
    private Text nameText;
    private Text atText;
    private Button pickButton;
    private Label pickStatus;
    private Table policyTable;
    private Composite paramStack;
    private final Map<String, Composite> paramPages = new HashMap<>();
    private Label paramTitle;
    private Combo presetCombo;
    private final Map<String, Button> setButtons = new HashMap<>();
    private Table engineTable;
    private Text widthText;
    private Text commandText;
    private Button liveButton; // i13-live2
    private Label liveStatus; // i13-live2
    private Label summary;
    private org.eclipse.swt.custom.ScrolledComposite scroller;
    private Composite content;
    /** The controls shown while picking: the point's row, its reason and the picking hint. */
    private final List<Control> pointRow = new ArrayList<>();
    private org.eclipse.swt.graphics.@Nullable Rectangle boundsBeforePick;

    /**
     * @param traces the opened traces to choose from (the first is chosen unless {@code trace} is given)
     * @param trace the trace to start with, or null
     * @param at the point to start with ({@code launch:N}), or null
     */
    public NewExperimentDialog(Shell parent, IWorkbenchPage page, List<LoadedTrace> traces,
            @Nullable LoadedTrace trace, @Nullable String at, Consumer<Request> onRun) {
        super(parent);
        this.page = page;
        this.traces = List.copyOf(traces);
        this.onRun = onRun;
        form.trace = trace != null ? trace : traces.isEmpty() ? null : traces.get(0);
        form.at = at == null ? "" : at;
        setShellStyle(SWT.MODELESS | SWT.DIALOG_TRIM | SWT.RESIZE);
        setBlockOnOpen(false);
    }

    @Override
    protected void configureShell(Shell shell) {
        super.configureShell(shell);
        shell.setText("New Experiment");
        shell.setData(TracesView.ROLE, "newExperiment");
    }

    @Override
    protected Control createDialogArea(Composite parent) {
        Composite area = (Composite) super.createDialogArea(parent);
        // no title banner: it stays white in the dark theme, and the height is better spent on the options
        summary = new Label(area, SWT.WRAP);
        summary.setData(TracesView.ROLE, "exp.summary");
        GridDataFactory.fillDefaults().grab(true, false).hint(600, SWT.DEFAULT).indent(10, 0).applyTo(summary);
        // scrolls when the screen is lower than the options (a laptop): nothing is cut off
        scroller = new org.eclipse.swt.custom.ScrolledComposite(area, SWT.V_SCROLL);
        scroller.setExpandHorizontal(true);
        scroller.setExpandVertical(true);
        GridDataFactory.fillDefaults().grab(true, true).applyTo(scroller);
        Composite c = new Composite(scroller, SWT.NONE);
        scroller.setContent(c);
        content = c;
        GridLayoutFactory.fillDefaults().numColumns(3).margins(10, 8).spacing(8, 5).applyTo(c);

        label(c, "Trace:");
        traceCombo = new Combo(c, SWT.READ_ONLY | SWT.DROP_DOWN);
        traceCombo.setData(TracesView.ROLE, "exp.trace");
        for (LoadedTrace t : traces) {
            traceCombo.add(t.name() + "  (" + t.trace().launchCount() + " launches)");
        }
        traceCombo.select(Math.max(0, traces.indexOf(form.trace)));
        traceCombo.addListener(SWT.Selection, e -> {
            form.trace = traces.get(traceCombo.getSelectionIndex());
            update();
        });
        GridDataFactory.fillDefaults().grab(true, false).applyTo(traceCombo);
        error(c, "trace");

        label(c, "Name:");
        nameText = text(c, "exp.name", "the experiment's folder beside the trace");
        nameText.addListener(SWT.Modify, e -> {
            nameTouched = nameText.isFocusControl() || nameTouched;
            form.name = nameText.getText();
            update();
        });
        error(c, ExperimentForm.NAME);

        pointRow.add(label(c, "Checkpoint / restore point:"));
        Composite atRow = new Composite(c, SWT.NONE);
        pointRow.add(atRow);
        GridLayoutFactory.fillDefaults().numColumns(2).applyTo(atRow);
        GridDataFactory.fillDefaults().grab(true, false).applyTo(atRow);
        atText = text(atRow, "exp.at", "launch:0 (default), or a time such as 200ms");
        atText.setText(form.at);
        atText.setToolTipText("launch:N: just before the N-th launch (0-based); a time (1.5s, 200ms, 30us): before "
                + "the first operation issued at or after it, counted from the trace's start");
        atText.addListener(SWT.Modify, e -> {
            form.at = atText.getText();
            update();
        });
        pickButton = new Button(atRow, SWT.TOGGLE);
        pickButton.setText("Pick on timeline");
        pickButton.setData(TracesView.ROLE, "exp.pick");
        pickButton.setToolTipText("Then click a launch in the Trace Timeline (or the Launches view), or drag a range "
                + "there: its start becomes the point");
        pickButton.addListener(SWT.Selection, e -> setPicking(pickButton.getSelection()));
        pointRow.add(error(c, ExperimentForm.AT));
        pointRow.add(new Label(c, SWT.NONE));
        pickStatus = new Label(c, SWT.WRAP);
        pointRow.add(pickStatus);
        pickStatus.setData(TracesView.ROLE, "exp.pickStatus");
        GridDataFactory.fillDefaults().grab(true, false).span(2, 1).hint(300, SWT.DEFAULT).applyTo(pickStatus);

        createPolicies(c);
        createMachine(c);
        createSets(c);

        label(c, "Chart width (px):");
        widthText = text(c, "exp.width", Integer.toString(ExperimentConfig.DEFAULT_WIDTH_PX));
        widthText.setText(form.width);
        widthText.addListener(SWT.Modify, e -> {
            form.width = widthText.getText();
            update();
        });
        error(c, ExperimentForm.WIDTH);

        createLive(c); // i13-live2

        label(c, "Command line:");
        commandText = new Text(c, SWT.READ_ONLY | SWT.WRAP | SWT.MULTI);
        commandText.setData(TracesView.ROLE, "exp.command");
        commandText.setToolTipText("The same experiment from a terminal");
        GridDataFactory.fillDefaults().grab(true, false).span(2, 1).hint(400, SWT.DEFAULT).applyTo(commandText);

        getShell().addDisposeListener(e -> page.removeSelectionListener(picker));
        return area;
    }

    // i13-live2: begin
    /**
     * "Run live on the GPU": offered only where a CUDA device is found. The look ({@link LiveDevices#probe()}: the
     * driver's device count, no context) runs off the UI thread; until it answers, and where there is no device, the
     * choice is disabled with the reason beside it.
     */
    private void createLive(Composite c) {
        label(c, "Where it runs:");
        // one row spanning both columns, the reason wrapping in a fixed width: it never widens the dialog
        Composite row = new Composite(c, SWT.NONE);
        GridLayoutFactory.fillDefaults().numColumns(2).spacing(10, 0).applyTo(row);
        GridDataFactory.fillDefaults().grab(true, false).span(2, 1).applyTo(row);
        liveButton = new Button(row, SWT.CHECK);
        liveButton.setText("Run live on the GPU");
        liveButton.setData(TracesView.ROLE, "exp.live");
        liveButton.setToolTipText("Each policy runs for real on this machine's CUDA GPU, beside its simulated twin "
                + "(docs/live-cr.md); the experiment is saved marked live and opens later on any machine");
        liveButton.setEnabled(false);
        liveButton.addListener(SWT.Selection, e -> {
            form.live = liveButton.getSelection();
            update();
        });
        GridDataFactory.fillDefaults().align(SWT.BEGINNING, SWT.BEGINNING).applyTo(liveButton);
        liveStatus = new Label(row, SWT.WRAP);
        liveStatus.setData(TracesView.ROLE, "exp.liveStatus");
        liveStatus.setText("looking for a CUDA device...");
        GridDataFactory.fillDefaults().grab(true, false).hint(420, SWT.DEFAULT).applyTo(liveStatus);
        org.eclipse.swt.widgets.Display display = c.getDisplay();
        org.eclipse.core.runtime.jobs.Job probe = org.eclipse.core.runtime.jobs.Job.create("Looking for a CUDA device",
                (org.eclipse.core.runtime.IProgressMonitor m) -> {
                    LiveDevices.Probe found = LiveDevices.probe();
                    display.asyncExec(() -> probed(found));
                    return org.eclipse.core.runtime.Status.OK_STATUS;
                });
        probe.setSystem(true);
        probe.schedule();
    }

    private void probed(LiveDevices.Probe found) {
        if (liveButton.isDisposed()) {
            return;
        }
        liveButton.setEnabled(found.present());
        if (found.present()) {
            liveStatus.setText("on " + found.text());
            liveStatus.setForeground(null);
        } else {
            liveButton.setSelection(false);
            form.live = false;
            String why = found.text().length() > 200 ? found.text().substring(0, 200) + "..." : found.text();
            liveStatus.setText("not available: " + why);
            liveStatus.setForeground(ExperimentColors.get(ExperimentColors.STALE));
        }
        liveStatus.setToolTipText(found.text());
        liveStatus.getParent().layout(true, true);
        update();
    }

    /** Whether "Run live on the GPU" can be chosen now, and the text beside it (tests). */
    public boolean liveEnabled() {
        return liveButton.isEnabled();
    }

    public String liveStatus() {
        return liveStatus.getText();
    }
    // i13-live2: end

    private void createPolicies(Composite c) {
        Label l = label(c, "Policies:");
        GridDataFactory.fillDefaults().align(SWT.BEGINNING, SWT.BEGINNING).applyTo(l);
        Composite row = new Composite(c, SWT.NONE);
        GridLayoutFactory.fillDefaults().numColumns(2).spacing(10, 0).applyTo(row);
        GridDataFactory.fillDefaults().grab(true, false).span(2, 1).applyTo(row);
        policyTable = new Table(row, SWT.CHECK | SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE);
        policyTable.setData(TracesView.ROLE, "exp.policies");
        policyTable.setHeaderVisible(true);
        TableColumn name = new TableColumn(policyTable, SWT.LEFT);
        name.setText("Policy (check to run)");
        TableColumn what = new TableColumn(policyTable, SWT.LEFT);
        what.setText("What it does");
        for (SimulateOptions.Policy p : SimulateOptions.POLICIES) {
            TableItem item = new TableItem(policyTable, SWT.NONE);
            item.setText(new String[] { p.name(), p.summary() });
            item.setData(p.name());
        }
        name.pack();
        name.setWidth(name.getWidth() + 24);
        what.setWidth(300);
        what.setToolTipText("docs/simulation.md describes each policy");
        GridDataFactory.fillDefaults().grab(true, false)
                .hint(SWT.DEFAULT, policyTable.getItemHeight() * SimulateOptions.POLICIES.size()
                        + policyTable.getHeaderHeight() + 4)
                .applyTo(policyTable);
        policyTable.addListener(SWT.Selection, e -> {
            if (e.detail == SWT.CHECK) {
                policyChecked((TableItem) e.item);
            }
            if (e.item instanceof TableItem item) {
                showParams((String) item.getData());
            }
        });

        Group params = new Group(row, SWT.NONE);
        params.setText("Parameters");
        GridLayoutFactory.swtDefaults().applyTo(params);
        GridDataFactory.fillDefaults().grab(false, true).hint(330, SWT.DEFAULT).applyTo(params);
        paramTitle = new Label(params, SWT.WRAP);
        paramTitle.setData(TracesView.ROLE, "exp.paramTitle");
        GridDataFactory.fillDefaults().grab(true, false).hint(300, SWT.DEFAULT).applyTo(paramTitle);
        paramStack = new Composite(params, SWT.NONE);
        paramStack.setLayout(new StackLayout());
        GridDataFactory.fillDefaults().grab(true, true).applyTo(paramStack);
        for (SimulateOptions.Policy p : SimulateOptions.POLICIES) {
            Composite page = new Composite(paramStack, SWT.NONE);
            GridLayoutFactory.fillDefaults().numColumns(2).spacing(6, 3).applyTo(page);
            if (p.params().isEmpty()) {
                Label none = new Label(page, SWT.WRAP);
                none.setText("No parameters besides the point.");
            }
            for (SimulateOptions.Param param : p.params()) {
                label(page, param.key() + ":").setToolTipText(param.help());
                Control field;
                if (param.choices().isEmpty()) {
                    Text t = new Text(page, SWT.BORDER | SWT.SINGLE);
                    t.setMessage(param.defaultValue() + " (default)");
                    t.addListener(SWT.Modify, e -> {
                        form.setParam(p.name(), param.key(), t.getText());
                        update();
                    });
                    field = t;
                } else {
                    Combo combo = new Combo(page, SWT.READ_ONLY | SWT.DROP_DOWN);
                    for (String choice : param.choices()) {
                        combo.add(choice + (choice.equals(param.defaultValue()) ? " (default)" : ""));
                    }
                    combo.select(param.choices().indexOf(param.defaultValue()));
                    combo.addListener(SWT.Selection, e -> {
                        String v = param.choices().get(combo.getSelectionIndex());
                        form.setParam(p.name(), param.key(), v.equals(param.defaultValue()) ? "" : v);
                        update();
                    });
                    field = combo;
                }
                field.setData(TracesView.ROLE, "exp.param." + param.key());
                field.setToolTipText(param.help());
                GridDataFactory.fillDefaults().grab(true, false).hint(140, SWT.DEFAULT).applyTo(field);
                Label err = new Label(page, SWT.WRAP);
                err.setForeground(errorColor());
                err.setData(TracesView.ROLE, "exp.error." + ExperimentForm.paramKey(p.name(), param.key()));
                GridDataFactory.fillDefaults().span(2, 1).grab(true, false).hint(290, SWT.DEFAULT).exclude(true)
                        .applyTo(err);
                err.setData(EXCLUDABLE, Boolean.TRUE);
                err.setVisible(false);
                errors.put(ExperimentForm.paramKey(p.name(), param.key()), err);
            }
            paramPages.put(p.name(), page);
        }
        new Label(c, SWT.NONE);
        Label err = error(c, ExperimentForm.POLICIES);
        GridDataFactory.fillDefaults().span(2, 1).grab(true, false).applyTo(err);
        policyTable.select(SimulateOptions.POLICIES.indexOf(SimulateOptions.policy("soft-cow")));
        showParams("soft-cow");
    }

    private void createMachine(Composite c) {
        Label l = label(c, "Machine:");
        GridDataFactory.fillDefaults().align(SWT.BEGINNING, SWT.BEGINNING).indent(0, 4).applyTo(l);
        Composite box = new Composite(c, SWT.NONE);
        GridLayoutFactory.fillDefaults().numColumns(8).spacing(6, 3).applyTo(box);
        GridDataFactory.fillDefaults().grab(true, false).span(2, 1).applyTo(box);
        label(box, "preset:");
        presetCombo = new Combo(box, SWT.READ_ONLY | SWT.DROP_DOWN);
        presetCombo.setData(TracesView.ROLE, "exp.preset");
        SimulateOptions.PRESETS.forEach(presetCombo::add);
        presetCombo.select(0);
        presetCombo.setToolTipText("h100: this project's H100 (PCIe Gen5); a800-pcie4: PhOS's testbed");
        presetCombo.addListener(SWT.Selection, e -> {
            form.preset = SimulateOptions.PRESETS.get(presetCombo.getSelectionIndex());
            showKnobDefaults();
            update();
        });
        GridDataFactory.fillDefaults().span(7, 1).applyTo(presetCombo);
        for (String knob : SimulateOptions.KNOBS) {
            label(box, knob + ":").setToolTipText(SimulateOptions.knobHelp(knob));
            Text t = new Text(box, SWT.BORDER | SWT.SINGLE);
            t.setData(TracesView.ROLE, "exp.knob." + knob);
            t.setToolTipText(SimulateOptions.knobHelp(knob));
            t.addListener(SWT.Modify, e -> {
                form.setKnob(knob, t.getText());
                update();
            });
            GridDataFactory.fillDefaults().grab(true, false).hint(80, SWT.DEFAULT).applyTo(t);
            knobFields.put(knob, t);
        }
        showKnobDefaults();
        Label err = new Label(box, SWT.WRAP);
        err.setForeground(errorColor());
        err.setData(TracesView.ROLE, "exp.error." + ExperimentForm.MACHINE);
        GridDataFactory.fillDefaults().span(8, 1).grab(true, false).hint(400, SWT.DEFAULT).applyTo(err);
        errors.put(ExperimentForm.MACHINE, err);
    }

    private void showKnobDefaults() {
        MachineModel m = MachineModel.preset(form.preset);
        knobFields.forEach((knob, t) -> t.setMessage(SimulateOptions.knobValue(m, knob)));
    }

    private void createSets(Composite c) {
        Label l = label(c, "Read/write sets:");
        GridDataFactory.fillDefaults().align(SWT.BEGINNING, SWT.BEGINNING).indent(0, 4).applyTo(l);
        Composite box = new Composite(c, SWT.NONE);
        GridLayoutFactory.fillDefaults().numColumns(2).spacing(10, 3).applyTo(box);
        GridDataFactory.fillDefaults().grab(true, false).span(2, 1).applyTo(box);
        Composite words = new Composite(box, SWT.NONE);
        GridLayoutFactory.fillDefaults().applyTo(words);
        GridDataFactory.fillDefaults().align(SWT.BEGINNING, SWT.BEGINNING).applyTo(words);
        for (String w : List.of("observed", "placeholder")) {
            Button b = new Button(words, SWT.CHECK);
            b.setText(w);
            b.setData(TracesView.ROLE, "exp.sets." + w);
            b.setToolTipText(w.equals("observed") ? "the accesses recorded in the trace (exact)"
                    : "every pointer parameter makes its whole allocation read and written");
            b.addListener(SWT.Selection, e -> setsChanged());
            setButtons.put(w, b);
        }
        Label auto = new Label(words, SWT.WRAP);
        auto.setText("None checked: auto\nSeveral: a comparison");
        auto.setToolTipText("auto: observed when the trace has observed accesses, else placeholder. Several sources "
                + "run every policy with each, side by side. Whenever the trace has observed accesses, each run's "
                + "image is checked against them.");
        engineTable = new Table(box, SWT.CHECK | SWT.BORDER | SWT.FULL_SELECTION | SWT.V_SCROLL);
        engineTable.setData(TracesView.ROLE, "exp.engines");
        engineTable.setHeaderVisible(true);
        TableColumn en = new TableColumn(engineTable, SWT.LEFT);
        en.setText("Speculation engine");
        TableColumn ed = new TableColumn(engineTable, SWT.LEFT);
        ed.setText("What it predicts from");
        for (EngineRegistry.EngineInfo info : EngineRegistry.engines()) {
            TableItem item = new TableItem(engineTable, SWT.NONE);
            item.setText(new String[] { info.name(), info.description() });
            item.setData("engine:" + info.name());
        }
        en.pack();
        en.setWidth(Math.max(en.getWidth(), 130) + 24);
        ed.setWidth(380);
        GridDataFactory.fillDefaults().grab(true, false)
                .hint(300, engineTable.getItemHeight() * 3 + engineTable.getHeaderHeight() + 4).applyTo(engineTable);
        engineTable.addListener(SWT.Selection, e -> {
            if (e.detail == SWT.CHECK) {
                setsChanged();
            }
        });
        new Label(c, SWT.NONE);
        Label err = error(c, ExperimentForm.SETS);
        GridDataFactory.fillDefaults().span(2, 1).grab(true, false).hint(400, SWT.DEFAULT).applyTo(err);
    }

    private void setsChanged() {
        form.sets.clear();
        for (String w : List.of("observed", "placeholder")) {
            if (setButtons.get(w).getSelection()) {
                form.sets.add(w);
            }
        }
        for (TableItem item : engineTable.getItems()) {
            if (item.getChecked()) {
                form.sets.add((String) item.getData());
            }
        }
        update();
    }

    private void policyChecked(TableItem item) {
        form.policies.clear();
        for (TableItem i : policyTable.getItems()) {
            if (i.getChecked()) {
                form.policies.add((String) i.getData());
            }
        }
        update();
    }

    private void showParams(String policy) {
        ((StackLayout) paramStack.getLayout()).topControl = paramPages.get(policy);
        paramTitle.setText(policy + (form.policies.contains(policy) ? "" : " (not checked: it will not run)"));
        paramStack.layout(true, true);
        paramTitle.getParent().layout(true, true);
    }

    @Override
    protected void createButtonsForButtonBar(Composite parent) {
        createButton(parent, IDialogConstants.OK_ID, "Run", true).setData(TracesView.ROLE, "exp.run");
        createButton(parent, IDialogConstants.CANCEL_ID, IDialogConstants.CANCEL_LABEL, false);
        update();
    }

    /** Checks the form again: the reasons next to their fields, the command line, Run enabled or not. */
    private void update() {
        if (commandText == null || commandText.isDisposed()) {
            return;
        }
        if (!nameTouched) {
            String suggested = form.suggestedName();
            if (!nameText.getText().equals(suggested)) {
                nameText.setText(suggested); // the Modify listener copies it into the form
                return;
            }
        }
        Map<String, String> problems = form.problems();
        for (Map.Entry<String, Label> e : errors.entrySet()) {
            String why = problems.get(e.getKey());
            if (e.getKey().equals(ExperimentForm.MACHINE)) {
                why = machineProblems(problems);
            }
            Label label = e.getValue();
            label.setText(why == null ? "" : why);
            if (label.getLayoutData() instanceof org.eclipse.swt.layout.GridData gd && label.getData(EXCLUDABLE) != null) {
                gd.exclude = why == null; // a parameter's reason takes room only when there is one
                label.setVisible(why != null);
            }
        }
        for (SimulateOptions.Policy p : SimulateOptions.POLICIES) {
            boolean bad = problems.keySet().stream().anyMatch(k -> k.startsWith("param:" + p.name() + ":"));
            TableItem item = policyTable.getItem(SimulateOptions.POLICIES.indexOf(p));
            item.setForeground(bad ? errorColor() : null);
        }
        if (policyTable.getSelectionCount() == 1) {
            String shown = (String) policyTable.getSelection()[0].getData();
            paramTitle.setText(shown + (form.policies.contains(shown) ? "" : " (not checked: it will not run)"));
        }
        LoadedTrace t = form.trace;
        String out = t == null ? "DIR"
                : org.phos.workbench.analysis.core.experiment.ExperimentStore.of(t.file()).folder(form.name.trim()).toString();
        commandText.setText(ExperimentForm.shellLine(form.commandLine(out)));
        Button run = getButton(IDialogConstants.OK_ID);
        if (run != null) {
            run.setEnabled(problems.isEmpty());
        }
        if (problems.isEmpty()) {
            summary.setText(form.live ? "Runs the C/R policies live on the GPU, each beside its simulated twin; "
                    + "Run saves the experiment beside the trace, marked live." : "Simulates C/R policies over the "
                    + "trace as simulate does; empty fields take the default shown in grey. Run saves the experiment "
                    + "beside the trace.");
            summary.setForeground(null);
        } else {
            Map.Entry<String, String> first = problems.entrySet().iterator().next();
            summary.setText("\u26a0 " + fieldName(first.getKey()) + ": " + first.getValue()
                    + (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more)" : ""));
            summary.setForeground(errorColor());
        }
        fitContent();
    }

    /** Lays the options out again and tells the scroller their size. */
    private void fitContent() {
        scroller.setMinSize(content.computeSize(SWT.DEFAULT, SWT.DEFAULT));
        getShell().layout(true, true);
    }

    private static @Nullable String machineProblems(Map<String, String> problems) {
        List<String> lines = new ArrayList<>();
        if (problems.containsKey(ExperimentForm.MACHINE)) {
            lines.add(problems.get(ExperimentForm.MACHINE));
        }
        for (String knob : SimulateOptions.KNOBS) {
            String why = problems.get(ExperimentForm.knobKey(knob));
            if (why != null) {
                lines.add(knob + ": " + why);
            }
        }
        return lines.isEmpty() ? null : String.join("\n", lines);
    }

    private static String fieldName(String key) {
        if (key.startsWith("param:")) {
            String[] parts = key.split(":");
            return parts[1] + " " + parts[2];
        }
        if (key.startsWith("knob:")) {
            return "machine " + key.substring(5);
        }
        return switch (key) {
            case ExperimentForm.AT -> "Checkpoint / restore point";
            case ExperimentForm.POLICIES -> "Policies";
            case ExperimentForm.SETS -> "Read/write sets";
            case ExperimentForm.WIDTH -> "Chart width";
            case ExperimentForm.NAME -> "Name";
            case ExperimentForm.LIVE -> "Run live on the GPU";
            default -> "Trace";
        };
    }

    /**
     * While picking, the dialog shrinks to the point's row in the window's top right corner, so that it does not
     * cover the timeline a person clicks in; it comes back as it was after the pick.
     */
    private void compact(boolean on) {
        Shell shell = getShell();
        if (on == (boundsBeforePick != null)) {
            return;
        }
        if (on) {
            boundsBeforePick = shell.getBounds();
        }
        for (Control child : content.getChildren()) {
            if (!pointRow.contains(child)) {
                org.eclipse.swt.layout.GridData gd = child.getLayoutData() instanceof org.eclipse.swt.layout.GridData g
                        ? g : new org.eclipse.swt.layout.GridData();
                child.setLayoutData(gd);
                gd.exclude = on;
                child.setVisible(!on);
            }
        }
        ((org.eclipse.swt.layout.GridData) summary.getLayoutData()).exclude = on;
        summary.setVisible(!on);
        if (on) {
            scroller.setMinSize(content.computeSize(SWT.DEFAULT, SWT.DEFAULT));
            org.eclipse.swt.graphics.Point size = shell.computeSize(760, SWT.DEFAULT);
            size.y += 12; // the hint's second line when it wraps
            org.eclipse.swt.graphics.Rectangle window = shell.getParent().getBounds();
            shell.setBounds(window.x + window.width - size.x - 10, window.y + 40, size.x, size.y);
        } else {
            shell.setBounds(boundsBeforePick);
            boundsBeforePick = null;
        }
        fitContent();
    }

    private void setPicking(boolean on) {
        pickButton.setSelection(on);
        compact(on);
        if (on) {
            page.addSelectionListener(picker);
            LoadedTrace t = form.trace;
            pickStatus.setText("Click a launch in the Trace Timeline or Launches (or drag a range)");
            pickStatus.setToolTipText("A launch of " + (t == null ? "the chosen trace" : t.name()) + " becomes the "
                    + "point (launch:N); a dragged range gives its start as a time since the trace's start");
            try {
                page.showView(TRACE_TIMELINE_ID, null, IWorkbenchPage.VIEW_VISIBLE);
            } catch (PartInitException e) {
                pickStatus.setText("Cannot show the Trace Timeline: " + e.getMessage());
            }
        } else {
            page.removeSelectionListener(picker);
        }
        pickStatus.getParent().layout(true, true);
    }

    /** The page's selection changed while picking: a launch or a range of the dialog's trace becomes the point. */
    private void picked(IWorkbenchPart part, ISelection selection) {
        if (atText.isDisposed() || !pickButton.getSelection() || !(selection instanceof IStructuredSelection s)
                || s.size() != 1) {
            return;
        }
        LoadedTrace t = form.trace;
        Object o = s.getFirstElement();
        String value;
        LoadedTrace of;
        if (o instanceof LaunchSelection ls) {
            of = ls.trace();
            value = "launch:" + ls.launch();
        } else if (o instanceof TimeSelection ts) {
            of = ts.trace();
            // simulated time starts at the trace's first event; the instant counts from there
            long start = ts.trace().trace().eventCount() == 0 ? ts.fromNs() : ts.trace().trace().hostNs(0);
            value = Math.max(0, ts.fromNs() - start) + "ns";
        } else {
            return;
        }
        if (of != t) {
            pickStatus.setText("That is in " + of.name() + ", not in " + (t == null ? "the chosen trace" : t.name())
                    + ": choose " + of.name() + " above, or pick in " + (t == null ? "it" : t.name()) + ".");
            return;
        }
        atText.setText(value);
        pickStatus.setText("Picked " + value + " in " + part.getTitle() + ".");
        setPicking(false);
        getShell().forceActive();
    }

    @Override
    protected void okPressed() {
        Map<String, String> problems = form.problems();
        LoadedTrace t = form.trace;
        if (!problems.isEmpty() || t == null) {
            return;
        }
        Request request = new Request(t, form.name.trim(), form.config(), form.live);
        super.okPressed();
        onRun.accept(request);
    }

    @Override
    protected org.eclipse.swt.graphics.Point getInitialSize() {
        // never taller or wider than the screen: the buttons must stay on it
        org.eclipse.swt.graphics.Point size = super.getInitialSize();
        org.eclipse.swt.graphics.Rectangle screen = getShell().getMonitor().getClientArea();
        return new org.eclipse.swt.graphics.Point(Math.min(size.x, screen.width - 20),
                Math.min(size.y, screen.height - 40));
    }

    @Override
    protected boolean isResizable() {
        return true;
    }

    // accessors for tests

    /** The configuration the dialog would run now. */
    public ExperimentConfig config() {
        return form.config();
    }

    /** Why each field is refused now, by field key. */
    public Map<String, String> problems() {
        return form.problems();
    }

    /** The command line the dialog shows. */
    public String commandLine() {
        return commandText.getText();
    }

    private Label label(Composite parent, String text) {
        Label l = new Label(parent, SWT.NONE);
        l.setText(text);
        return l;
    }

    private Text text(Composite parent, String role, String hint) {
        Text t = new Text(parent, SWT.BORDER | SWT.SINGLE);
        t.setData(TracesView.ROLE, role);
        t.setMessage(hint);
        GridDataFactory.fillDefaults().grab(true, false).hint(260, SWT.DEFAULT).applyTo(t);
        return t;
    }

    private Label error(Composite parent, String key) {
        Label l = new Label(parent, SWT.WRAP);
        l.setForeground(errorColor());
        l.setData(TracesView.ROLE, "exp.error." + key);
        GridDataFactory.fillDefaults().grab(true, false).hint(260, SWT.DEFAULT).applyTo(l);
        errors.put(key, l);
        return l;
    }

    private Color errorColor() {
        return ExperimentColors.get(ExperimentColors.PROBLEM);
    }
}
