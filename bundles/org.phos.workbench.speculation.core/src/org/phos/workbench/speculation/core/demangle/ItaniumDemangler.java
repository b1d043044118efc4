package org.phos.workbench.speculation.core.demangle;

import org.phos.workbench.internal.speculation.core.demangle.ItaniumParser;

/**
 * Demangles names in the Itanium C++ ABI scheme that nvcc and host compilers use, far enough for GPU kernel names:
 * nested and local names, templates with type, non-type and pack arguments, substitutions, template parameters,
 * qualifiers, pointers, references, arrays, function types, {@code std::} abbreviations, anonymous namespaces and
 * lambdas. It never throws on bad input: a name it cannot parse comes back as {@link DemangledName.Status#UNKNOWN}.
 * Output follows the GNU {@code c++filt} style ({@code float const*}), except that closing template brackets are never
 * separated by a space.
 */
public final class ItaniumDemangler {

	private ItaniumDemangler() {
	}

	/**
	 * @param name a symbol name, mangled or not
	 * @return the demangled text and, for functions, the kernel signature
	 */
	public static DemangledName demangle(String name) {
		return ItaniumParser.demangle(name);
	}
}
