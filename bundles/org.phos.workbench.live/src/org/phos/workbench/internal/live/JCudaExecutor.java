package org.phos.workbench.internal.live;

import static jcuda.driver.JCudaDriver.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.phos.workbench.live.ReplayException;
import org.phos.workbench.live.LiveDevice;
import org.phos.workbench.live.ReplayExecutor;
import org.phos.workbench.live.SurrogateKernels;
import org.phos.workbench.trace.core.Dim3;

import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * {@link ReplayExecutor} on JCuda's driver API (device 0, one context). Device addresses are read from JCuda's
 * pointer objects through {@link DevicePointer}; an address inside an allocation or module global is turned back
 * into a pointer with {@code withByteOffset} from the block that contains it.
 */
public final class JCudaExecutor implements LiveDevice {

	/** A {@link CUdeviceptr} whose numeric address can be read. */
	static final class DevicePointer extends CUdeviceptr {
		long address() {
			return getNativePointer() + getByteOffset();
		}
	}

	private final CUcontext context = new CUcontext();
	private final String name;
	private final int computeCapability;
	private final TreeMap<Long, DevicePointer> blocks = new TreeMap<>(Long::compareUnsigned);
	private final Map<Long, Long> blockSizes = new HashMap<>();
	private final Map<Long, CUstream> streams = new HashMap<>();
	private final Map<Long, CUevent> events = new HashMap<>();
	private final Map<Long, CUmodule> modules = new HashMap<>();
	private final Map<Long, CUfunction> functions = new HashMap<>();
	private final Map<String, Long> moduleByText = new HashMap<>();
	private final Map<Long, Pointer> hostBlocks = new HashMap<>();
	private final Map<Long, ByteBuffer> hostBuffers = new HashMap<>();
	private long nextHandle = 16;
	private long surrogateWrite = -1;
	private long surrogateSpin = -1;

	/**
	 * Creates a context on device 0.
	 *
	 * @throws ReplayException when there is no usable GPU or driver
	 */
	public JCudaExecutor() throws ReplayException {
		try {
			JCudaDriver.setExceptionsEnabled(true);
			cuInit(0);
			CUdevice device = new CUdevice();
			cuDeviceGet(device, 0);
			byte[] n = new byte[256];
			cuDeviceGetName(n, n.length, device);
			int len = 0;
			while (len < n.length && n[len] != 0) {
				len++;
			}
			name = new String(n, 0, len, StandardCharsets.UTF_8);
			int[] major = new int[1];
			int[] minor = new int[1];
			cuDeviceGetAttribute(major, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
			cuDeviceGetAttribute(minor, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
			computeCapability = 10 * major[0] + minor[0];
			cuCtxCreate(context, 0, device);
		} catch (CudaException | UnsatisfiedLinkError e) {
			throw new ReplayException("cannot open a CUDA context on device 0: " + e.getMessage(), e);
		}
	}

	@Override
	public String deviceName() {
		return name;
	}

	@Override
	public int computeCapability() {
		return computeCapability;
	}

	private CUdeviceptr at(long address, long bytes, String what) throws ReplayException {
		Map.Entry<Long, DevicePointer> e = blocks.floorEntry(address);
		if (e == null || Long.compareUnsigned(address - e.getKey() + bytes, blockSizes.get(e.getKey())) > 0) {
			throw new ReplayException(what + ": [0x" + Long.toHexString(address) + ", +" + bytes
					+ ") is not inside one replay allocation");
		}
		return e.getValue().withByteOffset(address - e.getKey());
	}

	private static ReplayException fail(String what, CudaException e) {
		return new ReplayException(what + " failed: " + e.getMessage(), e);
	}

	@Override
	public long allocate(long bytes) throws ReplayException {
		DevicePointer p = new DevicePointer();
		try {
			cuMemAlloc(p, bytes);
			cuMemsetD8(p, (byte) 0, bytes);
		} catch (CudaException e) {
			throw fail("cuMemAlloc(" + bytes + ")", e);
		}
		blocks.put(p.address(), p);
		blockSizes.put(p.address(), bytes);
		return p.address();
	}

	@Override
	public void free(long address) throws ReplayException {
		DevicePointer p = blocks.remove(address);
		if (p == null) {
			throw new ReplayException("free of 0x" + Long.toHexString(address) + ": not a replay allocation");
		}
		blockSizes.remove(address);
		try {
			cuMemFree(p);
		} catch (CudaException e) {
			throw fail("cuMemFree", e);
		}
	}

	@Override
	public void copyToDevice(long dst, byte[] data, int offset, int length, long stream) throws ReplayException {
		try {
			// synchronous with respect to the host buffer: the array is pinned only for the call
			cuMemcpyHtoDAsync(at(dst, length, "copy to device"), Pointer.to(data).withByteOffset(offset), length,
					stream(stream));
			cuStreamSynchronize(stream(stream));
		} catch (CudaException e) {
			throw fail("cuMemcpyHtoDAsync", e);
		}
	}

	@Override
	public void copyOnDevice(long dst, long src, long bytes, long stream) throws ReplayException {
		try {
			cuMemcpyDtoDAsync(at(dst, bytes, "device copy destination"), at(src, bytes, "device copy source"), bytes,
					stream(stream));
		} catch (CudaException e) {
			throw fail("cuMemcpyDtoDAsync", e);
		}
	}

	@Override
	public void copyToHost(long src, byte[] data, int offset, int length) throws ReplayException {
		try {
			cuCtxSynchronize();
			cuMemcpyDtoH(Pointer.to(data).withByteOffset(offset), at(src, length, "copy to host"), length);
		} catch (CudaException e) {
			throw fail("cuMemcpyDtoH", e);
		}
	}

	@Override
	public void fill(long dst, int value, int elementSize, long count, long stream) throws ReplayException {
		try {
			CUdeviceptr p = at(dst, count * elementSize, "fill");
			switch (elementSize) {
				case 1 -> cuMemsetD8Async(p, (byte) value, count, stream(stream));
				case 2 -> cuMemsetD16Async(p, (short) value, count, stream(stream));
				case 4 -> cuMemsetD32Async(p, value, count, stream(stream));
				default -> throw new ReplayException("fill element size " + elementSize + " is not 1, 2 or 4");
			}
		} catch (CudaException e) {
			throw fail("cuMemsetD" + 8 * elementSize + "Async", e);
		}
	}

	@Override
	public long loadModule(String ptx) throws ReplayException {
		// i13-live: one module per text: a second replay in this context loads nothing (and allocates nothing) anew
		Long loaded = moduleByText.get(ptx);
		if (loaded != null) {
			return loaded;
		}
		CUmodule m = new CUmodule();
		try {
			cuModuleLoadDataEx(m, ptx, 0, new int[0], Pointer.to(new int[0]));
		} catch (CudaException e) {
			throw fail("cuModuleLoadDataEx (PTX JIT)", e);
		}
		long h = nextHandle++;
		modules.put(h, m);
		moduleByText.put(ptx, h);
		return h;
	}

	@Override
	public long function(long module, String functionName) throws ReplayException {
		CUfunction f = new CUfunction();
		try {
			cuModuleGetFunction(f, modules.get(module), functionName);
		} catch (CudaException e) {
			throw fail("cuModuleGetFunction(" + functionName + ")", e);
		}
		long h = nextHandle++;
		functions.put(h, f);
		return h;
	}

	@Override
	public DeviceSymbol global(long module, String symbol) throws ReplayException {
		DevicePointer p = new DevicePointer();
		long[] bytes = new long[1];
		try {
			cuModuleGetGlobal(p, bytes, modules.get(module), symbol);
		} catch (CudaException e) {
			throw fail("cuModuleGetGlobal(" + symbol + ")", e);
		}
		blocks.put(p.address(), p);
		blockSizes.put(p.address(), bytes[0]);
		return new DeviceSymbol(p.address(), bytes[0]);
	}

	@Override
	public void launch(long function, Dim3 grid, Dim3 block, int sharedMem, long stream, List<byte[]> params)
			throws ReplayException {
		Pointer[] args = new Pointer[params.size()];
		for (int i = 0; i < args.length; i++) {
			args[i] = Pointer.to(params.get(i));
		}
		try {
			cuLaunchKernel(functions.get(function), grid.x(), grid.y(), grid.z(), block.x(), block.y(), block.z(),
					sharedMem, stream(stream), Pointer.to(args), null);
		} catch (CudaException e) {
			throw fail("cuLaunchKernel", e);
		}
	}

	private CUstream stream(long handle) {
		CUstream s = streams.get(handle);
		return s != null ? s : new CUstream();
	}

	@Override
	public long createStream(boolean nonBlocking) throws ReplayException {
		CUstream s = new CUstream();
		try {
			cuStreamCreate(s, nonBlocking ? jcuda.driver.CUstream_flags.CU_STREAM_NON_BLOCKING : 0);
		} catch (CudaException e) {
			throw fail("cuStreamCreate", e);
		}
		long h = nextHandle++;
		streams.put(h, s);
		return h;
	}

	@Override
	public long createEvent() throws ReplayException {
		CUevent e = new CUevent();
		try {
			cuEventCreate(e, 0);
		} catch (CudaException x) {
			throw fail("cuEventCreate", x);
		}
		long h = nextHandle++;
		events.put(h, e);
		return h;
	}

	@Override
	public void recordEvent(long event, long stream) throws ReplayException {
		try {
			cuEventRecord(events.get(event), stream(stream));
		} catch (CudaException e) {
			throw fail("cuEventRecord", e);
		}
	}

	@Override
	public void waitEvent(long stream, long event) throws ReplayException {
		try {
			cuStreamWaitEvent(stream(stream), events.get(event), 0);
		} catch (CudaException e) {
			throw fail("cuStreamWaitEvent", e);
		}
	}

	@Override
	public float elapsedMs(long start, long end) throws ReplayException {
		float[] ms = new float[1];
		try {
			cuEventSynchronize(events.get(end));
			cuEventElapsedTime(ms, events.get(start), events.get(end));
		} catch (CudaException e) {
			throw fail("cuEventElapsedTime", e);
		}
		return ms[0];
	}

	@Override
	public void synchronize() throws ReplayException {
		try {
			cuCtxSynchronize();
		} catch (CudaException e) {
			throw fail("cuCtxSynchronize (a kernel faulted?)", e);
		}
	}

	// i13-live: the live C/R device (LiveDevice)

	@Override
	public long allocateHost(long bytes) throws ReplayException {
		if (bytes <= 0 || bytes > Integer.MAX_VALUE) {
			throw new ReplayException("pinned host block of " + bytes + " bytes: JCuda maps at most 2 GiB - 1 per block");
		}
		Pointer p = new Pointer();
		try {
			cuMemAllocHost(p, bytes);
		} catch (CudaException e) {
			throw fail("cuMemAllocHost(" + bytes + ")", e);
		}
		long h = nextHandle++;
		hostBlocks.put(h, p);
		hostBuffers.put(h, p.getByteBuffer(0, bytes).order(ByteOrder.LITTLE_ENDIAN));
		return h;
	}

	@Override
	public void freeHost(long handle) {
		Pointer p = hostBlocks.remove(handle);
		hostBuffers.remove(handle);
		if (p != null) {
			try {
				cuMemFreeHost(p);
			} catch (CudaException e) {
				// freed with the context at the latest
			}
		}
	}

	@Override
	public ByteBuffer hostBuffer(long handle) {
		ByteBuffer b = hostBuffers.get(handle);
		if (b == null) {
			throw new IllegalArgumentException("no pinned host block " + handle);
		}
		return b.duplicate().clear();
	}

	@Override
	public void copyToHostAsync(long host, long offset, long src, long bytes, long stream) throws ReplayException {
		Pointer p = hostBlocks.get(host);
		if (p == null || offset < 0 || offset + bytes > hostBuffers.get(host).capacity()) {
			throw new ReplayException("copy to host block " + host + " at " + offset + " (+" + bytes + "): outside it");
		}
		try {
			cuMemcpyDtoHAsync(p.withByteOffset(offset), at(src, bytes, "copy to pinned host"), bytes, stream(stream));
		} catch (CudaException e) {
			throw fail("cuMemcpyDtoHAsync", e);
		}
	}

	@Override
	public void copyFromHostAsync(long dst, long host, long offset, long bytes, long stream) throws ReplayException {
		Pointer p = hostBlocks.get(host);
		if (p == null || offset < 0 || offset + bytes > hostBuffers.get(host).capacity()) {
			throw new ReplayException("copy from host block " + host + " at " + offset + " (+" + bytes + "): outside it");
		}
		try {
			cuMemcpyHtoDAsync(at(dst, bytes, "copy from pinned host"), p.withByteOffset(offset), bytes, stream(stream));
		} catch (CudaException e) {
			throw fail("cuMemcpyHtoDAsync", e);
		}
	}

	@Override
	public long freeMemory() throws ReplayException {
		long[] free = new long[1];
		long[] total = new long[1];
		try {
			cuMemGetInfo(free, total);
		} catch (CudaException e) {
			throw fail("cuMemGetInfo", e);
		}
		return free[0];
	}

	@Override
	public long allocateUninitialized(long bytes) throws ReplayException {
		DevicePointer p = new DevicePointer();
		try {
			cuMemAlloc(p, bytes);
		} catch (CudaException e) {
			throw fail("cuMemAlloc(" + bytes + ")", e);
		}
		blocks.put(p.address(), p);
		blockSizes.put(p.address(), bytes);
		return p.address();
	}

	private void loadSurrogates() throws ReplayException {
		if (surrogateWrite < 0) {
			long m = loadModule(SurrogateKernels.PTX);
			surrogateWrite = function(m, SurrogateKernels.WRITE);
			surrogateSpin = function(m, SurrogateKernels.SPIN);
		}
	}

	private static byte[] u64(long v) {
		return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
	}

	@Override
	public void surrogateWrite(long dst, long bytes, long seed, long first, long stream) throws ReplayException {
		if (bytes <= 0) {
			return;
		}
		loadSurrogates();
		at(dst, bytes, "surrogate write");
		int blocks = (int) Math.max(1, Math.min(132L * 16, (bytes + 255) / 256));
		launch(surrogateWrite, new Dim3(blocks, 1, 1), new Dim3(256, 1, 1), 0, stream,
				List.of(u64(dst), u64(bytes), u64(seed), u64(first)));
	}

	@Override
	public void spin(long ns, long stream) throws ReplayException {
		if (ns <= 0) {
			return;
		}
		loadSurrogates();
		launch(surrogateSpin, new Dim3(1, 1, 1), new Dim3(1, 1, 1), 0, stream, List.of(u64(ns)));
	}

	@Override
	public boolean done(long event) throws ReplayException {
		try {
			JCudaDriver.setExceptionsEnabled(false);
			int r = cuEventQuery(events.get(event));
			if (r == jcuda.driver.CUresult.CUDA_SUCCESS) {
				return true;
			}
			if (r == jcuda.driver.CUresult.CUDA_ERROR_NOT_READY) {
				return false;
			}
			throw new ReplayException("cuEventQuery failed: " + jcuda.driver.CUresult.stringFor(r));
		} finally {
			JCudaDriver.setExceptionsEnabled(true);
		}
	}

	@Override
	public void destroyEvent(long event) {
		CUevent e = events.remove(event);
		if (e != null) {
			try {
				cuEventDestroy(e);
			} catch (CudaException x) {
				// gone with the context at the latest
			}
		}
	}

	@Override
	public void synchronize(long stream) throws ReplayException {
		try {
			cuStreamSynchronize(stream(stream));
		} catch (CudaException e) {
			throw fail("cuStreamSynchronize (a kernel faulted?)", e);
		}
	}
	// i13-live: end

	@Override
	public void close() {
		for (Long h : List.copyOf(hostBlocks.keySet())) {
			freeHost(h);
		}
		try {
			cuCtxDestroy(context);
		} catch (CudaException e) {
			// the context is gone either way
		}
		blocks.clear();
		blockSizes.clear();
		streams.clear();
		events.clear();
		modules.clear();
		moduleByText.clear();
		functions.clear();
	}
}
