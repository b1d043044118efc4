/** Synthetic workloads and the simulator benchmark (internal). */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.cr.core.bench;
