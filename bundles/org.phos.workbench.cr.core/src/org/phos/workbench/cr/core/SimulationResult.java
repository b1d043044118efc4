package org.phos.workbench.cr.core;

/**
 * A run's metrics, and its timeline when the caller asked for one in memory.
 *
 * @param metrics the figures
 * @param timeline the in-memory timeline, or {@code null} when the timeline went only to a streaming sink
 */
public record SimulationResult(SimulationMetrics metrics, @org.eclipse.jdt.annotation.Nullable TimelineModel timeline) {
}
