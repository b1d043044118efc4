/**
 * {@code workbench bench}: runs the benchmarks of the trace core (load, address lookup) and of the export, and
 * reports their figures against the targets of the foundation issue.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.cli.bench;
