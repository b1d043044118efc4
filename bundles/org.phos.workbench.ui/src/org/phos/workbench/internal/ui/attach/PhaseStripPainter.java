package org.phos.workbench.internal.ui.attach;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.jdt.annotation.Nullable;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.phos.workbench.cr.core.process.CheckpointEvent;
import org.phos.workbench.cr.core.process.CheckpointPhase;
import org.phos.workbench.cr.core.process.CheckpointStep;
import org.phos.workbench.cr.core.process.ProcessCheckpoint;
import org.phos.workbench.cr.core.process.ProcessState;

/**
 * Paints the checkpoint strip in two rows (one where it is lower): first the driver's state machine (running, locked,
 * checkpointed, failed) with the process's state filled, then the phases of the latest run on a time axis (lock,
 * checkpoint, restore, unlock; a refused call in the refusal colour with its code; a call still running open to the
 * right) with the stall under them, from the lock's begin to the unlock's end, and its length. Painting only: the panel
 * owns data and widgets.
 */
final class PhaseStripPainter {
	/**
	 * ui-polish: the strip's height in two rows: the state machine's chips over the phases on a time axis that spans
	 * the strip's width (in one row beside the chips, the phases of a 540 px editor got a letter each), the stall's
	 * bracket under them.
	 */
	static int height(GC gc) {
		int chipH = gc.getFontMetrics().getHeight() + 4;
		return 3 + chipH + 5 + chipH + 6;
	}
	private static final ProcessState[] MACHINE = { ProcessState.RUNNING, ProcessState.LOCKED,
			ProcessState.CHECKPOINTED, ProcessState.FAILED };

	private PhaseStripPainter() {
	}

	/** The phases of the run to draw: the latest run, or the one in progress (with its open call). */
	static List<CheckpointPhase> phasesOfLatestRun(ProcessCheckpoint m) {
		if (m.busy()) {
			List<CheckpointPhase> all = m.phases();
			int done = m.runs().stream().mapToInt(r -> r.phases().size()).sum();
			return new ArrayList<>(all.subList(Math.min(done, all.size()), all.size()));
		}
		ProcessCheckpoint.Run r = m.lastRun();
		return r == null ? List.of() : r.phases();
	}

	/**
	 * The state machine's chips (the process's state filled), then, in a second row where the strip has one, the
	 * phases of the latest run on a time axis (a bracket under them from the lock to the unlock: the stall), and the
	 * stall, or the time so far. Returns the width of the phases' time axis (0: none drawn).
	 */
	static int paint(GC gc, Rectangle area, ProcessCheckpoint m, long nowNs) {
		Color bg = CheckpointTheme.color("background");
		Color muted = CheckpointTheme.color("muted");
		gc.setBackground(bg);
		gc.fillRectangle(area);
		gc.setAntialias(SWT.ON);
		int fh = gc.getFontMetrics().getHeight();
		int x = area.x + 6;
		int y = area.y + 3;
		int chipH = fh + 4;
		for (ProcessState s : MACHINE) {
			String label = s.word();
			int w = gc.textExtent(label).x + 12;
			Color c = CheckpointTheme.of(s);
			if (m.state() == s) {
				gc.setBackground(c);
				gc.fillRoundRectangle(x, y, w, chipH, 8, 8);
				gc.setForeground(bg);
			} else {
				gc.setForeground(c);
				gc.drawRoundRectangle(x, y, w - 1, chipH - 1, 8, 8);
			}
			gc.drawText(label, x + 6, y + 2, true);
			x += w;
			if (s != ProcessState.FAILED) {
				String arrow = s == ProcessState.CHECKPOINTED ? " | " : " → ";
				gc.setForeground(muted);
				gc.drawText(arrow, x, y + 2, true);
				x += gc.textExtent(arrow).x;
			}
		}
		if (m.state() == ProcessState.UNKNOWN) {
			gc.setForeground(muted);
			String q = m.busy() ? " (asking the driver…)" : " (not known)";
			gc.drawText(q, x, y + 2, true);
			x += gc.textExtent(q).x;
		}
		// ui-polish: begin: where the strip has two rows (height(gc)), the phases get the whole width of the second
		if (area.height >= 2 * chipH + 10) {
			x = area.x + 6 - 16; // the phases start 16 px right of x
			y = area.y + 3 + chipH + 5;
		}
		// ui-polish: end
		// the phases of the latest run on a time axis, the stall (or the time so far) right of them
		ProcessCheckpoint.Run last = m.busy() ? null : m.lastRun();
		String tail = last != null && !Double.isNaN(last.stallMs()) ? "stall " + ms(last.stallMs()) : "";
		int left = x + 16;
		int right = area.x + area.width - 8 - (tail.isEmpty() ? gc.textExtent("9999.9 ms so far").x
				: gc.textExtent(tail).x) - 8;
		List<CheckpointPhase> phases = phasesOfLatestRun(m);
		CheckpointEvent.PhaseBegan open = m.openPhase();
		ProcessCheckpoint.Run run = m.busy() ? null : m.lastRun();
		if (right - left < 60) {
			return 0;
		}
		if (phases.isEmpty() && open == null) {
			gc.setForeground(muted);
			gc.drawText("no checkpoint yet", left, y + 2, true);
			return 0;
		}
		long t0 = !phases.isEmpty() ? phases.get(0).beginNs() : open.beginNs();
		long t1 = open != null ? Math.max(nowNs, open.beginNs()) : phases.get(phases.size() - 1).endNs();
		double span = Math.max(1, t1 - t0);
		int w = right - left;
		for (CheckpointPhase p : phases) {
			bar(gc, left, w, t0, span, p.beginNs(), p.endNs(), y, chipH, p.step(), p.ok() ? null : p, p.ms(), bg);
		}
		if (open != null) {
			bar(gc, left, w, t0, span, open.beginNs(), Math.max(open.beginNs(), nowNs), y, chipH, open.step(), null,
					(nowNs - open.beginNs()) / 1e6, bg);
		}
		String right2;
		if (run != null && !Double.isNaN(run.stallMs())) {
			// the stall: from the lock's begin to the unlock's end, a bracket under the phases
			Color st = CheckpointTheme.color("stall");
			gc.setForeground(st);
			gc.setLineWidth(2);
			gc.drawLine(left, y + chipH + 2, right, y + chipH + 2);
			gc.setLineWidth(1);
			right2 = "stall " + ms(run.stallMs());
		} else {
			gc.setForeground(muted);
			right2 = ms(span / 1e6) + (open != null ? " so far" : "");
		}
		gc.drawText(right2, right + 8, y + 2, true);
		return w; // ui-polish: the phases' time axis (px), for tests
	}

	private static void bar(GC gc, int left, int width, long t0, double span, long b, long e, int y, int h,
			CheckpointStep step, @Nullable CheckpointPhase refused, double ms, Color bg) {
		int x0 = left + (int) Math.round((b - t0) / span * width);
		int x1 = left + (int) Math.round((e - t0) / span * width);
		int bw = Math.max(3, x1 - x0);
		Color c = refused != null ? CheckpointTheme.color("refused") : CheckpointTheme.of(step);
		gc.setBackground(c);
		gc.fillRectangle(x0, y, bw, h);
		gc.setForeground(bg);
		gc.drawRectangle(x0, y, bw, h); // a thin gap between neighbours
		String label = step.word() + " " + ms(ms) + (refused != null && refused.refusal() != null
				? " refused " + refused.refusal().code() : "");
		Point ext = gc.textExtent(label);
		if (ext.x + 6 <= bw) {
			gc.setForeground(bg);
			gc.drawText(label, x0 + 3, y + (h - ext.y) / 2, true);
		} else {
			String shorter = step.word().substring(0, 1);
			if (gc.textExtent(shorter).x + 4 <= bw) {
				gc.setForeground(bg);
				gc.drawText(shorter, x0 + 2, y + (h - ext.y) / 2, true);
			}
		}
	}

	static String ms(double ms) {
		return ms >= 1000 ? String.format(Locale.ROOT, "%.2f s", ms / 1000) : String.format(Locale.ROOT, "%.1f ms", ms);
	}
}
