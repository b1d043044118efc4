/** Implementation of trace replay: stream-order construction and replay checkpoints. */
@NonNullByDefault
package org.phos.workbench.internal.trace.core.replay;

import org.eclipse.jdt.annotation.NonNullByDefault;
