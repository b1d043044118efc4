package org.phos.workbench.cr.charts;

import java.awt.Color;
import java.util.EnumMap;
import java.util.Map;

import org.phos.workbench.cr.core.StallCause;
import org.phos.workbench.cr.core.TimelineInterval;

/**
 * The colours of the C/R charts, in one place: work categories (application kernels and copies in cool tones, C/R
 * copies in warm tones), stall causes (reds and purples, so that waits stand out over work), checkpoint markers, and
 * a sequence for runs compared side by side. A dark theme supplies another instance; chart builders take the palette
 * they are given.
 */
public final class ChartPalette {
    /** The palette for light backgrounds (PNG/SVG files, the default workbench theme). */
    public static final ChartPalette LIGHT = new ChartPalette(Color.WHITE, new Color(0x33, 0x33, 0x33),
            new Color(0xDD, 0xDD, 0xDD));

    // Tableau 10: distinguishable, colour-blind tolerable; used for runs compared side by side
    private static final Color[] RUNS = { rgb(0x4E79A7), rgb(0xF28E2B), rgb(0x59A14F), rgb(0xE15759),
            rgb(0x76B7B2), rgb(0xEDC948), rgb(0xB07AA1), rgb(0xFF9DA7), rgb(0x9C755F), rgb(0xBAB0AC) };

    private final Color background;
    private final Color foreground;
    private final Color grid;
    private final Map<StallCause, Color> stalls = new EnumMap<>(StallCause.class);

    public ChartPalette(Color background, Color foreground, Color grid) {
        this.background = background;
        this.foreground = foreground;
        this.grid = grid;
        stalls.put(StallCause.DRAIN, rgb(0x7F3C8D));
        stalls.put(StallCause.STOP_THE_WORLD, rgb(0xC0392B));
        stalls.put(StallCause.COPY_ON_WRITE, rgb(0xE74C3C));
        stalls.put(StallCause.BUDGET_FALLBACK, rgb(0x8B0000));
        stalls.put(StallCause.WAIT_FOR_COPIER, rgb(0xD35400));
        stalls.put(StallCause.RECOPY, rgb(0xA93226));
        stalls.put(StallCause.CONTEXT_CREATION, rgb(0x6C3483));
        stalls.put(StallCause.RESTORE_ON_DEMAND, rgb(0xE91E63));
        stalls.put(StallCause.CPU_STATE, rgb(0x884EA0));
        stalls.put(StallCause.COPY_ENGINE_BUSY, rgb(0xF1948A));
    }

    private static Color rgb(int rgb) {
        return new Color(rgb);
    }

    public Color background() {
        return background;
    }

    /** Text, axis lines, outlines. */
    public Color foreground() {
        return foreground;
    }

    public Color grid() {
        return grid;
    }

    /** Colour of a timeline interval's category ({@link TimelineInterval#category()}). */
    public Color category(String category) {
        return switch (category) {
            case TimelineInterval.KERNEL -> rgb(0x4E79A7);
            case TimelineInterval.COPY -> rgb(0x76B7B2);
            case TimelineInterval.SET -> rgb(0x9DC3E6);
            case TimelineInterval.COW -> rgb(0xF28E2B);
            case TimelineInterval.COMMIT -> rgb(0x59A14F);
            case TimelineInterval.RESTORE -> rgb(0x2E86C1);
            case TimelineInterval.RECOPY -> rgb(0xEDC948);
            case TimelineInterval.CPU_STATE -> rgb(0x9C755F);
            default -> rgb(0xBAB0AC);
        };
    }

    public Color stall(StallCause cause) {
        return stalls.get(cause);
    }

    /** Colour of a checkpoint/restore marker line, from its label: requested, instant, complete, other. */
    public Color marker(String label) {
        if (label.contains("requested") || label.contains("started")) {
            return rgb(0xD35400);
        }
        if (label.contains("instant") || label.contains("stop")) {
            return rgb(0x7F3C8D);
        }
        if (label.contains("complete")) {
            return rgb(0x1E8449);
        }
        return foreground;
    }

    /** The {@code index}-th colour for runs compared side by side (repeats after ten). */
    public Color run(int index) {
        return RUNS[Math.floorMod(index, RUNS.length)];
    }

    /** A second series of a run (budget in use next to dirty bytes): the run's colour, lighter. */
    public Color runSecondary(int index) {
        Color c = run(index);
        return new Color((c.getRed() + 255) / 2, (c.getGreen() + 255) / 2, (c.getBlue() + 255) / 2);
    }
}
