/**
 * The built-in speculation engines ({@code phos}, {@code arg-scan}, {@code ptx-flow}), the combinators (fallback,
 * indirect pointers), and what they need: fatbin container reading and primitive maps.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.speculation.core.engines;
