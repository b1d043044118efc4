/** Implementation of the Itanium C++ ABI demangler: a recursive-descent parser building a small node tree. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.speculation.core.demangle;
