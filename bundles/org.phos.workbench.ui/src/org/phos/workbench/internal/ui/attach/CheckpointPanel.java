package org.phos.workbench.internal.ui.attach;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.ISchedulingRule;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.RowLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.phos.workbench.cr.core.process.CheckpointEvent;
import org.phos.workbench.cr.core.process.CheckpointHelper;
import org.phos.workbench.cr.core.process.CheckpointPhase;
import org.phos.workbench.cr.core.process.CheckpointStep;
import org.phos.workbench.cr.core.process.ProcessCheckpoint;
import org.phos.workbench.cr.core.process.RecorderControl;
import org.phos.workbench.internal.ui.TracesView;

/**
 * The live trace's "Checkpoint the process" section: the CUDA driver's own stop-the-world checkpoint of the attached
 * process, from the native helper (package {@code cr.core.process}; the workbench never loads libcuda).
 * <p>
 * What a researcher needs: one button for the whole checkpoint (lock, checkpoint, restore, unlock: what the process
 * pays for a driver checkpoint), and the steps one at a time, to hold the process locked or checkpointed while looking
 * at it (the live stream shows it stopped) and let it go later. Each button is enabled only in the state the driver
 * accepts it in ({@link ProcessCheckpoint#allows}); the strip shows the state machine and the phases on a time axis
 * with the stall; a refusal of the driver is shown in words. The helper runs in a Job (one at a time per process:
 * a scheduling rule per pid); its events come back to the UI thread in order.
 */
public final class CheckpointPanel {
	private final long pid;
	private final ProcessCheckpoint machine;
	private final Composite root;
	private final Button all;
	private final List<Button> stepButtons = new ArrayList<>();
	private final Button query;
	private String stateText = "";
	private String refusalText = "";
	private String recorderLine = ""; // i14-cupti
	private final Canvas strip;
	private final Label message;
	private boolean processEnded;
	private int axisWidth; // ui-polish

	CheckpointPanel(Composite parent, long pid) {
		this.pid = pid;
		this.machine = new ProcessCheckpoint(pid);
		root = new Composite(parent, SWT.NONE);
		GridLayoutFactory.fillDefaults().spacing(4, 2).applyTo(root);
		GridDataFactory.fillDefaults().grab(true, false).applyTo(root);
		Composite bar = new Composite(root, SWT.NONE);
		RowLayout row = new RowLayout(SWT.HORIZONTAL);
		row.wrap = true;
		row.center = true;
		row.marginLeft = row.marginRight = row.marginTop = row.marginBottom = 0;
		bar.setLayout(row);
		GridDataFactory.fillDefaults().grab(true, false).applyTo(bar);
		all = new Button(bar, SWT.PUSH);
		all.setText("&Full checkpoint");
		all.setToolTipText("The CUDA driver's stop-the-world checkpoint of process " + pid + " and its restore (lock, "
				+ "checkpoint, restore, unlock): the process's CUDA calls wait from the lock to the unlock (the stall)");
		all.setData(TracesView.ROLE, "checkpointAll");
		all.addListener(SWT.Selection, e -> start(List.of(CheckpointStep.values())));
		for (CheckpointStep s : CheckpointStep.values()) {
			Button b = new Button(bar, SWT.PUSH);
			b.setText(s.label());
			b.setToolTipText(s.driverCall() + ": " + s.from().word() + " → " + s.to().word());
			b.setData(TracesView.ROLE, "checkpoint-" + s.word());
			b.setData("step", s);
			b.addListener(SWT.Selection, e -> start(List.of(s)));
			stepButtons.add(b);
		}
		query = new Button(bar, SWT.PUSH);
		query.setText("&Query state");
		query.setToolTipText("Ask the driver for the process's checkpoint state (cuCheckpointProcessGetState)");
		query.setData(TracesView.ROLE, "checkpoint-state");
		query.addListener(SWT.Selection, e -> start(List.of()));
		strip = new Canvas(root, SWT.DOUBLE_BUFFERED);
		strip.setData(TracesView.ROLE, "checkpointStrip");
		org.eclipse.swt.graphics.GC measure = new org.eclipse.swt.graphics.GC(strip); // ui-polish: two rows
		int stripHeight = PhaseStripPainter.height(measure);
		measure.dispose();
		GridDataFactory.fillDefaults().grab(true, false).hint(SWT.DEFAULT, stripHeight).applyTo(strip);
		strip.addPaintListener(e -> axisWidth = PhaseStripPainter.paint(e.gc, strip.getClientArea(), machine,
				System.nanoTime()));
		message = new Label(root, SWT.WRAP);
		message.setData(TracesView.ROLE, "checkpointMessage");
		GridDataFactory.fillDefaults().grab(true, false).hint(200, SWT.DEFAULT).exclude(true).applyTo(message);
		message.setVisible(false);
		// colours follow Window > Theme
		org.eclipse.jface.util.IPropertyChangeListener theme = e -> root.getDisplay().asyncExec(() -> {
			if (!root.isDisposed()) {
				update();
			}
		});
		org.eclipse.ui.PlatformUI.getWorkbench().getThemeManager().addPropertyChangeListener(theme);
		root.addListener(SWT.Dispose, e -> {
			processEnded = true;
			org.eclipse.ui.PlatformUI.getWorkbench().getThemeManager().removePropertyChangeListener(theme);
		});
		update();
		start(List.of()); // the state at once, so the buttons say what the driver would take
	}

	/** The state machine (for tests and the editor). */
	public ProcessCheckpoint machine() {
		return machine;
	}

	/** The process ended or the live trace detached for good: nothing more to checkpoint. */
	void processEnded() {
		processEnded = true;
		if (!root.isDisposed()) {
			update();
		}
	}

	private void start(List<CheckpointStep> steps) {
		if (machine.busy() || processEnded) {
			return;
		}
		CheckpointHelper helper;
		try {
			helper = CheckpointHelper.locate(null);
		} catch (CheckpointHelper.NotFound e) {
			machine.begin(steps);
			machine.accept(new CheckpointEvent.HelperFailed(e.getMessage()));
			update();
			return;
		}
		machine.begin(steps);
		update();
		Display display = root.getDisplay();
		String what = steps.isEmpty() ? "Checkpoint state of process " + pid
				: steps.size() == 4 ? "Driver checkpoint of process " + pid
						: steps.get(0).label() + " process " + pid;
		Job job = Job.create(what, (IProgressMonitor m) -> {
			// i14-cupti: the recorder lets go of CUPTI before the lock and takes it up after the unlock
			RecorderControl.runWithRecorder(helper, AttachHandler.directory(), pid, steps, 10_000,
					e -> display.asyncExec(() -> {
				machine.accept(e);
				if (!root.isDisposed()) {
					update();
				}
			}));
			return Status.OK_STATUS;
		});
		job.setRule(new ProcessRule(pid));
		job.setUser(false);
		job.schedule();
		tickWhileBusy();
	}

	/** Repaints the strip while a call runs, so the open phase grows. */
	private void tickWhileBusy() {
		if (root.isDisposed() || !machine.busy()) {
			return;
		}
		strip.redraw();
		root.getDisplay().timerExec(100, this::tickWhileBusy);
	}

	private void update() {
		boolean idle = !machine.busy() && !processEnded;
		all.setEnabled(idle && machine.allowsFullCheckpoint());
		for (Button b : stepButtons) {
			b.setEnabled(idle && machine.allows((CheckpointStep) b.getData("step")));
		}
		query.setEnabled(idle);
		String state = machine.stateText();
		if (machine.busy()) {
			CheckpointEvent.PhaseBegan open = machine.openPhase();
			state += open == null ? " The helper is at work…" : " " + open.step().label() + " in progress…";
		} else if (processEnded) {
			state += " The live trace has ended: nothing more to checkpoint here.";
		}
		stateText = state;
		String phases = phasesText();
		strip.setToolTipText(state + (phases.isEmpty() ? "" : "\nLast run: " + phases));
		// below the strip only what needs words: a refusal (its explanation), the helper's problem, the end
		ProcessCheckpoint.Run last = machine.lastRun();
		String text = null;
		boolean problem = false;
		if (!machine.busy() && last != null && last.outcome() == ProcessCheckpoint.Outcome.REFUSED) {
			text = "The driver refused: " + machine.lastRefusalText();
			problem = true;
		} else if (!machine.busy() && last != null && last.outcome() == ProcessCheckpoint.Outcome.HELPER_FAILED) {
			text = "No driver checkpoint: " + last.message();
			problem = true;
		} else if (processEnded) {
			text = state;
		}
		refusalText = problem && last.outcome() == ProcessCheckpoint.Outcome.REFUSED ? text : "";
		String recorder = machine.recorderText(); // i14-cupti: the recorder's prepare and done
		if (!recorder.isEmpty()) {
			text = text == null ? recorder : text + "\n" + recorder;
		}
		recorderLine = recorder;
		message.setForeground(CheckpointTheme.color(problem ? "refused" : "muted"));
		message.setText(text == null ? "" : text);
		message.setVisible(text != null);
		((org.eclipse.swt.layout.GridData) message.getLayoutData()).exclude = text == null;
		strip.redraw();
		root.getParent().layout(true, true);
	}

	/**
	 * The phases as marks for the timelines (CLOCK_MONOTONIC, the trace's host clock): the lock's begin, then each
	 * call's end (refused ones with their code), the unlock with the stall of its run.
	 */
	public List<org.phos.workbench.ui.model.LiveTraces.Mark> marks() {
		List<org.phos.workbench.ui.model.LiveTraces.Mark> marks = new ArrayList<>();
		List<ProcessCheckpoint.Run> runs = machine.runs();
		for (ProcessCheckpoint.Run r : runs) {
			for (CheckpointPhase p : r.phases()) {
				if (p.step() == CheckpointStep.LOCK && p.ok()) {
					marks.add(new org.phos.workbench.ui.model.LiveTraces.Mark(p.beginNs(), "lock"));
				}
				String label = !p.ok() ? p.step().word() + " refused " + p.refusal().code()
						: switch (p.step()) {
						case LOCK -> "locked";
						case CHECKPOINT -> "checkpointed " + PhaseStripPainter.ms(p.ms());
						case RESTORE -> "restored " + PhaseStripPainter.ms(p.ms());
						case UNLOCK -> Double.isNaN(r.stallMs()) ? "unlocked"
								: "unlocked: stall " + PhaseStripPainter.ms(r.stallMs());
						};
				if (p.step() != CheckpointStep.LOCK || !p.ok()) {
					marks.add(new org.phos.workbench.ui.model.LiveTraces.Mark(p.endNs(), label));
				}
			}
		}
		marks.sort(java.util.Comparator.comparingLong(org.phos.workbench.ui.model.LiveTraces.Mark::hostNs));
		return marks;
	}

	/** The latest run's phases with their times and the stall, in one line. */
	public String phasesText() {
		List<CheckpointPhase> phases = PhaseStripPainter.phasesOfLatestRun(machine);
		if (phases.isEmpty()) {
			return "";
		}
		StringBuilder b = new StringBuilder();
		for (CheckpointPhase p : phases) {
			if (b.length() > 0) {
				b.append(" · ");
			}
			b.append(p.step().word()).append(' ').append(PhaseStripPainter.ms(p.ms()));
			if (!p.ok()) {
				b.append(" REFUSED (").append(p.refusal().code()).append(' ').append(p.refusal().name()).append(')');
			}
			if (p.recovery()) {
				b.append(" (unlocked again after the refusal)");
			}
		}
		ProcessCheckpoint.Run r = machine.busy() ? null : machine.lastRun();
		if (r != null && !Double.isNaN(r.stallMs())) {
			b.append(String.format(Locale.ROOT, " · stall %s", PhaseStripPainter.ms(r.stallMs())));
		}
		return b.toString();
	}

	/** The state in words as the strip shows it (and its tooltip). */
	public String stateText() {
		return stateText;
	}

	/** i14-cupti: the recorder's part of the last run ("Recorder: prepare → ...; done → ..."), "" for none. */
	public String recorderText() {
		return recorderLine;
	}

	/** The refusal below the strip, "" for none. */
	public String refusalText() {
		return refusalText;
	}

	/** What the line under the strip says (refusal, helper problem, end), or "" when it is hidden. */
	public String messageText() {
		return message.isVisible() ? message.getText() : "";
	}

	public Canvas strip() {
		return strip;
	}

	/** ui-polish: the width (px) of the phases' time axis as last painted, 0 before any phase. */
	public int phaseAxisWidth() {
		return axisWidth;
	}

	/** One checkpoint helper at a time per process. */
	private record ProcessRule(long pid) implements ISchedulingRule {
		@Override
		public boolean contains(ISchedulingRule rule) {
			return rule == this;
		}

		@Override
		public boolean isConflicting(ISchedulingRule rule) {
			return rule instanceof ProcessRule p && p.pid == pid;
		}
	}
}
