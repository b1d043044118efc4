package org.phos.workbench.internal.ui.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.experiment.ExperimentConfig;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * What the New Experiment dialog holds, without widgets: the values the user typed or picked, turned into the
 * {@link ExperimentConfig} ({@code simulate}'s options) and checked option by option, so each refusal can stand next
 * to its field. Empty parameter and knob fields mean "the default" and are left out of the specs.
 */
final class ExperimentForm {
    /** Field key of the experiment's name. */
    static final String NAME = "name";
    /** Field key of the checkpoint/restore point ({@code --at}). */
    static final String AT = "at";
    /** Field key of the policy choice as a whole (none chosen). */
    static final String POLICIES = "policy";
    /** Field key of the machine preset and its knobs as a whole. */
    static final String MACHINE = "machine";
    /** Field key of the read/write set sources. */
    static final String SETS = "sets";
    /** Field key of the chart width. */
    static final String WIDTH = "width";

    /** Field key of one policy parameter. */
    static String paramKey(String policy, String key) {
        return "param:" + policy + ":" + key;
    }

    /** Field key of one machine knob. */
    static String knobKey(String knob) {
        return "knob:" + knob;
    }

    @Nullable
    LoadedTrace trace;
    String name = "";
    String at = "";
    final List<String> policies = new ArrayList<>();
    /** policy -> key -> value, only the fields the user filled. */
    final Map<String, Map<String, String>> params = new LinkedHashMap<>();
    String preset = SimulateOptions.PRESETS.get(0);
    /** knob -> value, only the fields the user filled. */
    final Map<String, String> knobs = new LinkedHashMap<>();
    final List<String> sets = new ArrayList<>();
    String width = Integer.toString(ExperimentConfig.DEFAULT_WIDTH_PX);
    // i13-live2: begin
    /** Key of the live choice's reason. */
    static final String LIVE = "live";
    /** The policies the live engine runs (docs/live-cr.md). */
    static final List<String> LIVE_POLICIES = List.of("stop-the-world", "soft-cow", "soft-recopy", "repeated",
            "on-demand-restore");
    /** Run live on the GPU (only offered when a CUDA device was found). */
    boolean live;
    // i13-live2: end

    void setParam(String policy, String key, String value) {
        Map<String, String> m = params.computeIfAbsent(policy, p -> new LinkedHashMap<>());
        if (value.isBlank()) {
            m.remove(key);
        } else {
            m.put(key, value.trim());
        }
    }

    void setKnob(String knob, String value) {
        if (value.isBlank()) {
            knobs.remove(knob);
        } else {
            knobs.put(knob, value.trim());
        }
    }

    /** One policy's spec: its name, then the parameters the user set. */
    String spec(String policy) {
        Map<String, String> m = params.getOrDefault(policy, Map.of());
        if (m.isEmpty()) {
            return policy;
        }
        List<String> kv = new ArrayList<>();
        // the catalog's order, so the same choices always make the same run name
        for (SimulateOptions.Param p : SimulateOptions.policy(policy).params()) {
            String v = m.get(p.key());
            if (v != null) {
                kv.add(p.key() + "=" + v);
            }
        }
        return policy + ":" + String.join(",", kv);
    }

    /** {@code --policy}: the chosen policies' specs separated by {@code ;}. */
    String policySpecs() {
        return String.join(";", policies.stream().map(this::spec).toList());
    }

    /** {@code --machine}: the preset and the knobs the user changed. */
    String machineSpec() {
        StringBuilder s = new StringBuilder(preset);
        for (String knob : SimulateOptions.KNOBS) {
            String v = knobs.get(knob);
            if (v != null) {
                s.append(',').append(knob).append('=').append(v);
            }
        }
        return s.toString();
    }

    /** {@code --sets}: the chosen sources, or {@code auto}. */
    String setsSpec() {
        return sets.isEmpty() ? ExperimentConfig.DEFAULT_SETS : String.join(",", sets);
    }

    /** The configuration; call when {@link #problems()} is empty (the width must be a number). */
    ExperimentConfig config() {
        return new ExperimentConfig(policySpecs(), at.isBlank() ? null : at.trim(), machineSpec(), setsSpec(),
                Integer.parseInt(width.trim()));
    }

    /** The name a researcher would give: the policies and the point, as a folder name. */
    String suggestedName() {
        String base = policies.isEmpty() ? "experiment" : String.join("+", policies);
        String point = at.isBlank() ? "" : "-at-" + at.trim();
        return (base + point).replaceAll("[^A-Za-z0-9._+-]+", "-");
    }

    /** The command line that runs the same configuration ({@code simulate ... --out DIR}). */
    List<String> commandLine(String out) {
        List<String> argv = new ArrayList<>();
        LoadedTrace t = trace;
        if (live) { // i13-live2: the live run is an experiment of its own, saved as the dialog saves it
            argv.add("experiment");
            argv.add("new");
            argv.add(t == null ? "TRACE" : t.file().toString());
            argv.add(name.trim());
        } else {
            argv.add("simulate");
            argv.add(t == null ? "TRACE" : t.file().toString());
        }
        argv.add("--policy");
        argv.add(policySpecs());
        if (!at.isBlank()) {
            argv.add("--at");
            argv.add(at.trim());
        }
        argv.add("--machine");
        argv.add(machineSpec());
        argv.add("--sets");
        argv.add(setsSpec());
        argv.add("--width");
        argv.add(width.trim());
        if (live) {
            argv.add("--live");
            return argv;
        }
        argv.add("--out");
        argv.add(out);
        return argv;
    }

    /** The command line as a person would type it in a shell (arguments quoted where needed). */
    static String shellLine(List<String> argv) {
        StringBuilder s = new StringBuilder("workbench");
        for (String a : argv) {
            s.append(' ');
            s.append(a.matches("[A-Za-z0-9_./:=,+@%-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return s.toString();
    }

    /** Why each field is refused, by field key (empty: the experiment can run). */
    Map<String, String> problems() {
        Map<String, String> problems = ExperimentChecks.check(this);
        if (live) { // i13-live2: what the live engine cannot run
            List<String> not = policies.stream().filter(p -> !LIVE_POLICIES.contains(p)
                    || "false".equals(params.getOrDefault(p, Map.of()).get("cow"))).toList();
            if (!not.isEmpty()) {
                problems.put(LIVE, "the live engine runs " + String.join(", ", LIVE_POLICIES)
                        + " (soft-cow with copy-on-write), not " + String.join(", ", not));
            } else if (sets.size() > 1) {
                problems.put(LIVE, "a live run takes one read/write set source, " + sets.size() + " are chosen");
            }
        }
        return problems;
    }
}
