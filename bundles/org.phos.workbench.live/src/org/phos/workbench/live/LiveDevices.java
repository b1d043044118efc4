package org.phos.workbench.live;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.internal.live.JCudaExecutor;

import jcuda.CudaException;
import jcuda.driver.CUdevice;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/** Opens the GPU for live runs (the JCuda device, device 0), and says cheaply whether there is one. */
public final class LiveDevices {
	private static volatile @Nullable Probe probed;

	private LiveDevices() {
	}

	/**
	 * @return device 0 through JCuda; the caller closes it
	 * @throws ReplayException when there is no CUDA device or driver here (the message says so)
	 */
	public static LiveDevice gpu() throws ReplayException {
		return new JCudaExecutor();
	}

	/**
	 * Whether this machine has a CUDA device for live runs: its name, or why not.
	 *
	 * @param present whether device 0 can be used
	 * @param text the device's name when present, else the reason in one line (no driver, no device)
	 */
	public record Probe(boolean present, String text) {
	}

	/**
	 * Looks for a CUDA device without creating a context (the driver's {@code cuInit}, {@code cuDeviceGetCount} and
	 * the name of device 0): cheap, and safe where the NVIDIA driver or JCuda's natives are missing (the reason is
	 * returned, nothing is thrown). The answer is kept for the process: a device does not come and go. Call it off the
	 * UI thread (loading the driver takes a moment).
	 */
	public static Probe probe() {
		Probe p = probed;
		if (p == null) {
			p = look();
			probed = p;
		}
		return p;
	}

	private static Probe look() {
		try {
			int rc = JCudaDriver.cuInit(0);
			if (rc != CUresult.CUDA_SUCCESS) {
				return new Probe(false, "no CUDA device: the driver's cuInit says " + CUresult.stringFor(rc));
			}
			int[] count = new int[1];
			rc = JCudaDriver.cuDeviceGetCount(count);
			if (rc != CUresult.CUDA_SUCCESS || count[0] == 0) {
				return new Probe(false, "no CUDA device: the driver reports none");
			}
			CUdevice device = new CUdevice();
			JCudaDriver.cuDeviceGet(device, 0);
			byte[] name = new byte[256];
			JCudaDriver.cuDeviceGetName(name, name.length, device);
			int end = 0;
			while (end < name.length && name[end] != 0) {
				end++;
			}
			return new Probe(true, new String(name, 0, end, java.nio.charset.StandardCharsets.US_ASCII));
		} catch (CudaException e) {
			return new Probe(false, "no CUDA device: " + firstLine(e.getMessage()));
		} catch (LinkageError e) {
			// a failed load of JCuda's natives comes as UnsatisfiedLinkError, possibly inside an initializer error
			String m = String.valueOf(e.getMessage()) + (e.getCause() == null ? "" : " " + e.getCause().getMessage());
			return new Probe(false, m.contains("libcuda.so") ? "no CUDA driver here (libcuda.so.1, the NVIDIA "
					+ "driver, is not installed)" : "no CUDA driver here: " + firstLine(m));
		}
	}

	private static String firstLine(@Nullable String m) {
		String s = String.valueOf(m);
		return s.lines().findFirst().orElse(s);
	}
}
