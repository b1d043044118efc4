/**
 * Live attach: reading the trace of a GPU process while it records (docs/trace-format.md "Live attach").
 * {@link org.phos.workbench.trace.core.attach.AttachDirectory} finds the sockets of this user's recording processes,
 * {@link org.phos.workbench.trace.core.attach.LiveStream} connects to one and yields its chunks as they arrive,
 * {@link org.phos.workbench.trace.core.attach.LiveStatistics} keeps rolling figures of what arrived and
 * {@link org.phos.workbench.trace.core.attach.StreamSaver} writes the stream to a {@code .phos} file that loads like
 * any trace. No UI, no JCuda: the command line ({@code workbench attach}) and the workbench use the same classes.
 */
@NonNullByDefault
package org.phos.workbench.trace.core.attach;

import org.eclipse.jdt.annotation.NonNullByDefault;
