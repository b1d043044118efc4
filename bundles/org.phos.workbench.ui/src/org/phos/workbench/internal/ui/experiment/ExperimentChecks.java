package org.phos.workbench.internal.ui.experiment;

import java.util.LinkedHashMap;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.analysis.core.experiment.ExperimentPlan;
import org.phos.workbench.analysis.core.experiment.ExperimentProblem;
import org.phos.workbench.analysis.core.experiment.ExperimentStore;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * Checks the New Experiment form field by field with the core's per-option validation ({@link ExperimentPlan},
 * {@link ExperimentStore#checkNewName}), so the dialog refuses exactly what {@code simulate} refuses, with its
 * reason next to the field it concerns: a policy parameter is checked alone ({@code soft-cow:budget=...}), a machine
 * knob alone on the preset, then the whole configuration against the trace (a launch past its last one, observed
 * sets on a trace without observed accesses, an unknown engine).
 */
final class ExperimentChecks {
    private ExperimentChecks() {
    }

    static Map<String, String> check(ExperimentForm f) {
        Map<String, String> out = new LinkedHashMap<>();
        LoadedTrace trace = f.trace;
        if (trace == null) {
            out.put("trace", "open a trace first (File > Open Trace...)");
        } else {
            put(out, ExperimentForm.NAME, ExperimentStore.of(trace.file()).checkNewName(f.name.trim()));
        }
        String at = f.at.isBlank() ? null : f.at.trim();
        put(out, ExperimentForm.AT, ExperimentPlan.checkAt(at));
        if (f.policies.isEmpty()) {
            out.put(ExperimentForm.POLICIES, "choose at least one policy");
        }
        for (Map.Entry<String, Map<String, String>> p : f.params.entrySet()) {
            for (Map.Entry<String, String> kv : p.getValue().entrySet()) {
                ExperimentProblem problem = ExperimentPlan.checkPolicies(p.getKey() + ":" + kv.getKey() + "="
                        + kv.getValue(), null);
                if (problem != null) {
                    out.put(ExperimentForm.paramKey(p.getKey(), kv.getKey()), paramReason(problem.reason(),
                            SimulateOptions.policy(p.getKey()).param(kv.getKey())));
                }
            }
        }
        for (Map.Entry<String, String> k : f.knobs.entrySet()) {
            put(out, ExperimentForm.knobKey(k.getKey()),
                    ExperimentPlan.checkMachine(f.preset + "," + k.getKey() + "=" + k.getValue()));
        }
        put(out, ExperimentForm.SETS, ExperimentPlan.checkSets(f.setsSpec()));
        int width;
        try {
            width = Integer.parseInt(f.width.trim());
            put(out, ExperimentForm.WIDTH, ExperimentPlan.checkWidth(width));
        } catch (NumberFormatException e) {
            out.put(ExperimentForm.WIDTH, "a whole number of pixels from " + ExperimentPlan.MIN_WIDTH_PX + " to "
                    + ExperimentPlan.MAX_WIDTH_PX + ", was '" + f.width + "'");
        }
        if (out.isEmpty() && trace != null) {
            // each option is valid alone: what only the whole configuration and the trace can refuse
            ExperimentConfig config = f.config();
            for (ExperimentProblem p : ExperimentPlan.check(config, trace.trace(), trace.name())) {
                out.putIfAbsent(fieldOf(p), p.reason());
            }
        }
        return out;
    }

    /**
     * The parser's reason for one parameter, without the spec it repeats ({@code policy 'soft-cow:budget=x': }), and
     * with the form the value takes.
     */
    static String paramReason(String reason, SimulateOptions.Param param) {
        String r = reason;
        int cut = r.indexOf("': ");
        if (r.startsWith("policy '") && cut > 0) {
            r = r.substring(cut + 3);
        }
        String form = param.defaultValue().equals("0") ? "a size such as 4MiB (0: whole buffers)"
                : param.defaultValue().matches("[0-9.]+[KMGT]?i?B") ? "a size such as " + param.defaultValue()
                : param.defaultValue().matches("[0-9.]+(ns|us|ms|s)") ? "a time such as " + param.defaultValue() : "";
        return form.isEmpty() ? r : r + "; expected " + form;
    }

    private static void put(Map<String, String> out, String field, @Nullable ExperimentProblem problem) {
        if (problem != null) {
            out.put(field, problem.reason());
        }
    }

    private static String fieldOf(ExperimentProblem p) {
        if (p.option() == null) {
            return "trace";
        }
        return switch (p.option()) {
            case POLICIES -> ExperimentForm.POLICIES;
            case AT -> ExperimentForm.AT;
            case MACHINE -> ExperimentForm.MACHINE;
            case SETS -> ExperimentForm.SETS;
            case WIDTH -> ExperimentForm.WIDTH;
            case NAME -> ExperimentForm.NAME;
        };
    }
}
