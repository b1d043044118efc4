package org.phos.workbench.live.agent;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.security.ProtectionDomain;
import java.util.Properties;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * Which JCuda the program loads. The version comes from the {@code META-INF/maven/org.jcuda/jcuda/pom.properties}
 * entry of the jar that holds {@code JCudaDriver} (JCuda's own jars carry it); reading it loads no JCuda class, so
 * asking does not initialise JCuda's native library ahead of the program.
 */
public final class JCudaVersion {

    /** The JCuda versions whose driver signatures the agent was written and tested against. */
    public static final Set<String> SUPPORTED = Set.of("12.0.0");

    static final String POM_PROPERTIES = "META-INF/maven/org.jcuda/jcuda/pom.properties";

    private JCudaVersion() {
    }

    /**
     * The version of the JCuda jar that defines {@code JCudaDriver} in this protection domain (or, when the code
     * source is not a jar, the first pom.properties the loader sees); "unknown" when none says.
     */
    public static String of(ProtectionDomain domain, ClassLoader loader) {
        try {
            URL location = domain == null || domain.getCodeSource() == null ? null
                    : domain.getCodeSource().getLocation();
            if (location != null && "file".equals(location.getProtocol()) && location.getPath().endsWith(".jar")) {
                try (JarFile jar = new JarFile(new java.io.File(location.toURI()))) {
                    ZipEntry e = jar.getEntry(POM_PROPERTIES);
                    if (e != null) {
                        try (InputStream in = jar.getInputStream(e)) {
                            return version(in);
                        }
                    }
                    return "unknown";
                }
            }
            URL pom = loader == null ? ClassLoader.getSystemResource(POM_PROPERTIES) : loader.getResource(POM_PROPERTIES);
            if (pom != null) {
                try (InputStream in = pom.openStream()) {
                    return version(in);
                }
            }
        } catch (IOException | java.net.URISyntaxException | RuntimeException e) {
            return "unknown (" + e.getMessage() + ")";
        }
        return "unknown";
    }

    private static String version(InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        return p.getProperty("version", "unknown").trim();
    }
}
