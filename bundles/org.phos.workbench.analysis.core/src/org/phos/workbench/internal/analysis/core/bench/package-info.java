/** Benchmarks of the analysis layer (a main, not part of the API). */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.analysis.core.bench;
