package org.phos.workbench.live;

import java.nio.ByteBuffer;

/**
 * What live checkpoint/restore needs from a GPU beyond a replay ({@link ReplayExecutor}): pinned host memory for
 * checkpoint images, asynchronous device-to-host copies into it on any stream, the surrogate kernels
 * ({@link SurrogateKernels}), uninitialised allocations for the copy-on-write budget, and a non-blocking look at an
 * event. The JCuda implementation runs on the H100; the tests' implementation keeps device memory in host arrays and
 * runs each stream's work late, in a random interleaving that respects stream order and event waits, so the
 * engine's ordering is tested without a GPU.
 */
public interface LiveDevice extends ReplayExecutor {

	/** @return a handle of a new pinned host block of {@code bytes} (&lt;= 2 GiB - 1: JCuda maps it as a ByteBuffer) */
	long allocateHost(long bytes) throws ReplayException;

	/** Frees a block of {@link #allocateHost}. */
	void freeHost(long handle);

	/** @return the host block's bytes (position 0, limit its size); valid until freed */
	ByteBuffer hostBuffer(long handle);

	/** Copies {@code bytes} from device address {@code src} into host block {@code host} at {@code offset}, on {@code stream}. */
	void copyToHostAsync(long host, long offset, long src, long bytes, long stream) throws ReplayException;

	/** Copies {@code bytes} from host block {@code host} at {@code offset} to device address {@code dst}, on {@code stream}. */
	void copyFromHostAsync(long dst, long host, long offset, long bytes, long stream) throws ReplayException;

	/** @return the address of a new device allocation whose content is undefined (no fill: the CoW budget) */
	long allocateUninitialized(long bytes) throws ReplayException;

	/**
	 * Writes {@code bytes} bytes at {@code dst} on {@code stream}: byte {@code i} is
	 * {@link SurrogateKernels#pattern(long, long) pattern(seed, first + i)}.
	 */
	void surrogateWrite(long dst, long bytes, long seed, long first, long stream) throws ReplayException;

	/** Occupies {@code stream} for {@code ns} nanoseconds of GPU time (a surrogate kernel's duration). */
	void spin(long ns, long stream) throws ReplayException;

	/** @return whether all work before {@code event}'s last record has completed (does not wait) */
	boolean done(long event) throws ReplayException;

	/** Releases an event of {@link #createEvent} (the engine makes a few per operation). */
	default void destroyEvent(long event) {
	}

	// i13-cow: begin
	/** @return device memory free now, bytes (the driver's {@code cuMemGetInfo}): what {@code budget=auto} divides */
	long freeMemory() throws ReplayException;
	// i13-cow: end

	/** Waits until everything issued on {@code stream} so far has completed. */
	void synchronize(long stream) throws ReplayException;
}
