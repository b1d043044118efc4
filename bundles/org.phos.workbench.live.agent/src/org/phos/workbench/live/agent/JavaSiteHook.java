package org.phos.workbench.live.agent;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the instrumented {@code JCudaDriver} methods call: {@link #enter()} at the start of each wrapped method,
 * {@link #exit} before it returns its CUresult and {@link #threw} when it ends with an exception (which is then
 * rethrown unchanged). The hook appends one line per driver call to the side file {@code <trace>.java-sites}
 * (format in docs/trace-format.md, "Java call sites"): the call's {@code System.nanoTime()} interval, which on Linux
 * is {@code CLOCK_MONOTONIC}, the recorder's clock, so the workbench can pair each line with the event the native
 * recorder wrote for the same call.
 *
 * <p>Nothing here may change what the program sees: every hook swallows its own failures, returns nothing to the
 * instrumented code and never touches the arguments beyond reading them. A call made from inside another wrapped
 * call (an overload delegating to another) is recorded once, by the outermost one.
 */
public final class JavaSiteHook {

    /** First line of a side file; the number is the side file's format version. */
    public static final String HEADER = "# phos-java-sites 1";

    private static final Object LOCK = new Object();
    private static final StringBuilder BUFFER = new StringBuilder(1 << 16);
    private static final int FLUSH_AT = 32 << 10;
    private static final int MAX_HANDLES = 100_000;
    private static final StackWalker WALKER = StackWalker.getInstance();
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);
    /** CUfunction / CUmodule objects (by identity: JCuda's handles are mutable) to the names the program gave. */
    private static final Map<Object, String> NAMES = new IdentityHashMap<>();
    /** CUfunction objects to the name of the module they were looked up in. */
    private static final Map<Object, String> MODULE_OF = new IdentityHashMap<>();

    private static volatile OutputStream out;
    private static volatile Path file;
    private static volatile boolean failed;
    private static long records;

    private JavaSiteHook() {
    }

    /**
     * Starts writing to {@code sideFile} (created, or appended to when the program was attached twice).
     *
     * @param sideFile where to write
     * @param jcudaVersion written into the header line
     */
    public static void open(Path sideFile, String jcudaVersion) throws IOException {
        synchronized (LOCK) {
            closeQuietly();
            boolean fresh = !Files.exists(sideFile) || Files.size(sideFile) == 0;
            out = Files.newOutputStream(sideFile, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            file = sideFile;
            failed = false;
            records = 0;
            if (fresh) {
                BUFFER.append(HEADER).append("\tpid=").append(ProcessHandle.current().pid()).append("\tjcuda=")
                        .append(clean(jcudaVersion)).append("\tclock=CLOCK_MONOTONIC\n");
            }
            flushLocked();
        }
    }

    /** The side file being written, or null before {@link #open}. */
    public static Path file() {
        return file;
    }

    /** Lines written since {@link #open}. */
    public static long records() {
        synchronized (LOCK) {
            return records;
        }
    }

    /** Writes what is buffered (the agent also does so at exit and every 32 KiB). */
    public static void flush() {
        synchronized (LOCK) {
            flushLocked();
        }
    }

    // i14-jsites: begin
    /** How often the flusher thread writes what is buffered: a workbench attached to the process follows the file. */
    public static final long FLUSH_EVERY_MS = 200;
    private static Thread flusher;

    /**
     * Starts (once) a daemon thread that writes what is buffered every {@link #FLUSH_EVERY_MS} ms, so that a
     * workbench attached to the process ({@code workbench attach PID}, the live trace) sees each call within that
     * time instead of at 32 KiB. The program's threads never wait for it beyond the short append they already make
     * under the same lock; it stops with the JVM and on any failure of its own.
     */
    public static void startFlusher() {
        synchronized (LOCK) {
            if (flusher != null) {
                return;
            }
            Thread t = new Thread(() -> {
                try {
                    while (!failed) {
                        Thread.sleep(FLUSH_EVERY_MS);
                        synchronized (LOCK) {
                            if (!BUFFER.isEmpty()) {
                                flushLocked();
                            }
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Throwable t2) {
                    fail(t2);
                }
            }, "phos-agent flusher");
            t.setDaemon(true);
            flusher = t;
            t.start();
        }
    }
    // i14-jsites: end

    /** Called first in every wrapped method; the result is the call's start time, kept in a local. */
    public static long enter() {
        DEPTH.get()[0]++;
        return System.nanoTime();
    }

    /**
     * Called just before a wrapped method returns {@code result}.
     *
     * @param result the CUresult the method returns (untouched: the instrumented code returns its own copy)
     * @param startNs what {@link #enter()} returned
     * @param call the {@link DriverCall} ordinal
     * @param a0 the first argument for calls that pass it ({@link DriverCall#argumentsPassed()}), else null
     * @param a1 the second, or null
     * @param a2 the third, or null
     */
    public static void exit(int result, long startNs, int call, Object a0, Object a1, Object a2) {
        long endNs = System.nanoTime();
        int[] depth = DEPTH.get();
        if (--depth[0] > 0 || out == null || failed) {
            return;
        }
        try {
            record(DriverCall.values()[call], startNs, endNs, Integer.toString(result), a0, a1, a2);
        } catch (Throwable t) {
            fail(t);
        }
    }

    /** Called when a wrapped method ends with {@code thrown}, which the instrumented code then rethrows. */
    public static void threw(Throwable thrown, long startNs, int call) {
        long endNs = System.nanoTime();
        int[] depth = DEPTH.get();
        if (--depth[0] > 0 || out == null || failed) {
            return;
        }
        try {
            record(DriverCall.values()[call], startNs, endNs, "threw " + thrown.getClass().getName(), null, null, null);
        } catch (Throwable t) {
            fail(t);
        }
    }

    private static void record(DriverCall call, long startNs, long endNs, String result, Object a0, Object a1,
            Object a2) {
        Optional<StackWalker.StackFrame> site = WALKER.walk(s -> s.filter(f -> {
            String c = f.getClassName();
            return !c.startsWith("jcuda.") && !c.equals(JavaSiteHook.class.getName());
        }).findFirst());
        String a = "", b = "", c = "";
        boolean ok = "0".equals(result);
        ModuleImage image = call == DriverCall.MODULE_LOAD && ok ? ModuleImage.of(a1) : new ModuleImage("", 0, -1);
        synchronized (LOCK) {
            switch (call) {
                case LAUNCH -> {
                    a = name(a0);
                    b = a0 == null ? "" : MODULE_OF.getOrDefault(a0, "");
                }
                case MODULE_LOAD -> {
                    a = image.fileName();
                    b = image.hash() == 0 ? "" : Long.toHexString(image.hash());
                    c = image.bytes() < 0 ? "" : Long.toString(image.bytes());
                    if (ok && a0 != null && NAMES.size() < MAX_HANDLES) {
                        String siteName = site.map(f -> f.getClassName() + "." + f.getMethodName() + ":"
                                + f.getLineNumber()).orElse("?");
                        NAMES.put(a0, a.isEmpty() ? "data@" + siteName : a);
                    }
                }
                case GET_FUNCTION -> {
                    a = a2 instanceof String s ? s : "";
                    b = name(a1);
                    if (ok && a0 != null && NAMES.size() < MAX_HANDLES) {
                        NAMES.put(a0, a);
                        MODULE_OF.put(a0, b);
                    }
                }
                default -> {
                    // memory calls: the call site is all there is to add
                }
            }
            StackWalker.StackFrame f = site.orElse(null);
            BUFFER.append(call.letter).append('\t').append(startNs).append('\t').append(endNs).append('\t')
                    .append(result).append('\t').append(clean(Thread.currentThread().getName())).append('\t')
                    .append(f == null ? "?" : clean(f.getClassName())).append('\t')
                    .append(f == null ? "?" : clean(f.getMethodName())).append('\t')
                    .append(f == null ? -1 : f.getLineNumber()).append('\t')
                    .append(f == null || f.getFileName() == null ? "" : clean(f.getFileName())).append('\t')
                    .append(clean(a)).append('\t').append(clean(b)).append('\t').append(clean(c)).append('\n');
            records++;
            if (BUFFER.length() >= FLUSH_AT) {
                flushLocked();
            }
        }
    }

    private static String name(Object handle) {
        if (handle instanceof String s) {
            return s;
        }
        String n = handle == null ? null : NAMES.get(handle);
        return n == null ? "" : n;
    }

    private static String clean(String s) {
        if (s.indexOf('\t') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    private static void flushLocked() {
        OutputStream o = out;
        if (o == null || BUFFER.isEmpty()) {
            return;
        }
        try {
            o.write(BUFFER.toString().getBytes(StandardCharsets.UTF_8));
            o.flush();
        } catch (IOException e) {
            fail(e);
        }
        BUFFER.setLength(0);
    }

    private static void fail(Throwable t) {
        if (!failed) {
            failed = true;
            System.err.println("phos-agent: stopped recording Java call sites to " + file + ": " + t);
        }
    }

    private static void closeQuietly() {
        if (out != null) {
            flushLocked();
            try {
                out.close();
            } catch (IOException e) {
                // nothing to do: the data was flushed or the failure already reported
            }
            out = null;
        }
    }

    /** Flushes and closes the side file (the agent's shutdown hook). */
    public static void close() {
        synchronized (LOCK) {
            closeQuietly();
        }
    }

    /**
     * The part of a module image the recorder hashes (FNV-1a 64): an ELF image whole, PTX up to its NUL. A string
     * that is not PTX text is a file name ({@code cuModuleLoad}): the file is read (after the driver loaded it) for
     * its hash, up to 256 MiB. A {@code Pointer} image is not read (hash 0, bytes -1).
     */
    record ModuleImage(String fileName, long hash, long bytes) {
        static ModuleImage of(Object image) {
            byte[] b;
            String fileName = "";
            if (image instanceof byte[] bytes) {
                b = bytes;
            } else if (image instanceof String s) {
                if (s.contains(".entry") || s.contains(".version") || s.startsWith("//")) {
                    b = s.getBytes(StandardCharsets.UTF_8);
                } else {
                    fileName = s;
                    try {
                        Path p = Path.of(s);
                        b = Files.isRegularFile(p) && Files.size(p) <= (256L << 20) ? Files.readAllBytes(p) : null;
                    } catch (IOException | RuntimeException e) {
                        b = null;
                    }
                    if (b == null) {
                        return new ModuleImage(fileName, 0, -1);
                    }
                }
            } else {
                return new ModuleImage("", 0, -1);
            }
            int n = b.length;
            boolean elf = n >= 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
            if (!elf) {
                for (int i = 0; i < n; i++) {
                    if (b[i] == 0) {
                        n = i;
                        break;
                    }
                }
            }
            long h = 0xcbf29ce484222325L;
            for (int i = 0; i < n; i++) {
                h ^= b[i] & 0xff;
                h *= 0x100000001b3L;
            }
            return new ModuleImage(fileName, h, n);
        }
    }
}
