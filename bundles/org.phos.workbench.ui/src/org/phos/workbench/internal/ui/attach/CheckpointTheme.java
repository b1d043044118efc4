package org.phos.workbench.internal.ui.attach;

import java.util.List;

import org.eclipse.swt.graphics.Color;
import org.eclipse.ui.PlatformUI;
import org.phos.workbench.cr.core.process.CheckpointStep;
import org.phos.workbench.cr.core.process.ProcessState;

/**
 * Colours of the live trace's checkpoint strip, from the theme registry (plugin.xml, org.eclipse.ui.themes, category
 * "Phoenix process checkpoint"; Phoenix Dark overrides them): one per phase, one per process state, refusal, stall.
 */
public final class CheckpointTheme {
	/** Prefix of the colour definitions' ids. */
	public static final String PREFIX = "org.phos.workbench.ui.checkpoint.";
	/** Every key, for tests that check the theme defines them all. */
	public static final List<String> KEYS = List.of("phase-lock", "phase-checkpoint", "phase-restore", "phase-unlock",
			"refused", "stall", "state-running", "state-locked", "state-checkpointed", "state-failed", "state-unknown",
			"background", "foreground", "muted");

	private CheckpointTheme() {
	}

	/** @return the theme's colour with the id {@code PREFIX + key} */
	public static Color color(String key) {
		return PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry().get(PREFIX + key);
	}

	static Color of(CheckpointStep s) {
		return color("phase-" + s.word());
	}

	static Color of(ProcessState s) {
		return color("state-" + s.word());
	}
}
