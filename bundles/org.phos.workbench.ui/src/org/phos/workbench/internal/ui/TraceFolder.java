package org.phos.workbench.internal.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.eclipse.core.runtime.Platform;
import org.eclipse.osgi.service.datalocation.Location;
import org.phos.workbench.ui.PhoenixUi;

/**
 * A folder of recorded traces: lists its {@code .phos} files (not recursive) with their sizes. The folder shown
 * first is the one named by the {@code phos.samples} system property, else the product's or the working
 * directory's {@code sample-traces/}.
 */
public final class TraceFolder {

    /** One trace file as the Traces view lists it. */
    public record TraceFile(String name, Path path, long sizeBytes) {
        /** Size for people: bytes below 1 KiB, else KiB/MiB/GiB with one decimal. */
        public String displaySize() {
            return formatSize(sizeBytes);
        }
    }

    private TraceFolder() {
    }

    /** Lists the {@code .phos} files directly in {@code folder}, sorted by name. */
    public static List<TraceFile> list(Path folder) throws IOException {
        List<TraceFile> files = new ArrayList<>();
        try (Stream<Path> entries = Files.list(folder)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                String name = p.getFileName().toString();
                if (name.endsWith(".phos") && Files.isRegularFile(p)) {
                    files.add(new TraceFile(name, p, Files.size(p)));
                }
            }
        }
        files.sort(Comparator.comparing(TraceFile::name));
        return files;
    }

    /** The folder the Traces view opens with. */
    public static Path defaultFolder() {
        String configured = System.getProperty(PhoenixUi.SAMPLES_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath();
        }
        Location install = Platform.getInstallLocation();
        if (install != null && install.getURL() != null && "file".equals(install.getURL().getProtocol())) {
            Path inProduct = Path.of(install.getURL().getPath()).resolve("sample-traces");
            if (Files.isDirectory(inProduct)) {
                return inProduct;
            }
        }
        return Path.of(System.getProperty("user.dir"), "sample-traces").toAbsolutePath();
    }

    static String formatSize(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = { "KiB", "MiB", "GiB", "TiB" };
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
