/** A small streaming JSON writer for the CLI's {@code --json} outputs. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.cli.json;
