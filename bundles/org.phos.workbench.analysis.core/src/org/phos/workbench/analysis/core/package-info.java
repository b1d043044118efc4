/**
 * The analysis layer the command line and the views share: typed questions about a trace ({@link
 * org.phos.workbench.analysis.core.LaunchQuery}, {@link org.phos.workbench.analysis.core.AccessQuery},
 * {@link org.phos.workbench.analysis.core.KernelQuery}, {@link org.phos.workbench.analysis.core.ValidationQuery},
 * {@link org.phos.workbench.analysis.core.BufferQuery}) answered by an
 * {@link org.phos.workbench.analysis.core.AnalysisSession} with typed rows whose columns are defined once
 * ({@code LaunchRow.TABLE}, {@code AccessRow.table(..)}, ...) and rendered as text, CSV and JSON by the command line
 * and in a virtual table by the views. Headless: no SWT, JFace or workspace.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.analysis.core;
