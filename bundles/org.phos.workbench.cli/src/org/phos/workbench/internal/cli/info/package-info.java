/**
 * {@code workbench info}: a summary of a trace computed in one pass over its events ({@link
 * org.phos.workbench.analysis.core.summary.TraceSummary}) and rendered as text or JSON.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.cli.info;
