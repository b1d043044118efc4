package org.phos.workbench.analysis.core.format;

import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.Deque;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.export.JsonEscape;

/**
 * Writes indented JSON as it goes (objects, arrays, names, values), putting commas and indentation in the right
 * places and refusing misuse (a value where a name is due) with an {@link IllegalStateException}.
 */
public final class JsonWriter {

	private enum Scope {
		OBJECT, ARRAY
	}

	private final PrintStream out;
	private final Deque<Scope> scopes = new ArrayDeque<>();
	private boolean first = true;
	private boolean nameWritten;

	public JsonWriter(PrintStream out) {
		this.out = out;
	}

	public JsonWriter beginObject() {
		beforeValue();
		out.print('{');
		scopes.push(Scope.OBJECT);
		first = true;
		return this;
	}

	public JsonWriter endObject() {
		return end(Scope.OBJECT, '}');
	}

	public JsonWriter beginArray() {
		beforeValue();
		out.print('[');
		scopes.push(Scope.ARRAY);
		first = true;
		return this;
	}

	public JsonWriter endArray() {
		return end(Scope.ARRAY, ']');
	}

	public JsonWriter name(String name) {
		if (scopes.peek() != Scope.OBJECT || nameWritten) {
			throw new IllegalStateException("a name is only allowed inside an object, before its value");
		}
		separator();
		out.print(JsonEscape.quote(name));
		out.print(": ");
		nameWritten = true;
		return this;
	}

	public JsonWriter value(@Nullable String value) {
		beforeValue();
		out.print(value == null ? "null" : JsonEscape.quote(value));
		return this;
	}

	public JsonWriter value(long value) {
		beforeValue();
		out.print(value);
		return this;
	}

	/** An unsigned 64-bit value (addresses, sizes). */
	public JsonWriter unsignedValue(long value) {
		beforeValue();
		out.print(Long.toUnsignedString(value));
		return this;
	}

	public JsonWriter value(double value) {
		beforeValue();
		out.print(Double.isFinite(value) ? Double.toString(value) : "null");
		return this;
	}

	public JsonWriter value(boolean value) {
		beforeValue();
		out.print(value);
		return this;
	}

	/** {@code "name": "value"}. */
	public JsonWriter field(String name, @Nullable String value) {
		return name(name).value(value);
	}

	public JsonWriter field(String name, long value) {
		return name(name).value(value);
	}

	public JsonWriter field(String name, double value) {
		return name(name).value(value);
	}

	public JsonWriter field(String name, boolean value) {
		return name(name).value(value);
	}

	/** Ends the document with a newline; all scopes must be closed. */
	public void finish() {
		if (!scopes.isEmpty()) {
			throw new IllegalStateException(scopes.size() + " unclosed JSON scopes");
		}
		out.println();
		out.flush();
	}

	private void beforeValue() {
		Scope scope = scopes.peek();
		if (scope == Scope.OBJECT) {
			if (!nameWritten) {
				throw new IllegalStateException("a value inside an object needs a name first");
			}
			nameWritten = false;
		} else if (scope == Scope.ARRAY) {
			separator();
		}
		first = false;
	}

	private void separator() {
		if (!first) {
			out.print(',');
		}
		out.print('\n');
		out.print("  ".repeat(scopes.size()));
		first = false;
	}

	private JsonWriter end(Scope scope, char close) {
		if (scopes.peek() != scope || nameWritten) {
			throw new IllegalStateException("unbalanced JSON: cannot close " + scope);
		}
		scopes.pop();
		if (!first) {
			out.print('\n');
			out.print("  ".repeat(scopes.size()));
		}
		out.print(close);
		first = false;
		return this;
	}
}
