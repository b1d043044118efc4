/**
 * Replay of a trace: the allocations live at any event ({@link org.phos.workbench.trace.core.replay.LiveAllocations},
 * {@link org.phos.workbench.trace.core.replay.ReplayEngine}) and the happens-before order of GPU operations from
 * stream order and CUDA event dependencies ({@link org.phos.workbench.trace.core.replay.StreamOrder}).
 */
@NonNullByDefault
package org.phos.workbench.trace.core.replay;

import org.eclipse.jdt.annotation.NonNullByDefault;
