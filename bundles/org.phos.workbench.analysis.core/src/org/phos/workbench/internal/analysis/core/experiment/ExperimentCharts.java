package org.phos.workbench.internal.analysis.core.experiment;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.jfree.chart.JFreeChart;
import org.phos.workbench.analysis.core.experiment.ExperimentException;
import org.phos.workbench.cr.charts.ChartFiles;
import org.phos.workbench.cr.charts.ChartPalette;
import org.phos.workbench.cr.charts.ComparisonChartBuilder;
import org.phos.workbench.cr.charts.DirtyBytesChartBuilder;
import org.phos.workbench.cr.charts.TimelineChartBuilder;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.SimulationMetrics;
import org.phos.workbench.cr.core.TimelineModel;

/**
 * The charts {@code simulate} writes beside its files: per run a timeline (and a zoom onto the C/R activity when it
 * is a sliver of the run), then the dirty bytes of all runs and the comparison, each as PNG and SVG.
 */
public final class ExperimentCharts {
	private ExperimentCharts() {
	}

	public static void write(ResultFolder folder, String traceName, MachineModel machine, List<RunOutputs.Run> runs,
			Map<String, SimulationMetrics> metrics, int width, IProgressMonitor monitor) throws ExperimentException {
		ChartPalette palette = ChartPalette.LIGHT;
		monitor.beginTask("charts", 2 * runs.size() + 2);
		try {
			for (RunOutputs.Run r : runs) {
				step(monitor);
				TimelineChartBuilder timeline = new TimelineChartBuilder(palette).widthPx(width)
						.title(traceName + ": " + r.name() + " on " + machine.name());
				JFreeChart chart = timeline.build(r.timeline());
				int height = TimelineChartBuilder.suggestedHeight(r.timeline());
				writeBoth(chart, folder, "timeline" + r.suffix(), width, height);
				long[] window = TimelineChartBuilder.crWindow(r.timeline());
				if (window != null && window[1] - window[0] < r.metrics().endNs() / 2) {
					// the C/R activity is a sliver of the run: a second chart zoomed onto it
					JFreeChart zoom = timeline.window(window[0], window[1])
							.title(traceName + ": " + r.name() + " on " + machine.name() + ", around the C/R activity")
							.build(r.timeline());
					step(monitor);
					writeBoth(zoom, folder, "timeline-zoom" + r.suffix(), width, height);
				}
			}
			step(monitor);
			DirtyBytesChartBuilder dirty = new DirtyBytesChartBuilder(palette).widthPx(width)
					.title(traceName + ": dirty bytes after the checkpoint instant (" + machine.name() + ")");
			Map<String, TimelineModel> models = new LinkedHashMap<>();
			runs.forEach(r -> models.put(r.name(), r.timeline()));
			writeBoth(dirty.build(models), folder, "dirty", width, Math.max(400, width * 9 / 32));
			step(monitor);
			ComparisonChartBuilder comparison = new ComparisonChartBuilder(palette)
					.title(traceName + ": C/R policies on " + machine.name());
			writeBoth(comparison.build(metrics), folder, "comparison", Math.max(width * 3 / 4, 600),
					comparison.suggestedHeight());
			monitor.done();
		} catch (IOException e) {
			throw ExperimentException.failure("cannot write the charts into " + folder.dir() + ": "
					+ IoText.describe(e), e);
		}
	}

	/** One chart done (or about to start): progress, and a chance to cancel. */
	private static void step(IProgressMonitor monitor) {
		if (monitor.isCanceled()) {
			throw new OperationCanceledException();
		}
		monitor.worked(1);
	}

	/** {@code base.png} and {@code base.svg}, renamed into place with the other results. */
	private static void writeBoth(JFreeChart chart, ResultFolder folder, String base, int width, int height)
			throws IOException {
		ChartFiles.writePng(chart, folder.create(base + ".png").stream(), width, height);
		ChartFiles.writeSvg(chart, folder.create(base + ".svg").stream(), width, height);
	}
}
