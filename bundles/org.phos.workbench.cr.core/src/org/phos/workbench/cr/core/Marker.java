package org.phos.workbench.cr.core;

/**
 * An instant on the timeline: checkpoint requested, drained, completed, restore started, ...
 *
 * @param timeNs when
 * @param label what happened
 * @param checkpoint number of the checkpoint it belongs to (0, 1, ... for repeated checkpoints)
 */
public record Marker(long timeNs, String label, int checkpoint) {
}
