package org.phos.workbench.internal.ui.theme;

import org.eclipse.ui.IStartup;
import org.eclipse.ui.PlatformUI;

/** Applies the chosen theme once the workbench has started ({@code org.eclipse.ui.startup}). */
public final class ThemeStartup implements IStartup {
	@Override
	public void earlyStartup() {
		PlatformUI.getWorkbench().getDisplay().asyncExec(PhoenixThemes::applyStartupChoice);
	}
}
