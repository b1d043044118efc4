package org.phos.workbench.speculation.core.demangle;

import java.util.List;

/**
 * The typed parameter list of a demangled function, in declaration order, with parameter packs expanded. Each entry
 * corresponds to one kernel parameter slot as laid out by {@code cuFuncGetParamInfo} (same order and count), which
 * is what the {@code phos} engine pairs it with.
 *
 * @param qualifiedName the function's name with scopes and template arguments, without return type or parameters
 * @param parameters one entry per parameter; empty for {@code f()} / {@code f(void)}
 */
public record KernelSignature(String qualifiedName, List<ParameterType> parameters) {

	/** Copies the list. */
	public KernelSignature {
		parameters = List.copyOf(parameters);
	}

	/** @return the number of parameters */
	public int size() {
		return parameters.size();
	}

	/**
	 * @param index zero-based parameter index
	 * @return that parameter
	 */
	public ParameterType parameter(int index) {
		return parameters.get(index);
	}
}
