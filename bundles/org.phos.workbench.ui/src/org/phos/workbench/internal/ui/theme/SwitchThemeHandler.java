package org.phos.workbench.internal.ui.theme;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;

/** Window &gt; Theme &gt; Light / Dark: the command's id names the theme. */
public final class SwitchThemeHandler extends AbstractHandler {
	/** Command switching to the light theme. */
	public static final String LIGHT_COMMAND = "org.phos.workbench.ui.commands.lightTheme";
	/** Command switching to the dark theme. */
	public static final String DARK_COMMAND = "org.phos.workbench.ui.commands.darkTheme";

	@Override
	public Object execute(ExecutionEvent event) {
		PhoenixThemes.apply(DARK_COMMAND.equals(event.getCommand().getId()) ? PhoenixThemes.DARK : PhoenixThemes.LIGHT,
				true);
		return null;
	}
}
