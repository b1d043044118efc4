package org.phos.workbench.internal.cli.bench;

/**
 * One measured figure of {@code workbench bench} with its target.
 *
 * @param name   what was measured ({@code load 1M launches})
 * @param median the median as shown ({@code 2.41 M launch events/s})
 * @param runs   how many timed runs the median is of (1 for a single measurement)
 * @param target the target as shown ({@code >= 2 M/s}), empty when the figure is for information
 * @param pass   whether the target is met (true for information-only figures)
 * @param detail more about the measurement: all runs, CPU-time figure, sizes
 */
public record BenchFigure(String name, String median, int runs, String target, boolean pass, String detail) {

	/** "pass", "MISS", or "-" for information-only figures. */
	public String result() {
		return target.isEmpty() ? "-" : pass ? "pass" : "MISS";
	}
}
