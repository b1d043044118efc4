/**
 * The headless command line of Phoenix Workbench: {@link org.phos.workbench.cli.Main} parses
 * {@code workbench COMMAND [OPTIONS] [ARGUMENTS]} and runs one {@link org.phos.workbench.cli.Command}.
 * <p>
 * A command declares its {@link org.phos.workbench.cli.Option}s and {@link org.phos.workbench.cli.Positional}
 * arguments as typed values; the {@link org.phos.workbench.cli.ArgumentParser} turns the command line into
 * {@link org.phos.workbench.cli.ParsedArguments} and reports mistakes as a {@link org.phos.workbench.cli.UsageException}
 * (exit code 2). A job that cannot be done throws {@link org.phos.workbench.cli.CommandFailedException} (exit code 1).
 * New commands are registered in {@link org.phos.workbench.cli.BuiltinCommands}.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.cli;
