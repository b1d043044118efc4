/**
 * C/R experiments: a configuration of {@code simulate} (policies, instant, machine, read/write set sources) run over
 * one trace, its runs (metrics and in-memory timeline each), and, once saved, the folder beside the trace that holds
 * the configuration, the outputs {@code simulate} writes, and the trace's identity. The workbench, the command line
 * and the report run experiments through this package, so the three give the same numbers.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.analysis.core.experiment;
