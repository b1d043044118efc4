package org.phos.workbench.live;

import java.util.ArrayDeque;
import java.util.Locale;

import org.phos.workbench.cr.core.MachineModel;

/**
 * The simulator's machine knobs measured on the GPU at hand ({@link #measure}), written as a machine spec that
 * {@code simulate --machine} and {@code live --machine} take ({@link #spec()}: the {@code h100} preset with the
 * measured knobs; the knobs not measured here, host-copy, default-kernel, ctx and ctx-pool, keep the preset's).
 *
 * @param device the GPU's name
 * @param d2h pinned device-to-host bandwidth, bytes/s (1 GiB copies, median)
 * @param h2d pinned host-to-device bandwidth, bytes/s
 * @param d2hPageable pageable device-to-host bandwidth, bytes/s (256 MiB Java array, host-timed)
 * @param h2dPageable pageable host-to-device bandwidth, bytes/s
 * @param d2d device-to-device bandwidth, one-way bytes/s
 * @param memset on-device memset rate, bytes/s
 * @param copyLatencyNs GPU time per 4-byte pinned copy, back to back on one stream
 * @param launchLatencyNs GPU time per one-byte surrogate write kernel (one block), back to back on one stream: the
 *        launch overhead the GPU sees
 * @param copierRate the live engine's copier, measured: 1 GiB committed to pinned memory in 4 MiB chunks, 4 in
 *        flight, the host topping the window up between small kernels it issues on another stream (as the engine
 *        pumps between the application's calls); bytes over host time, bytes/s
 * @param cowLatencyNs GPU time per 4-byte device-to-device copy, back to back on one stream (the fixed cost of a
 *        copy-on-write copy queued behind another)
 */
public record MachineCalibration(String device, double d2h, double h2d, double d2hPageable, double h2dPageable,
		double d2d, double memset, long copyLatencyNs, long launchLatencyNs, double copierRate, long cowLatencyNs) {

	/** Pageable bandwidth as a fraction of pinned, both directions averaged, in (0, 1]. */
	public double pageableFactor() {
		double f = (d2hPageable / d2h + h2dPageable / h2d) / 2;
		return Math.max(0.01, Math.min(1, f));
	}

	/** The machine spec: {@code h100,d2h=...GB/s,...}. */
	public String spec() {
		return String.format(Locale.ROOT,
				"h100,d2h=%.2fGB/s,h2d=%.2fGB/s,d2d=%.1fGB/s,memset=%.1fGB/s,pageable-factor=%.3f,copy-latency=%dns,"
						+ "launch-latency=%dns,copier-rate=%.2fGB/s,cow-latency=%dns",
				d2h / 1e9, h2d / 1e9, d2d / 1e9, memset / 1e9, pageableFactor(), copyLatencyNs, launchLatencyNs,
				copierRate / 1e9, cowLatencyNs);
	}

	/** The spec as a machine model (checks that it parses). */
	public MachineModel model() {
		return MachineModel.parse(spec());
	}

	/**
	 * Measures the knobs on a device.
	 *
	 * @param rounds rounds per figure (the median is kept)
	 */
	public static MachineCalibration measure(LiveDevice device, int rounds) throws ReplayException {
		long big = 1L << 30;
		long d = device.allocate(big);
		long d2 = device.allocate(big);
		long h = device.allocateHost(big);
		long s = device.createStream(true);
		long e0 = device.createEvent();
		long e1 = device.createEvent();
		double[] d2h = new double[rounds];
		double[] h2d = new double[rounds];
		double[] d2d = new double[rounds];
		double[] set = new double[rounds];
		double[] d2hp = new double[rounds];
		double[] h2dp = new double[rounds];
		double[] copy = new double[rounds];
		double[] launch = new double[rounds];
		double[] copier = new double[rounds];
		double[] cow = new double[rounds];
		long s2 = device.createStream(true);
		int pageable = 256 << 20;
		byte[] array = new byte[pageable];
		int small = 1000;
		try {
			for (int r = 0; r < rounds; r++) {
				d2h[r] = big / timed(device, s, e0, e1, () -> device.copyToHostAsync(h, 0, d, big, s));
				h2d[r] = big / timed(device, s, e0, e1, () -> device.copyFromHostAsync(d, h, 0, big, s));
				d2d[r] = big / timed(device, s, e0, e1, () -> device.copyOnDevice(d2, d, big, s));
				int value = r;
				set[r] = big / timed(device, s, e0, e1, () -> device.fill(d, value, 4, big / 4, s));
				long t0 = System.nanoTime();
				device.copyToHost(d, array, 0, pageable);
				d2hp[r] = pageable / (double) (System.nanoTime() - t0);
				t0 = System.nanoTime();
				device.copyToDevice(d, array, 0, pageable, s); // returns when the copy is done
				h2dp[r] = pageable / (double) (System.nanoTime() - t0);
				copy[r] = timed(device, s, e0, e1, () -> {
					for (int i = 0; i < small; i++) {
						device.copyFromHostAsync(d + 64L * i, h, 64L * i, 4, s);
					}
				}) / small;
				launch[r] = timed(device, s, e0, e1, () -> {
					for (int i = 0; i < small; i++) {
						device.surrogateWrite(d + i, 1, i, 0, s);
					}
				}) / small;
				cow[r] = timed(device, s, e0, e1, () -> {
					for (int i = 0; i < small; i++) {
						device.copyOnDevice(d2 + 64L * i, d + 64L * i, 4, s);
					}
				}) / small;
				copier[r] = big / copierNs(device, d, h, big, s, s2);
			}
		} finally {
			device.free(d);
			device.free(d2);
			device.freeHost(h);
		}
		return new MachineCalibration(device.deviceName(), LiveChecks.median(d2h) * 1e9,
				LiveChecks.median(h2d) * 1e9, LiveChecks.median(d2hp) * 1e9, LiveChecks.median(h2dp) * 1e9,
				LiveChecks.median(d2d) * 1e9, LiveChecks.median(set) * 1e9, Math.round(LiveChecks.median(copy)),
				Math.round(LiveChecks.median(launch)), LiveChecks.median(copier) * 1e9,
				Math.round(LiveChecks.median(cow)));
	}

	// i13-cow: begin
	/** Chunk size and chunks in flight of the live engine's copier ({@link LiveCrEngine.Options#of}). */
	static final long COPIER_CHUNK = 4L << 20;
	static final int COPIER_WINDOW = 4;

	/**
	 * Host nanoseconds to commit {@code bytes} of {@code src} into pinned block {@code host} as the live engine's
	 * copier does: {@link #COPIER_CHUNK} chunks on {@code copier}, {@link #COPIER_WINDOW} in flight, the window topped up
	 * by the host between one-byte kernels it issues on {@code app} (a call of the application each).
	 */
	static double copierNs(LiveDevice device, long src, long host, long bytes, long copier, long app)
			throws ReplayException {
		ArrayDeque<Long> inFlight = new ArrayDeque<>();
		long issued = 0;
		long calls = 0;
		long t0 = System.nanoTime();
		while (issued < bytes || !inFlight.isEmpty()) {
			device.surrogateWrite(src, 1, calls, 0, app);
			calls++;
			while (!inFlight.isEmpty() && device.done(inFlight.peekFirst())) {
				device.destroyEvent(inFlight.pollFirst());
			}
			while (inFlight.size() < COPIER_WINDOW && issued < bytes) {
				long n = Math.min(COPIER_CHUNK, bytes - issued);
				device.copyToHostAsync(host, issued, src + issued, n, copier);
				long e = device.createEvent();
				device.recordEvent(e, copier);
				inFlight.addLast(e);
				issued += n;
			}
		}
		double ns = System.nanoTime() - t0;
		device.synchronize(app);
		return ns;
	}
	// i13-cow: end

	private interface Work {
		void run() throws ReplayException;
	}

	/** GPU nanoseconds of the work between two events on {@code s}. */
	private static double timed(LiveDevice device, long s, long e0, long e1, Work w) throws ReplayException {
		device.recordEvent(e0, s);
		w.run();
		device.recordEvent(e1, s);
		device.synchronize(s);
		return device.elapsedMs(e0, e1) * 1e6;
	}
}
