package org.phos.workbench.speculation.core.demangle;

/**
 * What a kernel parameter's declared type says about the memory it can reach. PhOS's rule reads it as: a data
 * pointer whose pointee is {@code const} is read-only, any other data pointer is read-write, and a class passed by
 * value may hide pointers in its bytes (a "suspicious" parameter to scan).
 *
 * @param text the type as C++ text, for example {@code float const*}
 * @param pointer the parameter is a pointer (or a reference, which is passed as a pointer)
 * @param reference the parameter is an lvalue or rvalue reference
 * @param pointeeConst the first pointee level is const ({@code const float*}, {@code const T&})
 * @param pointerDepth number of pointer/reference levels ({@code float**} is 2), 0 for non-pointers
 * @param functionPointer the pointer designates a function, not device data
 * @param classType passed by value and a named type: a class, struct, union or enum (the mangling cannot tell an enum
 *        from a class), or a lambda/closure type
 */
public record ParameterType(String text, boolean pointer, boolean reference, boolean pointeeConst, int pointerDepth,
		boolean functionPointer, boolean classType) {

	/** @return a pointer or reference to data (not to a function) */
	public boolean isDataPointer() {
		return pointer && !functionPointer;
	}

	/** @return a data pointer through which the callee may write (pointee not const), PhOS's "read-write" */
	public boolean isWritablePointer() {
		return isDataPointer() && !pointeeConst;
	}
}
