/**
 * Adapters from a recorded {@link org.phos.workbench.trace.core.Trace} to a
 * {@link org.phos.workbench.cr.core.SimulationWorkload}: the only place where the simulator meets the trace model.
 * Read and write sets come from a {@link org.phos.workbench.cr.core.trace.LaunchAccessSource} (a speculation engine,
 * observed accesses, or the placeholder that matches parameter words against live allocations).
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.cr.core.trace;
