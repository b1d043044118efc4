package org.phos.workbench.live;

import java.util.List;

import org.phos.workbench.trace.core.Dim3;

/**
 * What a replay needs from a GPU, in replay terms: addresses are the replay's device addresses, streams, events,
 * modules and functions are opaque handles this executor hands out (0 is the legacy default stream). Operations on a
 * stream are asynchronous; {@link #synchronize()} waits for all. The driver behind it is the executor's business
 * (JCuda in {@code JCudaExecutor}; a native agent for live checkpoint/restore later).
 */
public interface ReplayExecutor extends AutoCloseable {

	/** A device global of a loaded module. */
	record DeviceSymbol(long address, long bytes) {
	}

	/** @return the device's name */
	String deviceName();

	/**
	 * @return the device's compute capability as 10 * major + minor (90 for an H100 or H200): the newest PTX target
	 *         it can compile
	 */
	default int computeCapability() {
		return 90;
	}

	/**
	 * @param bytes size (&gt; 0)
	 * @return the address of a new zero-filled device allocation
	 * @throws ReplayException when the device cannot allocate it
	 */
	long allocate(long bytes) throws ReplayException;

	/** Frees an allocation made by {@link #allocate}. */
	void free(long address) throws ReplayException;

	/** Copies host bytes to device address {@code dst} on {@code stream} (the bytes may be reused on return). */
	void copyToDevice(long dst, byte[] data, int offset, int length, long stream) throws ReplayException;

	/** Copies between two device addresses on {@code stream}. */
	void copyOnDevice(long dst, long src, long bytes, long stream) throws ReplayException;

	/** Copies device bytes to the host; waits for the device first. */
	void copyToHost(long src, byte[] data, int offset, int length) throws ReplayException;

	/** Fills {@code count} elements of {@code elementSize} (1, 2 or 4) bytes with {@code value}. */
	void fill(long dst, int value, int elementSize, long count, long stream) throws ReplayException;

	/** Loads a PTX module (driver JIT); returns its handle. */
	long loadModule(String ptx) throws ReplayException;

	/** @return the handle of a function of a loaded module */
	long function(long module, String name) throws ReplayException;

	/** @return a {@code .global} variable of a loaded module */
	DeviceSymbol global(long module, String name) throws ReplayException;

	/**
	 * Launches a function.
	 *
	 * @param params the kernel's parameters, one byte array per parameter in order
	 */
	void launch(long function, Dim3 grid, Dim3 block, int sharedMem, long stream, List<byte[]> params)
			throws ReplayException;

	/** @return a new stream handle ({@code nonBlocking}: does not synchronise with the legacy default stream) */
	long createStream(boolean nonBlocking) throws ReplayException;

	/** @return a new event handle (timing enabled) */
	long createEvent() throws ReplayException;

	/** Records {@code event} on {@code stream}. */
	void recordEvent(long event, long stream) throws ReplayException;

	/** Makes {@code stream} wait for {@code event}. */
	void waitEvent(long stream, long event) throws ReplayException;

	/** @return milliseconds between two completed events */
	float elapsedMs(long start, long end) throws ReplayException;

	/** Waits for all work on the device. */
	void synchronize() throws ReplayException;

	/** Releases the context and everything in it. */
	@Override
	void close();
}
