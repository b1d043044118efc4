package org.phos.workbench.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes the help texts: the command list of {@code workbench help} and the page of {@code workbench CMD --help}.
 */
final class HelpFormatter {

	private static final int COLUMN = 26;

	private HelpFormatter() {
	}

	static String commandList(String program, List<Command> commands) {
		StringBuilder text = new StringBuilder();
		text.append("Usage: ").append(program).append(" [--debug] COMMAND [OPTIONS] [ARGUMENTS]\n\n");
		text.append("Phoenix Workbench, headless: analyse and convert .phos GPU traces.\n\nCommands:\n");
		for (Command command : commands) {
			row(text, command.name(), command.summary());
		}
		row(text, "help [COMMAND]", "show this list, or the help of one command");
		text.append("\nRun '").append(program).append(" COMMAND --help' for the options of a command.\n");
		text.append("Exit codes: 0 done, 1 the job failed, 2 wrong command line. ");
		text.append("--debug prints stack traces of failures.\n");
		return text.toString();
	}

	static String commandHelp(String program, Command command) {
		StringBuilder text = new StringBuilder();
		text.append("Usage: ").append(usageLine(program, command)).append("\n\n");
		text.append(command.description().strip()).append("\n");
		if (!command.positionals().isEmpty()) {
			text.append("\nArguments:\n");
			for (Positional p : command.positionals()) {
				row(text, p.synopsis(), p.help());
			}
		}
		text.append("\nOptions:\n");
		for (Option<?> option : command.options()) {
			String help = option.help();
			if (option.isRequired()) {
				help += " (required)";
			} else if (!option.isFlag() && option.defaultValue() != null && !help.contains("(default")) {
				// once: a help text that explains its default itself keeps its words
				help += " (default " + option.defaultValue() + ")";
			}
			row(text, option.synopsis(), help);
		}
		row(text, "-h, --help", "show this help");
		if (!command.examples().isEmpty()) {
			text.append("\nExamples:\n");
			for (String example : command.examples()) {
				text.append("  ").append(program).append(' ').append(example).append('\n');
			}
		}
		return text.toString();
	}

	static String usageLine(String program, Command command) {
		List<String> parts = new ArrayList<>();
		parts.add(program);
		parts.add(command.name());
		for (Option<?> option : command.options()) {
			if (option.isRequired()) {
				parts.add(option.synopsis());
			}
		}
		if (command.options().stream().anyMatch(o -> !o.isRequired())) {
			parts.add("[OPTIONS]");
		}
		for (Positional p : command.positionals()) {
			parts.add(p.synopsis());
		}
		return String.join(" ", parts);
	}

	/** Width of the help text to the right of the column, so that lines stay within about 100 characters. */
	private static final int TEXT_WIDTH = 74;

	private static void row(StringBuilder text, String left, String right) {
		text.append("  ").append(left);
		if (left.length() + 2 >= COLUMN) {
			text.append('\n').append(" ".repeat(COLUMN));
		} else {
			text.append(" ".repeat(COLUMN - 2 - left.length()));
		}
		int lineStart = text.length();
		for (String word : right.split(" ")) {
			if (text.length() > lineStart && text.length() - lineStart + 1 + word.length() > TEXT_WIDTH) {
				text.append('\n').append(" ".repeat(COLUMN));
				lineStart = text.length();
			} else if (text.length() > lineStart) {
				text.append(' ');
			}
			text.append(word);
		}
		text.append('\n');
	}
}
