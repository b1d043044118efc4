/** Load benchmarks of the trace model, wired into {@code workbench bench} by the CLI. */
@NonNullByDefault
package org.phos.workbench.internal.trace.core.bench;

import org.eclipse.jdt.annotation.NonNullByDefault;
