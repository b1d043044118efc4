/** The simulation engine behind {@link org.phos.workbench.cr.core.Simulator} and the copy machinery of the policies. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.cr.core;
