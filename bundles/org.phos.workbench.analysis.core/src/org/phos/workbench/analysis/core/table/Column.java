package org.phos.workbench.analysis.core.table;

import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import org.eclipse.jdt.annotation.Nullable;

/**
 * One column of a table of rows of type {@code R}: a header, a unit and how to read the cell from a row. The cell is
 * typed by {@link Kind} so that every renderer treats it the same way: numbers right-aligned in text and bare in JSON,
 * addresses in hexadecimal text, text quoted by the one CSV and JSON routine.
 *
 * @param <R> the row type (a record of a query result)
 * @param header the header as text, CSV and JSON write it ({@code gpu_ns}); lower case, digits and underscores
 * @param unit the unit for a reader ({@code ns}, {@code bytes}) or empty
 * @param kind what the getter returns
 * @param getter reads the cell: a {@link String} for {@link Kind#TEXT} and {@link Kind#ADDRESS} (already formatted),
 *        a {@link Long} for {@link Kind#INTEGER}, a {@link Double} for {@link Kind#DECIMAL}; null is an empty cell
 */
public record Column<R>(String header, String unit, Kind kind, Function<? super R, ? extends @Nullable Object> getter) {

	/** What a cell holds. */
	public enum Kind {
		/** Text, left-aligned, quoted in CSV when needed and always in JSON. */
		TEXT,
		/** A whole number ({@link Long}), right-aligned, bare in JSON. */
		INTEGER,
		/** A number with a fraction ({@link Double}), right-aligned, bare in JSON (non-finite: null). */
		DECIMAL,
		/** A device address or similar, as text ({@code 0x7f00...}), right-aligned, a string in JSON. */
		ADDRESS
	}

	/** Checks the header. */
	public Column {
		if (!header.matches("[a-z][a-z0-9_]*")) {
			throw new IllegalArgumentException("column header must be lower case, digits, underscores: " + header);
		}
	}

	/** @return a text column */
	public static <R> Column<R> text(String header, Function<? super R, ? extends @Nullable String> getter) {
		return new Column<>(header, "", Kind.TEXT, getter);
	}

	/** @return a whole-number column */
	public static <R> Column<R> integer(String header, String unit, ToLongFunction<? super R> getter) {
		return new Column<>(header, unit, Kind.INTEGER, r -> getter.applyAsLong(r));
	}

	/** @return a decimal column */
	public static <R> Column<R> decimal(String header, String unit, ToDoubleFunction<? super R> getter) {
		return new Column<>(header, unit, Kind.DECIMAL, r -> getter.applyAsDouble(r));
	}

	/** @return an address column: the unsigned 64-bit value in hexadecimal, {@code 0x...} */
	public static <R> Column<R> address(String header, ToLongFunction<? super R> getter) {
		return new Column<>(header, "", Kind.ADDRESS, r -> "0x" + Long.toHexString(getter.applyAsLong(r)));
	}

	/** @return the cell of {@code row} (null: empty) */
	public @Nullable Object value(R row) {
		return getter.apply(row);
	}

	/** @return the cell as text without quoting, as the text renderer and a view's label show it ("" when empty) */
	public String format(R row) {
		Object v = value(row);
		if (v == null) {
			return "";
		}
		if (v instanceof Double d) {
			return Double.isFinite(d) ? formatDecimal(d) : "";
		}
		return v.toString();
	}

	/** Decimals as text: up to 4 significant digits after the point, no exponent below 1e15. */
	static String formatDecimal(double d) {
		if (d == Math.rint(d) && Math.abs(d) < 1e15) {
			return Long.toString((long) d);
		}
		return java.math.BigDecimal.valueOf(d).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
	}

	/** @return whether the text renderer right-aligns it */
	public boolean rightAligned() {
		return kind != Kind.TEXT;
	}
}
