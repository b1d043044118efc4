package org.phos.workbench.cr.core;

import java.util.Locale;

/**
 * The machine a simulation runs on: copy-engine bandwidths, context creation, and the figures that stand in for GPU
 * durations a workload does not carry. Every knob can be overridden ({@link #with(String, String)}, or
 * {@link #parse(String)} with {@code h100,d2h=40GB/s,ctx=2.5s}).
 *
 * @param name preset name, or the preset's name with "*" when a knob was changed
 * @param d2hBytesPerSec device-to-host copy bandwidth with pinned host memory
 * @param h2dBytesPerSec host-to-device copy bandwidth with pinned host memory
 * @param d2dBytesPerSec device-to-device copy bandwidth (one-way bytes per second)
 * @param pageableFactor fraction of the pinned bandwidth reached with pageable host memory (assumed, not measured)
 * @param hostCopyBytesPerSec host memcpy bandwidth (host-to-host copies, CPU state dump)
 * @param memsetBytesPerSec on-device memset rate, for sets without a recorded duration
 * @param copyLatencyNs fixed cost per copy (setup, DMA start)
 * @param launchLatencyNs time from the host issuing work to the GPU starting it on an idle stream
 * @param defaultKernelNs duration of a kernel whose workload carries none
 * @param contextCreationNs time to create a CUDA context (plus libraries) on restore without a pool
 * @param contextPoolNs time to take a pre-created context from a pool
 * @param cpuStateBytes host-side process state dumped at a checkpoint (copied before GPU state)
 * @param deviceMemoryBytes the GPU's memory (what {@code budget=auto} of a soft checkpoint divides: this minus the
 *        bytes live at the instant minus {@link SoftCheckpointOptions#AUTO_BUDGET_HEADROOM})
 * @param copierCommitBytesPerSec the rate at which a soft checkpoint's background copier commits to the host, 0 for
 *        the D2H engine's rate; a copier pumped by the host (chunks issued between the application's calls, a few in
 *        flight) commits slower than the engine copies, and the copy-on-write budget is freed at this rate
 * @param cowLatencyNs fixed cost of a copy-on-write copy when the copies are queued back to back on the application's
 *        stream (the cost of all but the first copy before one call overlaps the previous copy); -1: every
 *        copy-on-write copy pays {@code copyLatencyNs} and the host waits for each (the model before calibration
 *        measured it)
 */
public record MachineModel(String name, double d2hBytesPerSec, double h2dBytesPerSec, double d2dBytesPerSec,
        double pageableFactor, double hostCopyBytesPerSec, double memsetBytesPerSec, long copyLatencyNs,
        long launchLatencyNs, long defaultKernelNs, long contextCreationNs, long contextPoolNs, long cpuStateBytes,
        long deviceMemoryBytes, double copierCommitBytesPerSec, long cowLatencyNs) {

    /** A model with PhOS's knobs only: 80 GiB of device memory, the copier at the engine's rate, no CoW overlap. */
    public MachineModel(String name, double d2hBytesPerSec, double h2dBytesPerSec, double d2dBytesPerSec,
            double pageableFactor, double hostCopyBytesPerSec, double memsetBytesPerSec, long copyLatencyNs,
            long launchLatencyNs, long defaultKernelNs, long contextCreationNs, long contextPoolNs, long cpuStateBytes) {
        this(name, d2hBytesPerSec, h2dBytesPerSec, d2dBytesPerSec, pageableFactor, hostCopyBytesPerSec,
                memsetBytesPerSec, copyLatencyNs, launchLatencyNs, defaultKernelNs, contextCreationNs, contextPoolNs,
                cpuStateBytes, 80L << 30, 0, -1);
    }

    public MachineModel {
        positive("d2h", d2hBytesPerSec);
        positive("h2d", h2dBytesPerSec);
        positive("d2d", d2dBytesPerSec);
        positive("host-copy", hostCopyBytesPerSec);
        positive("memset", memsetBytesPerSec);
        if (!(pageableFactor > 0 && pageableFactor <= 1)) {
            throw new IllegalArgumentException("pageable factor must be in (0, 1], was " + pageableFactor);
        }
        if (!(copierCommitBytesPerSec >= 0) || Double.isInfinite(copierCommitBytesPerSec)) {
            throw new IllegalArgumentException("machine knob copier-rate must be a rate >= 0 (0: the engine's), was "
                    + copierCommitBytesPerSec);
        }
        if (copyLatencyNs < 0 || launchLatencyNs < 0 || defaultKernelNs < 0 || contextCreationNs < 0
                || contextPoolNs < 0 || cpuStateBytes < 0 || deviceMemoryBytes < 0 || cowLatencyNs < -1) {
            throw new IllegalArgumentException("machine '" + name + "': times and sizes must be >= 0");
        }
    }

    private static void positive(String knob, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("machine knob " + knob + " must be a positive rate, was " + v);
        }
    }

    /**
     * The H100 80GB HBM3 test machine of this project (PCIe Gen5 x16), measured with 1 GiB pinned copies: D2H 55 GB/s,
     * H2D 52-55 GB/s (55 used), D2D about 1.4 TB/s one-way. Context creation 3.1 s is PhOS's figure. Device memory
     * 81,559 MiB (what nvidia-smi reports as total). The copier rate and CoW latency are left to calibration.
     */
    public static final long H100_MEMORY = 81_559L << 20;

    public static MachineModel h100() {
        return new MachineModel("h100", 55e9, 55e9, 1.4e12, 0.5, 10e9, 2.5e12, 2_000, 4_000, 10_000, 3_100_000_000L,
                1_000_000L, 0, H100_MEMORY, 0, -1);
    }

    /**
     * PhOS's testbed: A800, PCIe 4.0 x16; D2H 21.6 GB/s (PhOS repository microbenchmark), H2D 24 GB/s (within the
     * paper's 21-25 GB/s), D2D 0.8 TB/s (assumed for HBM2e, not measured here).
     */
    public static MachineModel a800Pcie4() {
        return new MachineModel("a800-pcie4", 21.6e9, 24e9, 0.8e12, 0.5, 10e9, 1.5e12, 2_000, 4_000, 10_000,
                3_100_000_000L, 1_000_000L, 0);
    }

    /** A preset by name: {@code h100}, {@code a800-pcie4} (also {@code a800}). */
    public static MachineModel preset(String presetName) {
        return switch (presetName.trim().toLowerCase(Locale.ROOT)) {
            case "h100" -> h100();
            case "a800-pcie4", "a800" -> a800Pcie4();
            default -> throw new IllegalArgumentException(
                    "unknown machine preset '" + presetName + "' (known: h100, a800-pcie4)");
        };
    }

    /** {@code preset[,knob=value...]}, for example {@code a800-pcie4,d2h=25GB/s,ctx=0}. */
    public static MachineModel parse(String spec) {
        String[] parts = spec.split(",");
        MachineModel m = preset(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("machine spec '" + spec + "': expected knob=value, got '" + parts[i]
                        + "'");
            }
            m = m.with(parts[i].substring(0, eq), parts[i].substring(eq + 1));
        }
        return m;
    }

    /**
     * This machine with one knob changed. Knobs: d2h, h2d, d2d, host-copy, memset, copier-rate (rates; copier-rate 0:
     * the D2H engine's rate), pageable-factor, copy-latency, launch-latency, default-kernel, ctx, ctx-pool, cow-latency
     * (durations; cow-latency -1: each copy-on-write copy pays copy-latency, none overlapped), cpu-state, device-memory
     * (bytes).
     */
    public MachineModel with(String knob, String value) {
        String n = name.endsWith("*") ? name : name + "*";
        double d2h = d2hBytesPerSec, h2d = h2dBytesPerSec, d2d = d2dBytesPerSec, pf = pageableFactor,
                hc = hostCopyBytesPerSec, ms = memsetBytesPerSec, cr = copierCommitBytesPerSec;
        long cl = copyLatencyNs, ll = launchLatencyNs, dk = defaultKernelNs, cc = contextCreationNs,
                cp = contextPoolNs, cs = cpuStateBytes, dm = deviceMemoryBytes, cow = cowLatencyNs;
        try {
            switch (knob.trim().toLowerCase(Locale.ROOT)) {
                case "d2h" -> d2h = Units.parseRate(value);
                case "h2d" -> h2d = Units.parseRate(value);
                case "d2d" -> d2d = Units.parseRate(value);
                case "host-copy" -> hc = Units.parseRate(value);
                case "memset" -> ms = Units.parseRate(value);
                case "pageable-factor" -> pf = Double.parseDouble(value.trim());
                case "copy-latency" -> cl = Units.parseDurationNs(value);
                case "launch-latency" -> ll = Units.parseDurationNs(value);
                case "default-kernel" -> dk = Units.parseDurationNs(value);
                case "ctx" -> cc = Units.parseDurationNs(value);
                case "ctx-pool" -> cp = Units.parseDurationNs(value);
                case "cpu-state" -> cs = Units.parseBytes(value);
                // i13-cow: begin
                case "device-memory" -> dm = Units.parseBytes(value);
                case "copier-rate" -> cr = "0".equals(value.trim()) ? 0 : Units.parseRate(value);
                case "cow-latency" -> cow = "-1".equals(value.trim()) ? -1 : Units.parseDurationNs(value);
                // i13-cow: end
                default -> throw new IllegalArgumentException("unknown machine knob '" + knob
                        + "' (known: d2h, h2d, d2d, host-copy, memset, pageable-factor, copy-latency, launch-latency,"
                        + " default-kernel, ctx, ctx-pool, cpu-state, device-memory, copier-rate, cow-latency)");
            }
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("unknown machine knob")) {
                throw e;
            }
            throw new IllegalArgumentException("machine knob " + knob + ": bad value '" + value + "'"
                    + (e instanceof NumberFormatException || e.getMessage() == null ? "" : " (" + e.getMessage() + ")"),
                    e);
        }
        return new MachineModel(n, d2h, h2d, d2d, pf, hc, ms, cl, ll, dk, cc, cp, cs, dm, cr, cow);
    }

    /** Bandwidth of a device copy direction with the given host staging. */
    public double bandwidth(CopyDirection direction, Staging staging) {
        double f = staging == Staging.PAGEABLE ? pageableFactor : 1.0;
        return switch (direction) {
            case DEVICE_TO_HOST -> d2hBytesPerSec * f;
            case HOST_TO_DEVICE -> h2dBytesPerSec * f;
            case DEVICE_TO_DEVICE -> d2dBytesPerSec;
            case HOST_TO_HOST -> hostCopyBytesPerSec;
        };
    }

    /** A model of a machine with zero fixed latencies: handy when results must follow from bandwidth alone. */
    public MachineModel withoutLatencies() {
        return new MachineModel(name.endsWith("*") ? name : name + "*", d2hBytesPerSec, h2dBytesPerSec, d2dBytesPerSec,
                pageableFactor, hostCopyBytesPerSec, memsetBytesPerSec, 0, 0, defaultKernelNs, contextCreationNs,
                contextPoolNs, cpuStateBytes, deviceMemoryBytes, copierCommitBytesPerSec, cowLatencyNs < 0 ? -1 : 0);
    }

    // i13-cow: begin
    /** Rate of the soft checkpoint's background copier with this staging: {@code copier-rate}, at most the engine's. */
    public double copierBandwidth(Staging staging) {
        double engine = bandwidth(CopyDirection.DEVICE_TO_HOST, staging);
        return copierCommitBytesPerSec > 0 ? Math.min(engine, copierCommitBytesPerSec) : engine;
    }
    // i13-cow: end
}
