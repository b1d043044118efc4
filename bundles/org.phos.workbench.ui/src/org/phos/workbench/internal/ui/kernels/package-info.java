/** Speculation views of issue #11 (kernels). */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.kernels;
