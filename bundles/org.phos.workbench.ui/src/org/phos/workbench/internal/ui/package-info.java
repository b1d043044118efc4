/** Implementation of the Phoenix Workbench application, perspective and views. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui;
