/** The Properties view: the fields of the selected launch or trace. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.properties;
