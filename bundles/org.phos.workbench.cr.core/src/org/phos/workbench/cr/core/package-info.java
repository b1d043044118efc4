/**
 * Simulated concurrent checkpoint/restore (C/R) over an application's GPU timeline.
 * <p>
 * A {@link org.phos.workbench.cr.core.SimulationWorkload} is a sequence of {@link org.phos.workbench.cr.core.Operation}s
 * in issue order, each with its stream, host issue time, GPU duration and the buffers it reads and writes. The
 * {@link org.phos.workbench.cr.core.Simulator} replays it on a {@link org.phos.workbench.cr.core.MachineModel} while one
 * {@link org.phos.workbench.cr.core.CrPolicy} (stop-the-world, soft copy-on-write, recopy, on-demand restore, ...) runs
 * beside it, and reports a timeline (to any {@link org.phos.workbench.cr.core.TimelineSink}), metrics and the
 * consistency check of the checkpoint image. The core knows nothing of the trace file format: adapters build workloads.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.cr.core;
