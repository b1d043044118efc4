package org.phos.workbench.internal.speculation.core.engines;

import java.util.Arrays;
import java.util.function.IntFunction;

import org.eclipse.jdt.annotation.Nullable;

/**
 * A lazily filled table of per-function values indexed by function id (ids are small positive ints), so engines
 * find their cached analysis with one array access.
 *
 * @param <T> the cached value
 */
final class PerFunction<T> {

	private @Nullable Object[] values = new Object[64];
	private final IntFunction<T> compute;

	PerFunction(IntFunction<T> compute) {
		this.compute = compute;
	}

	@SuppressWarnings("unchecked")
	T get(int functionId) {
		if (functionId < 0) {
			return compute.apply(functionId);
		}
		if (functionId >= values.length) {
			values = Arrays.copyOf(values, Math.max(functionId + 1, values.length * 2));
		}
		Object v = values[functionId];
		if (v == null) {
			v = compute.apply(functionId);
			values[functionId] = v;
		}
		return (T) v;
	}
}
