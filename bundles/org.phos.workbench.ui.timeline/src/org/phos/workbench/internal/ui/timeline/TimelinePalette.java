package org.phos.workbench.internal.ui.timeline;

import org.eclipse.jface.resource.ColorRegistry;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.RGB;
import org.phos.workbench.ui.timeline.TimelineUi;

/**
 * The timeline's colours, all read from the theme registry (definitions in plugin.xml, org.eclipse.ui.themes, with
 * overrides in the dark theme): one per category of what is drawn ({@link SliceCategory} for a trace, the C/R
 * categories for a simulated run), background, text, grid lines, lane background and
 * selection. Each category also comes in {@link LaneSlices#LEVELS} density shades blended towards the lane background
 * (sparse busy columns pale, dense ones full), computed once here, not per repaint. Colors need no disposal (SWT
 * 3.120+ colours hold no OS handle).
 */
public final class TimelinePalette {
    private final Color background;
    private final Color foreground;
    private final Color grid;
    private final Color laneBackground;
    private final Color selection;
    private final Color[] category;
    private final Color[][] shade;

    /**
     * The trace timeline's colours: one per {@link SliceCategory}.
     *
     * @param registry the current theme's colours
     * @throws IllegalStateException naming a colour definition the registry lacks
     */
    public TimelinePalette(ColorRegistry registry) {
        this(registry, java.util.Arrays.stream(SliceCategory.values()).map(SliceCategory::colorKey).toList());
    }

    /**
     * Colours for the categories named by {@code categoryKeys} (a {@link TimelineContent}'s
     * {@link TimelineContent#categoryColorKeys()}), indexed as they are.
     *
     * @param registry the current theme's colours
     * @throws IllegalStateException naming a colour definition the registry lacks
     */
    public TimelinePalette(ColorRegistry registry, java.util.List<String> categoryKeys) {
        background = color(registry, "background");
        foreground = color(registry, "foreground");
        selection = color(registry, "selection");
        grid = color(registry, "grid");
        laneBackground = color(registry, "laneBackground");
        int n = categoryKeys.size();
        category = new Color[n];
        shade = new Color[n][LaneSlices.LEVELS];
        for (int c = 0; c < n; c++) {
            Color base = color(registry, categoryKeys.get(c));
            category[c] = base;
            for (int l = 0; l < LaneSlices.LEVELS; l++) {
                double f = 0.45 + 0.55 * l / (LaneSlices.LEVELS - 1);
                shade[c][l] = new Color(blend(base.getRGB(), laneBackground.getRGB(), f));
            }
        }
    }

    private static Color color(ColorRegistry r, String key) {
        RGB rgb = r.getRGB(TimelineUi.COLOR_PREFIX + key);
        if (rgb == null) {
            throw new IllegalStateException("no colour " + TimelineUi.COLOR_PREFIX + key + " in the theme registry");
        }
        return new Color(rgb);
    }

    /** {@code f} of {@code a} over {@code 1-f} of {@code b}. */
    static RGB blend(RGB a, RGB b, double f) {
        return new RGB((int) Math.round(a.red * f + b.red * (1 - f)), (int) Math.round(a.green * f + b.green * (1 - f)),
                (int) Math.round(a.blue * f + b.blue * (1 - f)));
    }

    public Color background() {
        return background;
    }

    public Color foreground() {
        return foreground;
    }

    public Color grid() {
        return grid;
    }

    public Color laneBackground() {
        return laneBackground;
    }

    public Color selection() {
        return selection;
    }

    public Color category(int ordinal) {
        return category[ordinal];
    }

    public Color shade(int ordinal, int level) {
        return shade[ordinal][level];
    }
}
