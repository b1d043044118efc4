package org.phos.workbench.cr.core;

/**
 * A buffer's checkpoint or restore state changed.
 *
 * @param timeNs when
 * @param buffer buffer id
 * @param from previous state
 * @param to new state
 * @param checkpoint number of the checkpoint
 */
public record BufferStateChange(long timeNs, int buffer, BufferState from, BufferState to, int checkpoint) {
}
