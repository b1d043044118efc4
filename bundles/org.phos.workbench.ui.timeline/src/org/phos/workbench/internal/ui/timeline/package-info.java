/**
 * The trace timeline, kept in small parts: {@link org.phos.workbench.internal.ui.timeline.TimelineIndex} (lanes and
 * per-lane sorted event indices, built once per trace), {@link org.phos.workbench.internal.ui.timeline.SliceFetcher}
 * (what to draw for a time window and a pixel width, with level of detail),
 * {@link org.phos.workbench.internal.ui.timeline.TimelineNavigator} (window, zoom and pan maths),
 * {@link org.phos.workbench.internal.ui.timeline.TimelinePainter} (drawing),
 * {@link org.phos.workbench.internal.ui.timeline.TimelineCanvas} (input) and
 * {@link org.phos.workbench.internal.ui.timeline.TraceTimelineView} (the part: selections in and out).
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.timeline;
