package org.phos.workbench.internal.ui.launches;

import org.eclipse.jdt.annotation.Nullable;

/**
 * A launch's Java call site as the Launches table shows it ({@code pkg.Class.method(File.java:LINE)}, the form of
 * {@code JavaCall.site()}, the same for opened traces and live attached processes), taken apart to find its source.
 *
 * @param className the class, package included ({@code com.example.Main}, or {@code Main} in the default package)
 * @param method    the method
 * @param file      the source file name the class file records ({@code Main.java}), empty when unknown
 * @param line      the 1-based source line, -1 when unknown
 */
public record JavaSourceSite(String className, String method, String file, int line) {

    /** The site of the text {@code site} ({@code Class.method(File.java:LINE)}), or null when it is not one. */
    public static @Nullable JavaSourceSite parse(@Nullable String site) {
        if (site == null || !site.endsWith(")")) {
            return null;
        }
        int open = site.lastIndexOf('(');
        int dot = open < 0 ? -1 : site.lastIndexOf('.', open);
        if (dot <= 0 || dot + 1 >= open) {
            return null;
        }
        String where = site.substring(open + 1, site.length() - 1);
        String file = where;
        int line = -1;
        int colon = where.lastIndexOf(':');
        if (colon > 0) {
            try {
                line = Integer.parseInt(where.substring(colon + 1));
                file = where.substring(0, colon);
            } catch (NumberFormatException e) {
                line = -1;
            }
        }
        if (file.equals("Unknown Source") || file.equals("Native Method")) {
            file = "";
        }
        return new JavaSourceSite(site.substring(0, dot), site.substring(dot + 1, open), file, line);
    }

    /**
     * Where the source lies under a source folder: the class's package as folders plus the recorded file name
     * ({@code com/example/Main.java}); without a recorded name, the outer class's name plus {@code .java}.
     */
    public String relativePath() {
        int dot = className.lastIndexOf('.');
        String pkg = dot < 0 ? "" : className.substring(0, dot).replace('.', '/') + "/";
        String name = file;
        if (name.isEmpty()) {
            String simple = className.substring(dot + 1);
            int nested = simple.indexOf('$');
            name = (nested < 0 ? simple : simple.substring(0, nested)) + ".java";
        }
        return pkg + name;
    }

    /** {@code com.example.Main.run, Main.java:42}: as the Properties view lists it. */
    public String label() {
        String where = file.isEmpty() ? "unknown file" : line >= 0 ? file + ":" + line : file;
        return className + "." + method + ", " + where;
    }
}
