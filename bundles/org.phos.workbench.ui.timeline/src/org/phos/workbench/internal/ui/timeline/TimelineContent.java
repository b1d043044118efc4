package org.phos.workbench.internal.ui.timeline;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;

/**
 * What a timeline canvas draws: lanes of items (each a {@link TimelineLane}, sorted by start with a prefix maximum of
 * ends), an optional overlay per lane painted over it (the C/R timeline's stalls on the host lane), vertical marks
 * (checkpoint requested, instant, image complete), and how to name and find an item. Items are small integers the
 * content gives meaning to: event indices of a recorded trace ({@link TimelineIndex}), intervals and stalls of a
 * simulated run ({@code CrTimelineContent}). The canvas, fetcher and painter know nothing else, so the trace timeline
 * and the C/R timeline share their navigation, level of detail and drawing.
 */
public interface TimelineContent {
    /** A vertical line at {@code timeNs} with its label, drawn in the colour of category {@code category}. */
    record Mark(long timeNs, String label, int category) {
    }

    /** The lanes, top to bottom. */
    List<TimelineLane> lanes();

    /** Earliest start (ns, on this content's clock). */
    long start();

    /** Latest end, {@code > start()}. */
    long end();

    /** Time shown as {@code +0} on the ruler. */
    default long origin() {
        return start();
    }

    /**
     * Colour keys (after {@code org.phos.workbench.ui.timeline.}) of the categories, indexed by the values of
     * {@link TimelineLane#categories()}.
     */
    List<String> categoryColorKeys();

    /** Items painted over lane {@code lane} (drawn after, and picked first), or null. */
    default @Nullable TimelineLane overlay(int lane) {
        return null;
    }

    /** Vertical marks, in time order. */
    default List<Mark> marks() {
        return List.of();
    }

    /** Short name drawn inside a wide slice of {@code item}. */
    String sliceName(int item);

    /** The lane (index in {@link #lanes()}) that holds {@code item}, or -1. */
    int laneIndexOf(int item);

    /** Start of {@code item} as drawn. */
    long itemStart(int item);

    /** End of {@code item} as drawn ({@code >= itemStart}). */
    long itemEnd(int item);
}
