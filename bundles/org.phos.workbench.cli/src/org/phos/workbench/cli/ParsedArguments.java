package org.phos.workbench.cli;

import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;

/**
 * A command line after parsing: the typed option values and the positional arguments in order.
 */
public final class ParsedArguments {

	private final Map<Option<?>, Object> values;
	private final List<String> positionals;

	ParsedArguments(Map<Option<?>, Object> values, List<String> positionals) {
		this.values = Map.copyOf(values);
		this.positionals = List.copyOf(positionals);
	}

	/**
	 * The value of an option: the parsed value when given, otherwise its default.
	 *
	 * @throws IllegalStateException for an optional option without default that was not given (use
	 *                               {@link #find(Option)})
	 */
	public <T> T get(Option<T> option) {
		T value = find(option);
		if (value == null) {
			throw new IllegalStateException(option + " has no value and no default");
		}
		return value;
	}

	/** The value of an option, its default, or null. */
	@SuppressWarnings("unchecked")
	public <T> @Nullable T find(Option<T> option) {
		Object value = values.get(option);
		return value != null ? (T) value : option.defaultValue();
	}

	/** Whether the option was written on the command line. */
	public boolean isGiven(Option<?> option) {
		return values.containsKey(option);
	}

	/** The positional arguments, in order. */
	public List<String> positionals() {
		return positionals;
	}
}
