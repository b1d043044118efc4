/**
 * The workbench's model of a recorded GPU process: a {@link org.phos.workbench.trace.core.Trace} holds the
 * header, modules, functions, the event table in issue order (allocations, copies, launches, stream and event
 * operations) and the observed accesses of a {@code .phos} file (format v1, see {@code docs/trace-format.md}).
 * <p>
 * Read a file with {@link org.phos.workbench.trace.core.TraceReader}, write one with
 * {@link org.phos.workbench.trace.core.TraceWriter}, or build a small trace in memory with
 * {@link org.phos.workbench.trace.core.Trace#builder(TraceHeader)}. Events are addressed by their index and read
 * through column accessors, so millions of launches cost a few dozen bytes each and no object per event.
 */
@NonNullByDefault
package org.phos.workbench.trace.core;

import org.eclipse.jdt.annotation.NonNullByDefault;
