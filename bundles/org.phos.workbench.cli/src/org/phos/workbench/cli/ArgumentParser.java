package org.phos.workbench.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the arguments that follow the command name against the command's declared options and positionals.
 * <p>
 * Accepted forms: {@code --name VALUE}, {@code --name=VALUE}, flags {@code --name}, {@code --} to end the options.
 * {@code -h}/{@code --help} are handled by {@link Main} before parsing. Every mistake becomes a
 * {@link UsageException} naming the option or argument.
 */
public final class ArgumentParser {

	private final Command command;

	public ArgumentParser(Command command) {
		this.command = command;
	}

	public ParsedArguments parse(List<String> args) throws UsageException {
		Map<String, Option<?>> byName = new LinkedHashMap<>();
		for (Option<?> option : command.options()) {
			byName.put(option.name(), option);
		}
		Map<Option<?>, Object> values = new LinkedHashMap<>();
		List<String> positionals = new ArrayList<>();
		boolean optionsEnded = false;
		for (int i = 0; i < args.size(); i++) {
			String arg = args.get(i);
			if (optionsEnded || !arg.startsWith("-") || arg.equals("-")) {
				positionals.add(arg);
				continue;
			}
			if (arg.equals("--")) {
				optionsEnded = true;
				continue;
			}
			if (!arg.startsWith("--")) {
				throw new UsageException("unknown option " + arg + hint(arg.substring(1), byName)
						+ " (options are written with two dashes, as --name)");
			}
			String name = arg.substring(2);
			String inlineValue = null;
			int eq = name.indexOf('=');
			if (eq >= 0) {
				inlineValue = name.substring(eq + 1);
				name = name.substring(0, eq);
			}
			Option<?> option = byName.get(name);
			if (option == null) {
				throw new UsageException("unknown option --" + name + hint(name, byName));
			}
			if (values.containsKey(option)) {
				throw new UsageException("option --" + name + " is given twice");
			}
			if (option.isFlag()) {
				if (inlineValue != null) {
					throw new UsageException("option --" + name + " is a flag and takes no value (got '" + inlineValue
							+ "')");
				}
				values.put(option, Boolean.TRUE);
				continue;
			}
			String text = inlineValue;
			if (text == null) {
				if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
					throw new UsageException("option --" + name + " needs a value: " + option.synopsis());
				}
				text = args.get(++i);
			}
			try {
				values.put(option, option.parse(text));
			} catch (IllegalArgumentException e) {
				throw new UsageException("option --" + name + " expects " + e.getMessage() + ", got '" + text + "'");
			}
		}
		for (Option<?> option : command.options()) {
			if (option.isRequired() && !values.containsKey(option)) {
				throw new UsageException("missing option " + option.synopsis() + " (" + option.help() + ")");
			}
		}
		checkPositionals(positionals);
		return new ParsedArguments(values, positionals);
	}

	private void checkPositionals(List<String> given) throws UsageException {
		List<Positional> declared = command.positionals();
		int min = 0;
		long max = 0;
		for (Positional p : declared) {
			min += p.minCount();
			max += p.maxCount();
		}
		if (given.size() < min) {
			int needed = given.size();
			for (Positional p : declared) {
				if (needed < p.minCount()) {
					throw new UsageException("missing argument " + p.label() + " (" + p.help() + ")");
				}
				needed -= Math.min(needed, p.maxCount());
			}
			throw new UsageException("missing arguments: expected at least " + min);
		}
		if (given.size() > max) {
			String extra = given.get((int) max);
			throw new UsageException(declared.isEmpty() ? "unexpected argument '" + extra + "' (this command takes none)"
					: "unexpected argument '" + extra + "'");
		}
	}

	private static String hint(String typed, Map<String, Option<?>> byName) {
		String close = Suggestions.closest(typed, byName.keySet());
		return close == null ? "" : "; did you mean --" + close + "?";
	}
}
