package org.phos.workbench.internal.ui.theme;

import java.io.IOException;

import org.eclipse.core.runtime.IConfigurationElement;
import org.eclipse.core.runtime.Platform;
import org.eclipse.jface.preference.IPersistentPreferenceStore;
import org.eclipse.jface.preference.IPreferenceStore;
import org.eclipse.jface.util.IPropertyChangeListener;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.themes.IThemeManager;

/**
 * The workbench's two themes. Every colour of the Phoenix views (verdicts, access bars, the timeline's palette, the
 * load-warning banner) is a colour definition of the theme registry ({@code org.eclipse.ui.themes} in plugin.xml);
 * the dark theme ({@link #DARK}) overrides them all with colours chosen for a dark background. Switching also asks
 * GTK for its dark variant, so that native tables, labels and buttons turn dark with the custom-painted parts.
 * <p>
 * The choice is made with Window &gt; Theme or at start with {@code -Dphos.theme=dark|light} ({@code ./workbench
 * snapshot ... --theme dark}); the workbench remembers its current theme in its preferences either way, so the next
 * start without the property opens in the theme last chosen.
 * Views that set colours on widgets themselves listen with {@link #onChange}.
 */
public final class PhoenixThemes {
	/** The light theme: the platform's default theme with the colour definitions' own values. */
	public static final String LIGHT = IThemeManager.DEFAULT_THEME;
	/** The dark theme (plugin.xml). */
	public static final String DARK = "org.phos.workbench.ui.theme.dark";
	/** System property choosing the theme at start: {@code dark} or {@code light}. */
	public static final String PROPERTY = "phos.theme";

	private PhoenixThemes() {
	}

	/** @return the theme id for {@code dark}/{@code light} (also a theme id itself) */
	public static String idOf(String name) {
		return switch (name.trim().toLowerCase(java.util.Locale.ROOT)) {
		case "dark" -> DARK;
		case "light", "default" -> LIGHT;
		default -> throw new IllegalArgumentException("-D" + PROPERTY + "=" + name + ": use dark or light");
		};
	}

	/** @return whether the current theme is the dark one */
	public static boolean isDark() {
		return DARK.equals(PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getId());
	}

	/**
	 * Before any window exists: asks GTK for its dark variant when this run will be dark ({@code -Dphos.theme=dark},
	 * or the dark theme remembered from the last run), so every native widget is created dark. Switching GTK's
	 * variant after the widgets exist restyles them on a later turn of the event loop, and labels created before
	 * could keep dark text on the dark background (seen in snapshots).
	 */
	public static void prepareNativeWidgets() {
		String asked = System.getProperty(PROPERTY);
		boolean dark;
		if (asked != null && !asked.isBlank()) {
			try {
				dark = DARK.equals(idOf(asked));
			} catch (IllegalArgumentException e) {
				return; // said once, with the reason, when the workbench applies the choice
			}
		} else {
			dark = DARK.equals(Platform.getPreferencesService().getString("org.eclipse.ui",
					org.eclipse.ui.IWorkbenchPreferenceConstants.CURRENT_THEME_ID, null, null));
		}
		if (dark) {
			darkNativeWidgets(true);
		}
	}

	/** Applies the theme the run asks for ({@code -Dphos.theme}), else the remembered one. UI thread. */
	public static void applyStartupChoice() {
		String asked = System.getProperty(PROPERTY);
		String id;
		try {
			id = asked == null || asked.isBlank()
					? PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getId() : idOf(asked);
		} catch (IllegalArgumentException e) {
			System.err.println("phoenix: " + e.getMessage() + "; keeping the current theme");
			return;
		}
		apply(id, asked == null || asked.isBlank());
	}

	/**
	 * Switches to theme {@code id} ({@link #LIGHT} or {@link #DARK}); the workbench keeps it as its current theme for
	 * the next start. UI thread.
	 *
	 * @param id the theme
	 * @param remember whether to save the workbench preferences at once (else the workbench saves them at exit)
	 */
	public static void apply(String id, boolean remember) {
		darkNativeWidgets(DARK.equals(id));
		IThemeManager themes = PlatformUI.getWorkbench().getThemeManager();
		if (!id.equals(themes.getCurrentTheme().getId())) {
			themes.setCurrentTheme(id); // fires CHANGE_CURRENT_THEME: views re-read their colours
		}
		completeDefinitions(themes.getCurrentTheme().getColorRegistry(), themes.getCurrentTheme().getId());
		if (remember) {
			IPreferenceStore store = PlatformUI.getPreferenceStore();
			if (store instanceof IPersistentPreferenceStore p && p.needsSaving()) {
				try {
					p.save();
				} catch (IOException e) {
					System.err.println("phoenix: cannot remember the theme: " + e.getMessage());
				}
			}
		}
		chromeOnceRestyled(Display.getCurrent(), DARK.equals(id), 40);
	}

	/**
	 * GTK restyles the widgets on a later turn of the event loop (at start-up, once the workbench is idle): only then
	 * do they report their new colours. Waits for the window to turn dark (up to {@code tries} times 150 ms) before
	 * touching the chrome, so that a still-light window colour is never copied onto it.
	 */
	private static void chromeOnceRestyled(Display display, boolean dark, int tries) {
		display.timerExec(150, () -> {
			if (display.isDisposed()) {
				return;
			}
			var shells = display.getShells();
			boolean restyled = shells.length == 0 || light(shells[0].getBackground()) != dark;
			if (!restyled && tries > 0) {
				chromeOnceRestyled(display, dark, tries - 1);
				return;
			}
			for (var shell : shells) {
				if (!dark || !light(shell.getBackground())) {
					chrome(shell, dark, shell.getBackground());
				}
				shell.redraw(0, 0, shell.getSize().x, shell.getSize().y, true);
			}
		});
	}

	/** Data key on a composite whose light background the dark theme replaced: the colour to restore. */
	private static final String REPLACED = "org.phos.workbench.ui.theme.replacedBackground";

	/**
	 * The workbench's own chrome keeps some backgrounds it was given at creation (the tool bars and buttons at the
	 * right of the view tabs, the empty editor area): in the dark theme those that are still light get the window's
	 * dark background, and the light theme gives them back what they had. Tables, trees, text fields and
	 * custom-painted canvases are left alone (GTK and the views colour them).
	 */
	private static void chrome(Control c, boolean dark, org.eclipse.swt.graphics.Color windowBackground) {
		if (c instanceof org.eclipse.swt.widgets.Composite composite && !(c instanceof org.eclipse.swt.widgets.Table)
				&& !(c instanceof org.eclipse.swt.widgets.Tree)
				&& (!(c instanceof org.eclipse.swt.widgets.Canvas) || c instanceof org.eclipse.swt.custom.CTabFolder
						|| c instanceof org.eclipse.swt.widgets.Decorations)) {
			Object replaced = c.getData(REPLACED);
			if (dark && replaced == null && light(c.getBackground())) {
				c.setData(REPLACED, c.getBackground());
				c.setBackground(windowBackground);
			} else if (!dark && replaced instanceof org.eclipse.swt.graphics.Color old) {
				c.setBackground(old);
				c.setData(REPLACED, null);
			}
			for (Control child : composite.getChildren()) {
				chrome(child, dark, windowBackground);
			}
		}
	}

	private static boolean light(org.eclipse.swt.graphics.Color c) {
		return c.getRed() * 299 + c.getGreen() * 587 + c.getBlue() * 114 > 160 * 1000;
	}

	/**
	 * Puts the Phoenix colour definitions' own values into {@code registry} where it has none. The platform fills the
	 * default theme's registry only when it starts in that theme: started in the dark theme (remembered from the last
	 * run) and switched to the light one, the registry would answer null for every Phoenix colour.
	 */
	static void completeDefinitions(org.eclipse.jface.resource.ColorRegistry registry, String themeId) {
		// what is put here is kept by the platform as if the user had chosen it (the workspace's theme colour
		// preferences), so only missing colours are put, each with the current theme's own value: its override
		// first, then the definition's value (a light value once put into the dark theme stayed there)
		java.util.Map<String, String> overrides = new java.util.HashMap<>();
		for (IConfigurationElement e : Platform.getExtensionRegistry().getConfigurationElementsFor("org.eclipse.ui.themes")) {
			if ("theme".equals(e.getName()) && themeId.equals(e.getAttribute("id"))) {
				for (IConfigurationElement o : e.getChildren("colorOverride")) {
					if (o.getAttribute("id") != null && o.getAttribute("value") != null) {
						overrides.put(o.getAttribute("id"), o.getAttribute("value"));
					}
				}
			}
		}
		for (IConfigurationElement e : Platform.getExtensionRegistry().getConfigurationElementsFor("org.eclipse.ui.themes")) {
			String id = e.getAttribute("id");
			String value = id == null ? null : overrides.getOrDefault(id, e.getAttribute("value"));
			if (!"colorDefinition".equals(e.getName()) || id == null || value == null || !id.startsWith("org.phos.")
					|| registry.hasValueFor(id)) {
				continue;
			}
			org.eclipse.swt.graphics.RGB rgb = null;
			if (value.startsWith("COLOR_")) {
				try {
					rgb = Display.getCurrent().getSystemColor(org.eclipse.swt.SWT.class.getField(value).getInt(null)).getRGB();
				} catch (ReflectiveOperationException x) {
					// an unknown system colour: left to the registry
				}
			} else {
				rgb = org.eclipse.jface.resource.StringConverter.asRGB(value, null);
			}
			if (rgb != null) {
				registry.put(id, rgb);
			}
		}
	}

	/**
	 * Asks GTK for the dark (or light) variant of its theme, as the platform's own CSS theme engine does through
	 * SWT's GTK layer; without GTK (another windowing system) nothing happens and only the Phoenix colours change.
	 */
	private static void darkNativeWidgets(boolean dark) {
		try {
			Class<?> os = Display.class.getClassLoader().loadClass("org.eclipse.swt.internal.gtk.OS");
			os.getMethod("setTheme", boolean.class).invoke(null, dark);
		} catch (ReflectiveOperationException | LinkageError e) {
			// not GTK: the registry's colours still change
		}
	}

	/**
	 * Runs {@code refresh} on the UI thread whenever the current theme (or one of its colours) changes, until
	 * {@code owner} is disposed.
	 */
	public static void onChange(Control owner, Runnable refresh) {
		IThemeManager themes = PlatformUI.getWorkbench().getThemeManager();
		IPropertyChangeListener l = e -> {
			if (!owner.isDisposed()) {
				owner.getDisplay().asyncExec(() -> {
					if (!owner.isDisposed()) {
						refresh.run();
					}
				});
			}
		};
		themes.addPropertyChangeListener(l);
		owner.addDisposeListener(e -> themes.removePropertyChangeListener(l));
	}
}
