/**
 * Deterministic synthetic traces for tests, demos and benchmarks: a seeded model of a GPU process (caching
 * allocator, several streams with event dependencies, kernels with pointer and struct parameters, small
 * host-to-device copies carrying pointers, graph launches) written straight to a {@code .phos} file.
 */
@NonNullByDefault
package org.phos.workbench.trace.core.synthetic;

import org.eclipse.jdt.annotation.NonNullByDefault;
