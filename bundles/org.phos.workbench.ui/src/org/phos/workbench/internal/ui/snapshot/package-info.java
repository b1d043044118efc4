/** {@code ./workbench snapshot}: PNGs of named views after opening a trace, taken inside the running workbench. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.snapshot;
