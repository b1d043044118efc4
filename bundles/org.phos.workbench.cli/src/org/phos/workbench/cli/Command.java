package org.phos.workbench.cli;

import java.util.List;

/**
 * One command of {@code workbench}, such as {@code info} or {@code export}.
 * <p>
 * A command declares its options and positional arguments as values; {@link Main} parses the command line against
 * them, prints help for {@code --help}, and calls {@link #run(ParsedArguments, CommandContext)} with the result. A
 * command writes its output to {@link CommandContext#out()} and warnings to {@link CommandContext#err()}, reports a
 * failed job by throwing {@link CommandFailedException} and a wrong command line by throwing
 * {@link UsageException}. To add one, implement this interface and list it in {@link BuiltinCommands}.
 */
public interface Command {

	/** The word typed after {@code workbench}. */
	String name();

	/** One line for the command list. */
	String summary();

	/** The paragraph(s) shown by {@code --help} below the usage line; the summary by default. */
	default String description() {
		return summary();
	}

	List<Option<?>> options();

	List<Positional> positionals();

	/** Example command lines (without the leading {@code workbench}) shown by {@code --help}. */
	default List<String> examples() {
		return List.of();
	}

	/**
	 * Does the job.
	 *
	 * @return the exit code, normally {@link ExitCode#OK}
	 */
	int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException;
}
