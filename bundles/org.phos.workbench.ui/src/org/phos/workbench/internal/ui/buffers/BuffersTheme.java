package org.phos.workbench.internal.ui.buffers;

import java.util.List;

import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.ui.PlatformUI;
import org.phos.workbench.trace.core.AllocKind;

/**
 * Colours of the Buffers view and the overview page's charts, from the theme registry (plugin.xml,
 * org.eclipse.ui.themes, category "Phoenix memory"): allocation kinds, the selected launch's speculated and observed
 * ranges and its time marker, the selected allocation.
 */
public final class BuffersTheme {
    /** Prefix of the colour definitions' ids. */
    public static final String PREFIX = "org.phos.workbench.ui.buffers.";
    /** Every key, for tests that check the theme defines them all. */
    public static final List<String> KEYS = List.of("kind-device", "kind-managed", "kind-host", "outline", "segment",
            "speculated", "observed-read", "observed-write", "launch-marker", "selection", "chart-bar",
            "background", "foreground");

    private BuffersTheme() {
    }

    /** @return the theme's colour with the id {@code PREFIX + key} */
    public static Color color(String key) {
        return PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry().get(PREFIX + key);
    }

    /** @return the theme's RGB with the id {@code PREFIX + key} (for charts drawn with AWT colours) */
    public static RGB rgb(String key) {
        return PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry().getRGB(PREFIX + key);
    }

    /** @return the key of an allocation kind's colour: device memory, managed memory, or pinned host memory */
    public static String kindKey(AllocKind kind) {
        return switch (kind) {
        case MANAGED -> "kind-managed";
        case HOST_PINNED -> "kind-host";
        default -> "kind-device";
        };
    }

    /** @return what the kind's colour stands for, for legends */
    public static String kindLabel(String key) {
        return switch (key) {
        case "kind-managed" -> "managed";
        case "kind-host" -> "host pinned";
        default -> "device";
        };
    }
}
