package org.phos.workbench.internal.ui.experiment;

import java.util.List;
import java.util.Locale;

import org.phos.workbench.cr.core.MachineModel;

/**
 * What the New Experiment dialog offers, in {@code simulate}'s words (docs/simulation.md): each policy with the
 * parameters {@link org.phos.workbench.cr.core.CrPolicies} reads and their defaults, and the machine knobs with the
 * preset's values. The dialog shows the defaults as hints and writes only what the user changed, so an untouched
 * policy runs under its plain name, as on the command line.
 */
final class SimulateOptions {
    private SimulateOptions() {
    }

    /**
     * A policy parameter.
     *
     * @param key its key in {@code NAME:key=value}
     * @param defaultValue what the policy uses when the key is not given
     * @param choices the values it takes, or empty for free text (a size, a duration)
     * @param help one line for the tooltip
     */
    record Param(String key, String defaultValue, List<String> choices, String help) {
    }

    /**
     * A policy the dialog offers.
     *
     * @param name its name in a spec
     * @param summary what it does, in a few words
     * @param params its parameters besides {@code at} (the dialog's checkpoint/restore point)
     */
    record Policy(String name, String summary, List<Param> params) {
        Param param(String key) {
            return params.stream().filter(p -> p.key().equals(key)).findFirst().orElseThrow();
        }
    }

    private static final List<String> ORDERS = List.of("pointer", "largest-first", "smallest-first", "first-use");
    private static final List<String> STAGING = List.of("pageable", "pinned");
    private static final List<String> BOOL = List.of("true", "false");

    private static List<Param> soft(String chunk) {
        return List.of(new Param("order", "pointer", ORDERS, "the order the background copier takes buffers in"),
                new Param("chunk", chunk, List.of(), "copy unit in bytes (0 = whole buffers), e.g. 4MiB"),
                new Param("budget", "14GiB", List.of(), "spare device memory for copy-on-write copies, e.g. 1GiB"),
                new Param("staging", "pageable", STAGING, "host memory the image is copied into (PhOS: pageable)"),
                new Param("cow", "true", BOOL, "copy a buffer on the device before a kernel writes it"));
    }

    private static List<Param> with(List<Param> base, Param extra) {
        java.util.ArrayList<Param> all = new java.util.ArrayList<>(base);
        all.add(extra);
        return List.copyOf(all);
    }

    /** The policies, in the order the dialog lists them (the order of docs/simulation.md). */
    static final List<Policy> POLICIES = List.of(
            new Policy("none", "no C/R: the baseline", List.of()),
            new Policy("stop-the-world", "stop, copy all device memory D2H, resume",
                    List.of(new Param("staging", "pinned", STAGING, "host memory the image is copied into"))),
            new Policy("stop-the-world-restore", "restore everything before the first call",
                    List.of(new Param("pool", "false", BOOL, "take the context from a pool (else create it)"),
                            new Param("staging", "pinned", STAGING, "host memory the image is copied from"))),
            new Policy("soft-cow", "PhOS's soft copy-on-write checkpoint", soft("0")),
            new Policy("coordinated", "soft-cow, copier yields to app copies", soft("4MiB")),
            new Policy("soft-recopy", "soft-cow, then recopy the dirty set",
                    with(soft("0"), new Param("threshold", "2GiB", List.of(),
                            "dirty bytes past which a log is shipped and recomputed instead"))),
            new Policy("on-demand-restore", "PhOS's soft restore, buffers on demand",
                    List.of(new Param("prefetch", "false", BOOL, "copy buffers back in the background too"),
                            new Param("order", "pointer", ORDERS, "the order the prefetcher takes buffers in"),
                            new Param("pool", "true", BOOL, "take the context from a pool (else create it)"),
                            new Param("staging", "pageable", STAGING, "host memory the image is copied from"))),
            new Policy("repeated", "soft-cow every interval from the point",
                    with(soft("0"), new Param("interval", "1s", List.of(), "time between checkpoints, e.g. 200ms"))));

    static Policy policy(String name) {
        return POLICIES.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    /** The machine presets ({@code --machine}). */
    static final List<String> PRESETS = List.of("h100", "a800-pcie4");

    /** The machine knobs, in {@code MachineModel.with}'s order. */
    static final List<String> KNOBS = List.of("d2h", "h2d", "d2d", "host-copy", "memset", "pageable-factor",
            "copy-latency", "launch-latency", "default-kernel", "ctx", "ctx-pool", "cpu-state",
            "copier-rate", "cow-latency"); // ui-polish: the soft checkpoint's copier and copy-on-write knobs

    /** What a knob is, for its tooltip. */
    static String knobHelp(String knob) {
        return switch (knob) {
            case "d2h" -> "device-to-host copy bandwidth, pinned host memory (GB/s)";
            case "h2d" -> "host-to-device copy bandwidth, pinned host memory (GB/s)";
            case "d2d" -> "device-to-device copy bandwidth, one way (GB/s)";
            case "host-copy" -> "host memcpy bandwidth (GB/s)";
            case "memset" -> "on-device memset rate for sets without a recorded duration (GB/s)";
            case "pageable-factor" -> "fraction of the pinned bandwidth reached with pageable memory (assumed)";
            case "copy-latency" -> "fixed cost per copy";
            case "launch-latency" -> "time from the host issuing work to the GPU starting it";
            case "default-kernel" -> "duration of a kernel the trace has no duration for";
            case "ctx" -> "CUDA context creation on restore without a pool";
            case "ctx-pool" -> "taking a context from a pool";
            case "cpu-state" -> "host process state dumped first at a checkpoint (bytes)";
            case "copier-rate" -> "rate of the soft checkpoint's background copier (GB/s; 0: the D2H engine's rate, at "
                    + "most the engine's)";
            case "cow-latency" -> "fixed cost of a copy-on-write copy queued on the application's stream (-1: each "
                    + "copy pays copy-latency, none overlapped)";
            default -> knob;
        };
    }

    /** A knob's value on {@code machine}, written the way {@code --machine} reads it back. */
    static String knobValue(MachineModel m, String knob) {
        return switch (knob) {
            case "d2h" -> rate(m.d2hBytesPerSec());
            case "h2d" -> rate(m.h2dBytesPerSec());
            case "d2d" -> rate(m.d2dBytesPerSec());
            case "host-copy" -> rate(m.hostCopyBytesPerSec());
            case "memset" -> rate(m.memsetBytesPerSec());
            case "pageable-factor" -> trim(String.format(Locale.ROOT, "%.3f", m.pageableFactor()));
            case "copy-latency" -> duration(m.copyLatencyNs());
            case "launch-latency" -> duration(m.launchLatencyNs());
            case "default-kernel" -> duration(m.defaultKernelNs());
            case "ctx" -> duration(m.contextCreationNs());
            case "ctx-pool" -> duration(m.contextPoolNs());
            case "cpu-state" -> m.cpuStateBytes() + "B";
            case "copier-rate" -> m.copierCommitBytesPerSec() == 0 ? "0" : rate(m.copierCommitBytesPerSec());
            case "cow-latency" -> m.cowLatencyNs() < 0 ? "-1" : duration(m.cowLatencyNs());
            default -> throw new IllegalArgumentException(knob);
        };
    }

    private static String rate(double bytesPerSec) {
        return trim(String.format(Locale.ROOT, "%.2f", bytesPerSec / 1e9)) + "GB/s";
    }

    private static String duration(long ns) {
        if (ns == 0) {
            return "0ns";
        }
        if (ns % 1_000_000_000L == 0) {
            return ns / 1_000_000_000L + "s";
        }
        if (ns % 1_000_000L == 0) {
            return ns / 1_000_000L + "ms";
        }
        if (ns % 1_000L == 0) {
            return ns / 1_000L + "us";
        }
        return ns + "ns";
    }

    private static String trim(String decimal) {
        return decimal.contains(".") ? decimal.replaceAll("0+$", "").replaceAll("\\.$", "") : decimal;
    }

    /** The fixed read/write set sources ({@code --sets}); engines come from the speculation catalog. */
    static final List<String> SET_WORDS = List.of("auto", "observed", "placeholder");
}
