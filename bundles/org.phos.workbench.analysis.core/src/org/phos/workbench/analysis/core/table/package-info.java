/**
 * The table model every listing of the workbench shares: a {@link org.phos.workbench.analysis.core.table.TableDef} of
 * typed {@link org.phos.workbench.analysis.core.table.Column}s over a row record, a page of rows as a
 * {@link org.phos.workbench.analysis.core.table.Table}, rendered by the command line as text, CSV or JSON
 * ({@link org.phos.workbench.analysis.core.table.TableRenderer}) and by the views in a virtual table.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.analysis.core.table;
