/** The workbench's light and dark themes: one colour registry, switched at run time and remembered. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.theme;
