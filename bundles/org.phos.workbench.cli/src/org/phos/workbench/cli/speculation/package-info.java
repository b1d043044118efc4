/**
 * The {@code speculate} and {@code validate} commands: what the speculation engines predict for a trace's launches,
 * and how that compares with the accesses instrumentation observed.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.cli.speculation;
