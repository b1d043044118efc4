package org.phos.workbench.internal.analysis.core.experiment;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.analysis.core.experiment.CrRun;
import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.cr.core.CrPolicy;
import org.phos.workbench.cr.core.CsvTimelineExporter;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.SimulationWorkload;
import org.phos.workbench.cr.core.Simulator;
import org.phos.workbench.cr.core.TimelineChromeExporter;
import org.phos.workbench.cr.core.TimelineModel;
import org.phos.workbench.cr.core.TimelineSink;
import org.phos.workbench.cr.core.io.OutputFile;

/**
 * Runs one policy and streams its timeline into {@code timeline[-RUN].json} (Chrome Trace Event JSON) and
 * {@code intervals[-RUN].csv} (through {@link ResultFolder}: under temporary names until the whole run succeeded)
 * while keeping a {@link TimelineModel} for the charts and the in-memory result. The model drops application
 * intervals for workloads beyond {@link #APPLICATION_INTERVALS_LIMIT} events (C/R lanes, stalls and markers stay):
 * the streamed files still carry every interval. Without a folder, only the model is kept.
 */
public final class RunOutputs {
	/** Above this many trace events the in-memory model (charts only) leaves out the application's intervals. */
	public static final long APPLICATION_INTERVALS_LIMIT = 2_000_000;

	private final @Nullable ResultFolder folder;
	private final Set<String> suffixes = new HashSet<>();

	/** @param folder where the per-run files go; null keeps the runs in memory only */
	public RunOutputs(@Nullable ResultFolder folder) {
		this.folder = folder;
	}

	/** A finished run: its metrics, its in-memory timeline, and the suffix of its file names. */
	public record Run(String name, SimulationMetrics metrics, TimelineModel timeline, String suffix) {
		public CrRun crRun() {
			return new CrRun(name, metrics, timeline);
		}
	}

	/** File-name suffix of a run: empty for a single run, {@code -soft-cow-at-launch-10} in a comparison. */
	public String suffix(String run, boolean comparison) {
		if (!comparison) {
			return "";
		}
		String slug = run.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]+", "-").replaceAll("^-+|-+$", "");
		String s = "-" + (slug.isEmpty() ? "run" : slug);
		String unique = s;
		for (int n = 2; !suffixes.add(unique); n++) {
			unique = s + "-" + n;
		}
		return unique;
	}

	public Run simulate(String run, String suffix, SimulationWorkload workload, MachineModel machine, CrPolicy policy,
			IProgressMonitor monitor) throws ExperimentException {
		TimelineModel model = new TimelineModel(workload.sizeHint() <= APPLICATION_INTERVALS_LIMIT);
		ResultFolder f = folder;
		if (f == null) {
			SimulationMetrics metrics = Simulator.run(workload, machine, policy, model, true, monitor);
			return new Run(run, metrics, model, suffix);
		}
		String json = "timeline" + suffix + ".json";
		String csv = "intervals" + suffix + ".csv";
		String current = json;
		try (Writer jsonOut = writer(f.create(json));
				Writer csvOut = writer(f.create(csv))) {
			TimelineChromeExporter chrome = new TimelineChromeExporter(jsonOut, true);
			CsvTimelineExporter intervals = new CsvTimelineExporter(csvOut, true);
			TimelineSink sink = TimelineSink.tee(model, TimelineSink.tee(chrome, intervals));
			SimulationMetrics metrics = Simulator.run(workload, machine, policy, sink, true, monitor);
			chrome.finish(metrics);
			current = csv;
			intervals.flush();
			return new Run(run, metrics, model, suffix);
		} catch (IOException e) {
			throw ExperimentException.failure("cannot write " + f.dir().resolve(current) + ": " + IoText.describe(e),
					e);
		} catch (UncheckedIOException e) {
			throw ExperimentException.failure("cannot write " + f.dir().resolve(current) + ": "
					+ IoText.describe(e.getCause()), e);
		}
	}

	/** A buffered UTF-8 writer into a result file (it is renamed into place when the whole run succeeded). */
	public static Writer writer(OutputFile file) {
		return new BufferedWriter(new OutputStreamWriter(file.stream(), StandardCharsets.UTF_8), 1 << 16);
	}
}
