/**
 * Escaping and writing of the text formats every output of the workbench uses: JSON (escaping in trace.core's {@link
 * org.phos.workbench.trace.core.export.JsonEscape}, shared with the trace exporters, {@link org.phos.workbench.analysis.core.format.JsonWriter})
 * and CSV ({@link org.phos.workbench.analysis.core.format.CsvEscape}). One routine per format, so a name with a comma
 * or a quote comes out the same from the command line, an export and a view's "Copy".
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.analysis.core.format;
