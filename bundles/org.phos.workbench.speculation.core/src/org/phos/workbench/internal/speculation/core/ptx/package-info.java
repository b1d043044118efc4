/** Implementation of PTX parsing and of the {@code ptx-flow} dataflow analysis. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.speculation.core.ptx;
