package org.phos.workbench.cli;

import java.util.Objects;

import org.eclipse.jdt.annotation.Nullable;

/**
 * A named option of a command, {@code --name VALUE} or {@code --name=VALUE}, or a flag {@code --name}. Options are
 * typed: the command reads them back with {@link ParsedArguments#get(Option)}, which returns the parsed value or the
 * default.
 *
 * @param <T> the type of the value; {@link Boolean} for flags
 */
public final class Option<T> {

	private final String name;
	private final @Nullable String valueLabel;
	private final String help;
	private final ValueParser<T> parser;
	private final @Nullable T defaultValue;
	private final boolean required;

	private Option(String name, @Nullable String valueLabel, String help, ValueParser<T> parser,
			@Nullable T defaultValue, boolean required) {
		this.name = Objects.requireNonNull(name);
		this.valueLabel = valueLabel;
		this.help = help;
		this.parser = parser;
		this.defaultValue = defaultValue;
		this.required = required;
	}

	/** A flag: {@code false} unless given. */
	public static Option<Boolean> flag(String name, String help) {
		return new Option<>(name, null, help, text -> Boolean.TRUE, Boolean.FALSE, false);
	}

	/** An option with a value and a default used when it is not given. */
	public static <T> Option<T> withDefault(String name, String valueLabel, String help, ValueParser<T> parser,
			T defaultValue) {
		return new Option<>(name, valueLabel, help, parser, defaultValue, false);
	}

	/** An option with a value that may be left out; {@link ParsedArguments#find(Option)} returns null then. */
	public static <T> Option<T> optional(String name, String valueLabel, String help, ValueParser<T> parser) {
		return new Option<>(name, valueLabel, help, parser, null, false);
	}

	/** An option that must be given. */
	public static <T> Option<T> required(String name, String valueLabel, String help, ValueParser<T> parser) {
		return new Option<>(name, valueLabel, help, parser, null, true);
	}

	/** The long name, without the leading {@code --}. */
	public String name() {
		return name;
	}

	/** What the value is, as shown in help ({@code FILE}, {@code N}); null for a flag. */
	public @Nullable String valueLabel() {
		return valueLabel;
	}

	public boolean isFlag() {
		return valueLabel == null;
	}

	public boolean isRequired() {
		return required;
	}

	public String help() {
		return help;
	}

	public @Nullable T defaultValue() {
		return defaultValue;
	}

	T parse(String text) {
		return parser.parse(text);
	}

	/** How the option is written in help and messages: {@code --out FILE}. */
	public String synopsis() {
		return valueLabel == null ? "--" + name : "--" + name + " " + valueLabel;
	}

	@Override
	public String toString() {
		return "--" + name;
	}
}
