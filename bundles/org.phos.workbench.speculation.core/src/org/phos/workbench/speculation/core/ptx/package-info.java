/**
 * PTX text as a model (module, functions, parameters, statements, operands) that can be analysed and re-emitted,
 * and the {@code ptx-flow} analysis: which kernel parameters (and which 8-byte words of struct parameters) reach
 * global memory instructions, read or written, and over which byte range.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.speculation.core.ptx;
