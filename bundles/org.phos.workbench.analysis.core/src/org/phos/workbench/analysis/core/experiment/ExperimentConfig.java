package org.phos.workbench.analysis.core.experiment;

import org.eclipse.jdt.annotation.Nullable;

/**
 * What an experiment runs, in the words of the {@code simulate} command's options, so a saved experiment and a
 * command line say the same thing.
 *
 * @param policies {@code --policy}: {@code NAME[:key=value,...]} specs separated by {@code ;}
 * @param at {@code --at}: the checkpoint (or restore point) of every policy that names none, or null
 * @param machine {@code --machine}: a preset with knobs, {@code h100,d2h=40GB/s}
 * @param sets {@code --sets}: the read/write set sources separated by {@code ,}
 * @param widthPx {@code --width}: the charts' width in pixels
 */
public record ExperimentConfig(String policies, @Nullable String at, String machine, String sets, int widthPx) {
    /** {@code simulate}'s defaults for the options that have one. */
    public static final String DEFAULT_MACHINE = "h100";
    public static final String DEFAULT_SETS = "auto";
    public static final int DEFAULT_WIDTH_PX = 1600;
}
