package org.phos.workbench.cr.core;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Policies by name with {@code key=value} parameters, for command lines and comparison runs:
 * {@code NAME[:key=value,...]}. Names: {@code none}, {@code stop-the-world}, {@code stop-the-world-restore},
 * {@code soft-cow}, {@code coordinated}, {@code soft-recopy}, {@code on-demand-restore}, {@code repeated}. Keys
 * (where they apply): {@code at} (launch:N, N or a time; default launch:0), {@code order} (pointer, largest-first,
 * smallest-first, first-use), {@code chunk} (bytes, 0 = whole buffers), {@code budget} (bytes, default 14GiB; {@code auto}: the
 * device memory the instant leaves free less 2 GiB),
 * {@code staging} (pinned, pageable; default pageable for soft policies as in PhOS, pinned for stop-the-world),
 * {@code cow} (true/false), {@code threshold} (recopy, default 2GiB), {@code interval} (repeated), {@code prefetch}
 * (true/false), {@code pool} (context pool, true/false).
 */
public final class CrPolicies {
    public static final Set<String> NAMES = Set.of("none", "stop-the-world", "stop-the-world-restore", "soft-cow",
            "coordinated", "soft-recopy", "on-demand-restore", "repeated");

    private CrPolicies() {
    }

    public static CrPolicy parse(String spec) {
        String s = spec.trim();
        int colon = s.indexOf(':');
        String name = (colon < 0 ? s : s.substring(0, colon)).toLowerCase(Locale.ROOT);
        Map<String, String> kv = new LinkedHashMap<>();
        if (colon >= 0 && colon + 1 < s.length()) {
            for (String part : splitTopLevel(s.substring(colon + 1))) {
                int eq = part.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("policy '" + spec + "': expected key=value, got '" + part + "'");
                }
                kv.put(part.substring(0, eq).trim().toLowerCase(Locale.ROOT), part.substring(eq + 1).trim());
            }
        }
        try {
            CrPolicy p = build(name, kv, spec);
            if (!kv.isEmpty()) {
                throw new IllegalArgumentException("policy '" + spec + "': unknown parameter(s) " + kv.keySet()
                        + " for " + name);
            }
            return p;
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("policy '")) {
                throw e;
            }
            throw new IllegalArgumentException("policy '" + spec + "': " + e.getMessage(), e);
        }
    }

    /** Splits on commas; "launch:5" values contain colons but no commas, so a plain split is enough. */
    private static String[] splitTopLevel(String s) {
        return s.split(",");
    }

    private static CrPolicy build(String name, Map<String, String> kv, String spec) {
        CheckpointInstant at = CheckpointInstant.parse(take(kv, "at", "launch:0"));
        boolean soft = !name.startsWith("stop-the-world");
        Staging staging = Staging.valueOf(take(kv, "staging", soft ? "pageable" : "pinned").toUpperCase(Locale.ROOT));
        return switch (name) {
            case "none" -> new NoCheckpointPolicy();
            case "stop-the-world" -> new StopTheWorldCheckpointPolicy(at, staging);
            case "stop-the-world-restore" -> new StopTheWorldRestorePolicy(at, bool(take(kv, "pool", "false")),
                    staging);
            case "soft-cow" -> new SoftCopyOnWritePolicy(soft(kv, at, staging, 0));
            case "coordinated" -> new CoordinatedTransferPolicy(
                    soft(kv, at, staging, SoftCheckpointOptions.COORDINATED_CHUNK));
            case "soft-recopy" -> {
                long threshold = Units.parseBytes(take(kv, "threshold", "2GiB"));
                yield new SoftRecopyPolicy(soft(kv, at, staging, 0), threshold);
            }
            case "repeated" -> {
                long interval = Units.parseDurationNs(take(kv, "interval", "1s"));
                yield new RepeatedCheckpointPolicy(soft(kv, at, staging, 0), interval);
            }
            case "on-demand-restore" -> new SoftOnDemandRestorePolicy(at, bool(take(kv, "prefetch", "false")),
                    order(take(kv, "order", "pointer")), bool(take(kv, "pool", "true")), staging);
            default -> throw new IllegalArgumentException(
                    "policy '" + spec + "': unknown policy '" + name + "' (known: " + String.join(", ",
                            NAMES.stream().sorted().toList()) + ")");
        };
    }

    private static SoftCheckpointOptions soft(Map<String, String> kv, CheckpointInstant at, Staging staging,
            long defaultChunk) {
        return new SoftCheckpointOptions(at, order(take(kv, "order", "pointer")),
                Units.parseBytes(take(kv, "chunk", Long.toString(defaultChunk))),
                budget(take(kv, "budget", "14GiB")), staging, bool(take(kv, "cow", "true")));
    }

    // i13-cow: begin
    /** A copy-on-write budget: bytes, or {@code auto} ({@link SoftCheckpointOptions#AUTO_BUDGET}). */
    public static long budget(String v) {
        return "auto".equalsIgnoreCase(v.trim()) ? SoftCheckpointOptions.AUTO_BUDGET : Units.parseBytes(v);
    }
    // i13-cow: end


    private static CopierOrder order(String v) {
        try {
            return CopierOrder.valueOf(v.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("copier order '" + v
                    + "' (known: pointer, largest-first, smallest-first, first-use)", e);
        }
    }

    private static boolean bool(String v) {
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "on", "yes", "1" -> true;
            case "false", "off", "no", "0" -> false;
            default -> throw new IllegalArgumentException("expected true or false, got '" + v + "'");
        };
    }

    private static String take(Map<String, String> kv, String key, String dflt) {
        String v = kv.remove(key);
        return v == null ? dflt : v;
    }
}
