package org.phos.workbench.internal.ui.accuracy;

import org.eclipse.swt.graphics.Color;
import org.eclipse.ui.PlatformUI;
import org.phos.workbench.speculation.core.validate.AccessVerdict;

/** Colours of the speculation views, from the theme registry (plugin.xml, org.eclipse.ui.themes). */
public final class SpeculationTheme {
	/** Prefix of the colour definitions' ids. */
	public static final String PREFIX = "org.phos.workbench.ui.speculation.";

	private SpeculationTheme() {
	}

	/** @return the theme's colour with the id {@code PREFIX + key} */
	public static Color color(String key) {
		return PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry().get(PREFIX + key);
	}

	/** @return the colour of a verdict (exact green, over amber, missed read orange, missed write red, wrong purple) */
	public static Color verdict(AccessVerdict v) {
		return color(v.label());
	}
}
