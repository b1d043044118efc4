/** The trace editor: one opened trace, its loading job, warnings banner and overview. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.trace;
