package org.phos.workbench.live;

import org.phos.workbench.internal.live.JCudaExecutor;

/** Opens the GPU for live runs (the JCuda device, device 0). */
public final class LiveDevices {
	private LiveDevices() {
	}

	/**
	 * @return device 0 through JCuda; the caller closes it
	 * @throws ReplayException when there is no CUDA device or driver here (the message says so)
	 */
	public static LiveDevice gpu() throws ReplayException {
		return new JCudaExecutor();
	}
}
