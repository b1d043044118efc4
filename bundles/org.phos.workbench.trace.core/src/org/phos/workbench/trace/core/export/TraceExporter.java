package org.phos.workbench.trace.core.export;

import java.io.IOException;
import java.io.OutputStream;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.phos.workbench.trace.core.Trace;

/**
 * Writes a trace in another tool's format while walking its events, so that memory does not grow with the trace.
 */
public interface TraceExporter {

	/** The {@code --format} word. */
	String formatName();

	/**
	 * Writes the whole trace to {@code out} (buffered by the exporter, not closed).
	 *
	 * @return the number of records written (JSON trace events, CSV rows)
	 * @throws OperationCanceledException when the monitor is canceled
	 */
	long export(Trace trace, String traceName, OutputStream out, IProgressMonitor monitor) throws IOException;
}
