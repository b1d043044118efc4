package org.phos.workbench.trace.core;

import java.util.Arrays;

/**
 * A code module loaded by the recorded process (the v1 {@code Module} message): the image handed to the driver
 * (PTX text, cubin or fatbin) with its FNV-1a-64 hash.
 *
 * @param id        unique within the trace, from 1
 * @param kind      what the image is
 * @param image     the image bytes (may be empty when not captured; {@link #imageSize()} still says how big)
 * @param hash      FNV-1a 64 of the image
 * @param origin    how it was loaded, e.g. {@code cuModuleLoadData}
 * @param imageSize size of the original image in bytes
 * @param ptx       the PTX the image was compiled from when the recorder found it outside the image (Triton's cache
 *                  beside a loaded cubin; i15-cost), else empty
 * @param ptxSource where that PTX came from (a file path), else empty
 */
public record ModuleInfo(int id, ModuleKind kind, byte[] image, long hash, String origin, long imageSize, byte[] ptx,
        String ptxSource) {

    /** A module without PTX found beside it. */
    public ModuleInfo(int id, ModuleKind kind, byte[] image, long hash, String origin, long imageSize) {
        this(id, kind, image, hash, origin, imageSize, new byte[0], "");
    }

    /** A module whose hash and size are computed from the image. */
    public static ModuleInfo of(int id, ModuleKind kind, byte[] image, String origin) {
        return new ModuleInfo(id, kind, image, fnv1a64(image), origin, image.length);
    }

    /** FNV-1a 64-bit hash, as the format uses for module content. */
    public static long fnv1a64(byte[] data) {
        long h = 0xcbf29ce484222325L;
        for (byte b : data) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ModuleInfo m && id == m.id && kind == m.kind && Arrays.equals(image, m.image)
                && hash == m.hash && origin.equals(m.origin) && imageSize == m.imageSize && Arrays.equals(ptx, m.ptx)
                && ptxSource.equals(m.ptxSource);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(hash) * 31 + id;
    }

    @Override
    public String toString() {
        return "ModuleInfo[id=" + id + ", kind=" + kind + ", image=" + image.length + " bytes, hash="
                + Long.toHexString(hash) + ", origin=" + origin + ", imageSize=" + imageSize + (ptx.length > 0 ? ", ptx=" + ptx.length + " bytes from "
                + ptxSource : "") + "]";
    }
}
