/** Small helpers of the CLI: primitive maps and human-readable number formatting. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.cli.util;
