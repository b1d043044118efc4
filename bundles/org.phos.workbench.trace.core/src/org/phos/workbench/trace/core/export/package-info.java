/**
 * Streaming exporters of a trace to other tools' formats: Chrome Trace Event JSON in the shape PyTorch's profiler
 * (Kineto) writes, and CSV. Both write while they walk the events, through a {@link
 * org.phos.workbench.trace.core.export.ByteSink}, so their memory does not grow with the trace.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.trace.core.export;
