/**
 * The driver's own stop-the-world checkpoint of a running CUDA process, taken from outside it
 * ({@code cuCheckpointProcessLock / Checkpoint / Restore / Unlock}, CUDA 12.8+ drivers).
 * <p>
 * The calls act on another process by pid, so they run in a native helper process
 * ({@code native-hooks/live/driver_checkpoint.c}, built by {@code make -C native-hooks}): the workbench's JVM never loads
 * libcuda, and a process cannot checkpoint itself. {@link org.phos.workbench.cr.core.process.CheckpointHelper} starts it
 * and reads its line protocol through {@link org.phos.workbench.cr.core.process.CheckpointProtocol} into
 * {@link org.phos.workbench.cr.core.process.CheckpointEvent}s; a
 * {@link org.phos.workbench.cr.core.process.ProcessCheckpoint} follows one process's state machine (running, locked,
 * checkpointed, failed), its phases with their times and the stall the process saw, and says which step may come next;
 * {@link org.phos.workbench.cr.core.process.DriverRefusal} explains each refusal of the driver in words.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.cr.core.process;
