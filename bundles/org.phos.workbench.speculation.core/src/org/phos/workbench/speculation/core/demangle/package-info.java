/**
 * Itanium C++ ABI demangling for CUDA kernel names, and the per-parameter facts the {@code phos} speculation engine
 * reads from a kernel's signature (pointer, pointee const, class by value).
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.speculation.core.demangle;
