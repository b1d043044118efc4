/** The built-in commands of {@code workbench}: one class per command. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.cli.commands;
