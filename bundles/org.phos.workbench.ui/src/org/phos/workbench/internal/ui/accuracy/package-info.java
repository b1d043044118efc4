/** Speculation views of issue #11 (accuracy). */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.accuracy;
