/** The Launches view: the launches of the current trace as a virtual table. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.launches;
