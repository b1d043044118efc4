/** Public identifiers of the Phoenix Workbench user interface (perspective, views). */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.ui;
