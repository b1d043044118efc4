package org.phos.workbench.internal.ui.timeline;

import java.util.function.ToIntFunction;

import org.eclipse.jdt.annotation.Nullable;

/**
 * What of a label fits in a slice: the whole label, or its leading words and an ellipsis ("stall: draining the
 * stream" in a narrow stall reads "stall: draining…" or "stall…"), never a word cut in two ("stall: draini"). A label
 * of one word (a kernel's identifier) may lose its end behind the ellipsis as long as three characters remain; where
 * nothing fits, nothing is drawn (the click's details and the tooltip have the whole text).
 */
public final class LabelFit {
    /** The ellipsis appended to a shortened label. */
    public static final String ELLIPSIS = "\u2026";

    private LabelFit() {
    }

    /**
     * {@code text} as it fits {@code room} px, measured by {@code width} (the GC's text extent), or null when not even
     * its first word with an ellipsis fits.
     */
    public static @Nullable String fit(String text, int room, ToIntFunction<String> width) {
        if (text.isEmpty() || room <= 0) {
            return null;
        }
        if (width.applyAsInt(text) <= room) {
            return text;
        }
        // the longest prefix ending at a word's end that fits with the ellipsis
        for (int end = text.length() - 1; end > 0; end--) {
            if (isBreak(text.charAt(end)) && !isBreak(text.charAt(end - 1))) {
                String head = trimBreaks(text.substring(0, end));
                if (!head.isEmpty() && width.applyAsInt(head + ELLIPSIS) <= room) {
                    return head + ELLIPSIS;
                }
            }
        }
        if (text.chars().noneMatch(c -> isBreak((char) c))) { // one word: its end goes behind the ellipsis
            for (int end = text.length() - 1; end >= 3; end--) {
                String head = text.substring(0, end) + ELLIPSIS;
                if (width.applyAsInt(head) <= room) {
                    return head;
                }
            }
        }
        return null;
    }

    /** Characters that end a word of a label: spaces, punctuation, and a C identifier's underscores. */
    static boolean isBreak(char c) {
        return c == ' ' || c == ':' || c == ',' || c == ';' || c == '(' || c == '<' || c == '_' || c == '/' || c == '=';
    }

    private static String trimBreaks(String s) {
        int e = s.length();
        while (e > 0 && isBreak(s.charAt(e - 1))) {
            e--;
        }
        return s.substring(0, e);
    }
}
