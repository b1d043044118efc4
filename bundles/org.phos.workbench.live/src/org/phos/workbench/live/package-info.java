/**
 * The workbench on a real GPU: {@link org.phos.workbench.live.GpuReplay} re-executes a recorded trace through a
 * {@link org.phos.workbench.live.ReplayExecutor} (allocations relocated, copies and fills in order, PTX kernels
 * launched with relocated parameters), optionally instrumented to observe each launch's accesses, and
 * {@link org.phos.workbench.live.InstrumentMain} is the command-line entry point for the GPU machine. The executor
 * interface is the seam the live checkpoint/restore work reuses; {@code JCudaExecutor} implements it with JCuda's
 * driver API.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.live;
