package org.phos.workbench.speculation.core.demangle;

import java.util.Optional;

import org.eclipse.jdt.annotation.Nullable;

/**
 * The outcome of demangling one symbol name. A name is either {@link Status#DEMANGLED} (with its readable text and,
 * when it names a function, its {@link KernelSignature}), {@link Status#NOT_MANGLED} (an {@code extern "C"} name such
 * as a Triton or NVRTC kernel: no types are known), or {@link Status#UNKNOWN} (it looks mangled but uses a construct the
 * demangler does not understand; {@link #problem()} says where).
 *
 * @param mangled the name as found in the module
 * @param status what became of it
 * @param text the demangled text; the input itself when not demangled
 * @param signature parameter facts when the name is a function, else {@code null}
 * @param problem empty when demangled, else why not (with the character offset)
 */
public record DemangledName(String mangled, Status status, String text, @Nullable KernelSignature signature,
		String problem) {

	/** What the demangler made of a name. */
	public enum Status {
		/** Parsed completely. */
		DEMANGLED,
		/** Not an Itanium mangled name ({@code extern "C"}); nothing is known about its parameters. */
		NOT_MANGLED,
		/** Looks mangled but could not be parsed; treat its parameters as untyped. */
		UNKNOWN
	}

	/** @return the signature when the name was demangled to a function */
	public Optional<KernelSignature> kernelSignature() {
		return Optional.ofNullable(signature);
	}

	/** @return whether the demangler understood the name */
	public boolean isDemangled() {
		return status == Status.DEMANGLED;
	}
}
