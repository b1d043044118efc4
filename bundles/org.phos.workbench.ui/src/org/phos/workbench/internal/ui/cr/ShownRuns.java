package org.phos.workbench.internal.ui.cr;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.analysis.core.experiment.ExperimentResult;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.ui.model.ExperimentComparison;
import org.phos.workbench.ui.model.ExperimentSelection;
import org.phos.workbench.ui.model.LoadedTrace;

/**
 * The runs a C/R view shows: those of one experiment, named as {@code simulate} names them (so tables and files equal
 * the command's), or those of two compared experiments, each labelled {@code experiment/trace: run}.
 *
 * @param source the selection they come from ({@link ExperimentSelection} or {@link ExperimentComparison})
 * @param title a line saying what is shown
 * @param stem a file-name stem for exports ({@code cupy-ops-exp1})
 * @param runs the runs in order, labels unique
 */
public record ShownRuns(Object source, String title, String stem, List<ShownRuns.Run> runs) {

    /**
     * One run as shown.
     *
     * @param label its name in the tables and charts
     * @param trace the trace it ran on
     * @param experiment its experiment
     * @param run the run
     */
    public record Run(String label, LoadedTrace trace, ExperimentResult experiment, CrRun run) {
    }

    public ShownRuns {
        runs = List.copyOf(runs);
    }

    /** The runs of {@code selected} when it is an experiment or a comparison of two, else null. */
    public static @Nullable ShownRuns of(@Nullable Object selected) {
        if (selected instanceof ExperimentSelection s) {
            List<Run> runs = new ArrayList<>();
            for (CrRun r : s.result().runs()) {
                runs.add(new Run(unique(runs, r.name()), s.trace(), s.result(), r));
            }
            ExperimentResult e = s.result();
            String title = String.format(Locale.ROOT, "%s on %s: %d run%s (machine %s, sets %s)", e.name(),
                    s.trace().name(), runs.size(), runs.size() == 1 ? "" : "s", e.config().machine(),
                    e.config().sets());
            return new ShownRuns(s, title, stem(s), runs);
        }
        if (selected instanceof ExperimentComparison c) {
            List<Run> runs = new ArrayList<>();
            for (ExperimentSelection s : List.of(c.left(), c.right())) {
                for (CrRun r : s.result().runs()) {
                    runs.add(new Run(unique(runs, s.result().name() + "/" + s.trace().name() + ": " + r.name()),
                            s.trace(), s.result(), r));
                }
            }
            String title = String.format(Locale.ROOT, "%s on %s (%d) compared with %s on %s (%d)",
                    c.left().result().name(), c.left().trace().name(), c.left().result().runs().size(),
                    c.right().result().name(), c.right().trace().name(), c.right().result().runs().size());
            return new ShownRuns(c, title, stem(c.left()) + "-vs-" + stem(c.right()), runs);
        }
        return null;
    }

    private static String unique(List<Run> runs, String label) {
        String l = label;
        for (int n = 2; contains(runs, l); n++) {
            l = label + " #" + n;
        }
        return l;
    }

    private static boolean contains(List<Run> runs, String label) {
        return runs.stream().anyMatch(r -> r.label().equals(label));
    }

    private static String stem(ExperimentSelection s) {
        String trace = s.trace().name().replaceFirst("\\.phos$", "");
        String slug = (trace + "-" + s.result().name()).replaceAll("[^A-Za-z0-9._-]+", "-");
        return slug.replaceAll("^-+|-+$", "");
    }

    /** The runs' metrics by label, in order. */
    public Map<String, SimulationMetrics> metrics() {
        Map<String, SimulationMetrics> m = new LinkedHashMap<>();
        runs.forEach(r -> m.put(r.label(), r.run().metrics()));
        return m;
    }

    /** The runs' timelines by label, in order. */
    public Map<String, TimelineModel> timelines() {
        Map<String, TimelineModel> m = new LinkedHashMap<>();
        runs.forEach(r -> m.put(r.label(), r.run().timeline()));
        return m;
    }

    /** The trace of the first run (an export never overwrites it). */
    public Path traceFile() {
        return runs.get(0).trace().file();
    }

    /** The machines of the runs, once each ({@code h100} or {@code h100, a800-pcie4}). */
    public String machines() {
        return String.join(", ", runs.stream().map(r -> r.run().metrics().machine()).distinct().toList());
    }
}
