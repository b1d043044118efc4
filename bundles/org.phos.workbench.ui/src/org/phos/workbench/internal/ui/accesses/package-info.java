/** Speculation views of issue #11 (accesses). */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.accesses;
