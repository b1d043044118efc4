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
 */
public record MachineModel(String name, double d2hBytesPerSec, double h2dBytesPerSec, double d2dBytesPerSec,
        double pageableFactor, double hostCopyBytesPerSec, double memsetBytesPerSec, long copyLatencyNs,
        long launchLatencyNs, long defaultKernelNs, long contextCreationNs, long contextPoolNs, long cpuStateBytes) {

    public MachineModel {
        positive("d2h", d2hBytesPerSec);
        positive("h2d", h2dBytesPerSec);
        positive("d2d", d2dBytesPerSec);
        positive("host-copy", hostCopyBytesPerSec);
        positive("memset", memsetBytesPerSec);
        if (!(pageableFactor > 0 && pageableFactor <= 1)) {
            throw new IllegalArgumentException("pageable factor must be in (0, 1], was " + pageableFactor);
        }
        if (copyLatencyNs < 0 || launchLatencyNs < 0 || defaultKernelNs < 0 || contextCreationNs < 0
                || contextPoolNs < 0 || cpuStateBytes < 0) {
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
     * H2D 52-55 GB/s (55 used), D2D about 1.4 TB/s one-way. Context creation 3.1 s is PhOS's figure.
     */
    public static MachineModel h100() {
        return new MachineModel("h100", 55e9, 55e9, 1.4e12, 0.5, 10e9, 2.5e12, 2_000, 4_000, 10_000, 3_100_000_000L,
                1_000_000L, 0);
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
     * This machine with one knob changed. Knobs: d2h, h2d, d2d, host-copy, memset (rates), pageable-factor,
     * copy-latency, launch-latency, default-kernel, ctx, ctx-pool (durations), cpu-state (bytes).
     */
    public MachineModel with(String knob, String value) {
        String n = name.endsWith("*") ? name : name + "*";
        try {
            return switch (knob.trim().toLowerCase(Locale.ROOT)) {
                case "d2h" -> new MachineModel(n, Units.parseRate(value), h2dBytesPerSec, d2dBytesPerSec,
                        pageableFactor, hostCopyBytesPerSec, memsetBytesPerSec, copyLatencyNs, launchLatencyNs,
                        defaultKernelNs, contextCreationNs, contextPoolNs, cpuStateBytes);
                case "h2d" -> new MachineModel(n, d2hBytesPerSec, Units.parseRate(value), d2dBytesPerSec,
                        pageableFactor, hostCopyBytesPerSec, memsetBytesPerSec, copyLatencyNs, launchLatencyNs,
                        defaultKernelNs, contextCreationNs, contextPoolNs, cpuStateBytes);
                case "d2d" -> new MachineModel(n, d2hBytesPerSec, h2dBytesPerSec, Units.parseRate(value),
                        pageableFactor, hostCopyBytesPerSec, memsetBytesPerSec, copyLatencyNs, launchLatencyNs,
                        defaultKernelNs, contextCreationNs, contextPoolNs, cpuStateBytes);
                case "host-copy" -> new MachineModel(n, d2hBytesPerSec, h2dBytesPerSec, d2dBytesPerSec,
                        pageableFactor, Units.parseRate(value), memsetBytesPerSec, copyLatencyNs, launchLatencyNs,
                        defaultKernelNs, contextCreationNs, contextPoolNs, cpuStateBytes);
                case "memset" -> new MachineModel(n, d2hBytesPerSec, h2dBytesPerSec, d2dBytesPerSec, pageableFactor,
                        hostCopyBytesPerSec, Units.parseRate(value), copyLatencyNs, launchLatencyNs, defaultKernelNs,
                        contextCreationNs, contextPoolNs, cpuStateBytes);
                case "pageable-factor" -> new MachineModel(n, d2hBytesPerSec, h2dBytesPerSec, d2dBytesPerSec,
                        Double.parseDouble(value.trim()), hostCopyBytesPerSec, memsetBytesPerSec, copyLatencyNs,
                        launchLatencyNs, defaultKernelNs, contextCreationNs, contextPoolNs, cpuStateBytes);
                case "copy-latency" -> new MachineModel(n, d2hBytesPerSec, h2dBytesPerSec, d2dBytesPerSec,
                        pageableFactor, hostCopyBytesPerSec, memsetBytesPerSec, Units.parseDurationNs(value),
                        launchLatencyNs, defaultKernelNs, contextCreationNs, contextPoolNs, cpuStateBytes);
                case "launch-latency" -> new MachineModel(n, d2hBytesPerSec, h2dBytesPerSec, d2dBytesPerSec,
                        pageableFactor, hostCopyBytesPerSec, memsetBytesPerSec, copyLatencyNs,
                        Units.parseDurationNs(value), defaultKernelNs, contextCreationNs, contextPoolNs, cpuStateBytes);
                case "default-kernel" -> new MachineModel(n, d2hBytesPerSec, h2dBytesPerSec, d2dBytesPerSec,
                        pageableFactor, hostCopyBytesPerSec, memsetBytesPerSec, copyLatencyNs, launchLatencyNs,
                        Units.parseDurationNs(value), contextCreationNs, contextPoolNs, cpuStateBytes);
                case "ctx" -> new MachineModel(n, d2hBytesPerSec, h2dBytesPerSec, d2dBytesPerSec, pageableFactor,
                        hostCopyBytesPerSec, memsetBytesPerSec, copyLatencyNs, launchLatencyNs, defaultKernelNs,
                        Units.parseDurationNs(value), contextPoolNs, cpuStateBytes);
                case "ctx-pool" -> new MachineModel(n, d2hBytesPerSec, h2dBytesPerSec, d2dBytesPerSec, pageableFactor,
                        hostCopyBytesPerSec, memsetBytesPerSec, copyLatencyNs, launchLatencyNs, defaultKernelNs,
                        contextCreationNs, Units.parseDurationNs(value), cpuStateBytes);
                case "cpu-state" -> new MachineModel(n, d2hBytesPerSec, h2dBytesPerSec, d2dBytesPerSec,
                        pageableFactor, hostCopyBytesPerSec, memsetBytesPerSec, copyLatencyNs, launchLatencyNs,
                        defaultKernelNs, contextCreationNs, contextPoolNs, Units.parseBytes(value));
                default -> throw new IllegalArgumentException("unknown machine knob '" + knob
                        + "' (known: d2h, h2d, d2d, host-copy, memset, pageable-factor, copy-latency, launch-latency,"
                        + " default-kernel, ctx, ctx-pool, cpu-state)");
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("machine knob " + knob + ": bad value '" + value + "'", e);
        }
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
                contextPoolNs, cpuStateBytes);
    }
}
