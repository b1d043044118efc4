package org.phos.workbench.cli;

import java.io.PrintStream;

import org.eclipse.core.runtime.NullProgressMonitor;

/**
 * Draws the progress of a long job as one line on a terminal ({@code loading trace.phos  42%}), rewritten in place at
 * most ten times a second and cleared when the job is done.
 */
final class TerminalProgressMonitor extends NullProgressMonitor {

	private static final long REDRAW_NANOS = 100_000_000L;

	private final PrintStream terminal;
	private String task = "";
	private String subTask = "";
	private double total = -1;
	private double worked;
	private long lastDraw;
	private int lastWidth;

	TerminalProgressMonitor(PrintStream terminal) {
		this.terminal = terminal;
	}

	@Override
	public void beginTask(String name, int totalWork) {
		task = name == null ? "" : name;
		total = totalWork == UNKNOWN || totalWork <= 0 ? -1 : totalWork;
		worked = 0;
		draw(true);
	}

	@Override
	public void setTaskName(String name) {
		task = name == null ? "" : name;
		draw(true);
	}

	@Override
	public void subTask(String name) {
		subTask = name == null ? "" : name;
		draw(false);
	}

	@Override
	public void internalWorked(double work) {
		worked += work;
		draw(false);
	}

	@Override
	public void worked(int work) {
		internalWorked(work);
	}

	@Override
	public void done() {
		if (lastWidth > 0) {
			terminal.print("\r" + " ".repeat(lastWidth) + "\r");
			terminal.flush();
			lastWidth = 0;
		}
	}

	private void draw(boolean force) {
		long now = System.nanoTime();
		if (!force && now - lastDraw < REDRAW_NANOS) {
			return;
		}
		lastDraw = now;
		StringBuilder line = new StringBuilder(task);
		if (!subTask.isEmpty()) {
			line.append(" - ").append(subTask);
		}
		if (total > 0) {
			line.append(String.format("  %3d%%", (int) Math.min(100, 100 * worked / total)));
		}
		String text = line.length() > 100 ? line.substring(0, 100) : line.toString();
		int pad = Math.max(0, lastWidth - text.length());
		terminal.print("\r" + text + " ".repeat(pad));
		terminal.flush();
		lastWidth = text.length();
	}
}
