package org.phos.workbench.trace.core.javasites;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code .java-sites} file as read: the calls in file order and what was wrong with it. The file is text, one call
 * a line, tab-separated (docs/trace-format.md "Java call sites"); a process killed mid-write leaves a last line
 * without its newline, which is dropped with a warning, as is any line that does not parse.
 *
 * @param file     the file read
 * @param header   its first line ({@code # phos-java-sites 1 pid=... jcuda=... clock=CLOCK_MONOTONIC})
 * @param calls    the calls, in the order the agent wrote them
 * @param warnings one line per problem, each naming the file and line
 */
public record JavaSiteLog(Path file, String header, List<JavaCall> calls, List<String> warnings) {

    public static final String MAGIC = "# phos-java-sites 1";

    public JavaSiteLog {
        calls = List.copyOf(calls);
        warnings = List.copyOf(warnings);
    }

    /** The side file the agent writes for {@code trace}: {@code trace + ".java-sites"}. */
    public static Path sideFileOf(Path trace) {
        return trace.resolveSibling(trace.getFileName() + ".java-sites");
    }

    /**
     * The largest side file read: its calls are held in memory (about 84 bytes a call on disk, a few hundred in the
     * heap), so 256 MiB is some 3M calls.
     */
    public static final long MAX_BYTES = 256L << 20;

    /**
     * Reads a side file of at most {@link #MAX_BYTES}.
     *
     * @throws IOException when it cannot be read, is larger, or is not a side file (one line naming the file)
     */
    public static JavaSiteLog read(Path file) throws IOException {
        return read(file, MAX_BYTES);
    }

    /** {@link #read(Path)} with another size limit. */
    public static JavaSiteLog read(Path file, long maxBytes) throws IOException {
        byte[] bytes;
        try {
            long size = Files.size(file);
            if (size > maxBytes) {
                throw new IOException(file + ": " + size + " bytes of Java call sites, more than the " + maxBytes
                        + " this reader holds in memory");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw e.getMessage() != null && e.getMessage().startsWith(file + ": ") ? e
                    : new IOException(file + ": cannot read the Java call sites (" + e.getMessage() + ")", e);
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        List<JavaCall> calls = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        int cut = text.lastIndexOf('\n') + 1;
        if (cut > 0 && cut < text.length()) {
            warnings.add(file + ": the last line (line " + (text.substring(0, cut).split("\n", -1).length)
                    + ") is cut short (the process ended mid-write); dropped");
            text = text.substring(0, cut);
        }
        String header = null;
        int lineNo = 0;
        int bad = 0;
        String firstBad = null;
        try (BufferedReader r = new BufferedReader(new java.io.StringReader(text))) {
            String line;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (header == null) {
                    if (!line.startsWith(MAGIC)) {
                        throw new IOException(file + ": not a Java call-site file (the first line is not \"" + MAGIC
                                + " ...\")");
                    }
                    header = line;
                    continue;
                }
                if (line.startsWith("#") || line.isEmpty()) {
                    continue;
                }
                JavaCall c = parseLine(line);
                if (c == null) {
                    if (bad++ == 0) {
                        firstBad = "line " + lineNo;
                    }
                    continue;
                }
                calls.add(c);
            }
        }
        if (header == null) {
            throw new IOException(file + ": empty, not a Java call-site file");
        }
        if (bad > 0) {
            warnings.add(file + ": " + bad + " line(s) do not parse and were skipped, first " + firstBad);
        }
        return new JavaSiteLog(file, header, calls, warnings);
    }

    /** One line of a side file (without its newline) as a call, or null when it is not one. */
    static @org.eclipse.jdt.annotation.Nullable JavaCall parseLine(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 12 || f[0].length() != 1 || "LMGAFC".indexOf(f[0].charAt(0)) < 0) {
            return null;
        }
        try {
            return new JavaCall(f[0].charAt(0), Long.parseLong(f[1]), Long.parseLong(f[2]), f[3], f[4], f[5], f[6],
                    Integer.parseInt(f[7]), f[8], f[9], f[10], f[11]);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** {@code call} as the agent writes it (without the newline): {@code parseLine(format(c))} equals {@code c}. */
    static String format(JavaCall c) {
        return c.kind() + "\t" + c.startNs() + "\t" + c.endNs() + "\t" + c.result() + "\t" + c.thread() + "\t"
                + c.className() + "\t" + c.method() + "\t" + c.line() + "\t" + c.file() + "\t" + c.name() + "\t"
                + c.detail() + "\t" + c.extra();
    }
}
