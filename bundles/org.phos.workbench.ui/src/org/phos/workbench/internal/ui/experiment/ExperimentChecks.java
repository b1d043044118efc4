package org.phos.workbench.internal.ui.experiment;

import java.util.LinkedHashMap;
import java.util.Map;

import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CrPolicies;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.speculation.core.EngineRegistry;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * Checks the New Experiment form field by field with the parsers {@code simulate} uses ({@link CrPolicies},
 * {@link CheckpointInstant}, {@link MachineModel}, the engine catalog), so the dialog refuses exactly what the
 * command line refuses, with the parser's reason next to the field it concerns.
 */
final class ExperimentChecks {
    private ExperimentChecks() {
    }

    static Map<String, String> check(ExperimentForm f) {
        Map<String, String> out = new LinkedHashMap<>();
        LoadedTrace trace = f.trace;
        String name = f.name.trim();
        if (name.isEmpty()) {
            out.put(ExperimentForm.NAME, "give the experiment a name (its folder beside the trace)");
        } else if (!name.matches("[A-Za-z0-9._+@=-][A-Za-z0-9 ._+@=-]*") || name.equals(".") || name.equals("..")) {
            out.put(ExperimentForm.NAME, "letters, digits, spaces and . _ + - @ = only (it names a folder)");
        }
        if (!f.at.isBlank()) {
            try {
                CheckpointInstant at = CheckpointInstant.parse(f.at);
                if (trace != null && at.byLaunchIndex() && at.value() >= trace.trace().launchCount()) {
                    long n = trace.trace().launchCount();
                    out.put(ExperimentForm.AT, "the trace has " + n + " launches (launch:0 to launch:" + (n - 1)
                            + "), so " + at + " is never reached");
                }
            } catch (IllegalArgumentException e) {
                out.put(ExperimentForm.AT, e.getMessage());
            }
        }
        if (f.policies.isEmpty()) {
            out.put(ExperimentForm.POLICIES, "choose at least one policy");
        }
        for (Map.Entry<String, Map<String, String>> p : f.params.entrySet()) {
            for (Map.Entry<String, String> kv : p.getValue().entrySet()) {
                try {
                    CrPolicies.parse(p.getKey() + ":" + kv.getKey() + "=" + kv.getValue());
                } catch (IllegalArgumentException e) {
                    out.put(ExperimentForm.paramKey(p.getKey(), kv.getKey()), reason(e.getMessage()));
                }
            }
        }
        MachineModel machine = null;
        try {
            machine = MachineModel.preset(f.preset);
        } catch (IllegalArgumentException e) {
            out.put(ExperimentForm.MACHINE, e.getMessage());
        }
        if (machine != null) {
            for (Map.Entry<String, String> k : f.knobs.entrySet()) {
                try {
                    machine.with(k.getKey(), k.getValue());
                } catch (IllegalArgumentException e) {
                    out.put(ExperimentForm.knobKey(k.getKey()), e.getMessage());
                }
            }
        }
        for (String s : f.sets) {
            if (s.equals("observed") && trace != null && trace.trace().observedAccesses().isEmpty()) {
                out.put(ExperimentForm.SETS, "observed: " + trace.name() + " holds no observed accesses (record it "
                        + "with PTX instrumentation or the sanitizer tool), choose placeholder or an engine");
            } else if (s.startsWith("engine:") && !EngineRegistry.canCreate(s.substring(7))) {
                out.put(ExperimentForm.SETS, "unknown engine '" + s.substring(7) + "'");
            }
        }
        try {
            int w = Integer.parseInt(f.width.trim());
            if (w < 400 || w > 10_000) {
                out.put(ExperimentForm.WIDTH, "between 400 and 10000 pixels");
            }
        } catch (NumberFormatException e) {
            out.put(ExperimentForm.WIDTH, "a whole number of pixels, was '" + f.width + "'");
        }
        if (trace == null) {
            out.put("trace", "open a trace first (File > Open Trace...)");
        }
        return out;
    }

    /** The parser's reason without the spec it repeats ({@code policy 'soft-cow:budget=x': }). */
    private static String reason(String message) {
        int cut = message.indexOf("': ");
        return cut > 0 && message.startsWith("policy '") ? message.substring(cut + 3) : message;
    }
}
