/**
 * How experiments run and are kept: the parsing of {@code simulate}'s options, the read/write set sources, the
 * output folder written so that nothing is lost, the streamed per-run files, the full-fidelity runs file and the
 * JSON of saved experiments. Not API: {@code org.phos.workbench.analysis.core.experiment} is.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.analysis.core.experiment;
