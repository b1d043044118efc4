package org.phos.workbench.ui.timeline.tests;

import java.nio.file.Path;

import org.eclipse.core.runtime.NullProgressMonitor;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.phos.workbench.internal.ui.timeline.TraceTimelineView;
import org.phos.workbench.trace.core.TraceLoadResult;
import org.phos.workbench.trace.core.TraceReader;
import org.phos.workbench.ui.model.LoadedTrace;
import org.phos.workbench.ui.tests.UiRobot;
import org.phos.workbench.ui.timeline.TimelineUi;

/** Opens the timeline view and shows a trace in it, waiting until it is indexed and drawn. */
final class TimelineFixture {
    private TimelineFixture() {
    }

    static Path sample(String name) {
        return Path.of(System.getProperty("phos.repo", ".")).resolve("sample-traces").resolve(name);
    }

    static LoadedTrace load(Path file) throws Exception {
        TraceLoadResult r = TraceReader.read(file, new NullProgressMonitor());
        return new LoadedTrace(file, r.trace(), r.warnings(), r.anomalies());
    }

    static TraceTimelineView open(UiRobot robot, LoadedTrace trace) throws Exception {
        IWorkbenchPage page = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
        TraceTimelineView view = (TraceTimelineView) page.showView(TimelineUi.VIEW_ID);
        view.show(trace);
        robot.waitUntil("the timeline indexed " + trace.name(), view::isReady, java.time.Duration.ofSeconds(120));
        robot.spin(200);
        return view;
    }
}
