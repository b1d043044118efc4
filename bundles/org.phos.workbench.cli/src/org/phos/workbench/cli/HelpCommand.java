package org.phos.workbench.cli;

import java.util.List;

/**
 * {@code workbench help [COMMAND]}: the command list, or the help page of one command.
 */
final class HelpCommand implements Command {

	private final String program;
	private final List<Command> commands;

	HelpCommand(String program, List<Command> commands) {
		this.program = program;
		this.commands = commands;
	}

	@Override
	public String name() {
		return "help";
	}

	@Override
	public String summary() {
		return "show the command list, or the help of one command";
	}

	@Override
	public List<Option<?>> options() {
		return List.of();
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.optional("COMMAND", "the command to explain"));
	}

	@Override
	public List<String> examples() {
		return List.of("help", "help export");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws UsageException {
		if (args.positionals().isEmpty()) {
			context.out().print(HelpFormatter.commandList(program, commands));
			return ExitCode.OK;
		}
		String name = args.positionals().get(0);
		for (Command command : commands) {
			if (command.name().equals(name)) {
				context.out().print(HelpFormatter.commandHelp(program, command));
				return ExitCode.OK;
			}
		}
		throw new UsageException(Main.unknownCommandMessage(name, commands));
	}
}
