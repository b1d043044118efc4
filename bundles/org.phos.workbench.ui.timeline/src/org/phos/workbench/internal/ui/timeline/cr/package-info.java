/**
 * The C/R timeline: a simulated run's lanes (host, streams, copy engines, CoW, commit, restore) as a
 * {@link org.phos.workbench.internal.ui.timeline.TimelineContent} ({@link org.phos.workbench.internal.ui.timeline.cr.CrTimelineContent}),
 * drawn by the trace timeline's canvas, fetcher and painter; the C/R Timeline view
 * ({@link org.phos.workbench.internal.ui.timeline.cr.CrTimelineView}, with its axis lock to the Trace Timeline), the C/R
 * Compare view ({@link org.phos.workbench.internal.ui.timeline.cr.CrCompareView}), and the exports of what they show
 * ({@link org.phos.workbench.internal.ui.timeline.cr.CrTimelineExport}).
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.timeline.cr;
