package org.phos.workbench.trace.core;

import java.util.List;

/**
 * Who recorded a trace, where and on what (the v1 {@code TraceHeader} message, the first chunk of every file).
 * All {@code *Ns} times of events count nanoseconds from {@link #startMonoNs()} in {@link #clockDomain()}.
 * Unsigned protobuf fields are held in {@code int}/{@code long} of the same width.
 * <p>
 * Build one with {@link #builder(String, String)}.
 */
public record TraceHeader(int formatVersion, String recorder, String recorderVersion, String host, int pid,
        List<String> argv, String deviceName, int ccMajor, int ccMinor, int driverVersion, int runtimeVersion,
        String clockDomain, long startUnixNs, long startMonoNs, long payloadLimit, boolean gpuTiming,
        long deviceMemory, GpuTimingSampling timingSampling,
        String allocatorEvents /* i15-alloc: field 45, "" when not asked for */,
        String workingDirectory /* field 46: the process's working directory at the start, "" when not recorded */) {

    /** The format version this code reads and writes. */
    public static final int FORMAT_VERSION = 1;

    public TraceHeader {
        argv = List.copyOf(argv);
    }

    /** A header of a recorder that does not record the working directory ({@link #workingDirectory()} empty). */
    public TraceHeader(int formatVersion, String recorder, String recorderVersion, String host, int pid,
            List<String> argv, String deviceName, int ccMajor, int ccMinor, int driverVersion, int runtimeVersion,
            String clockDomain, long startUnixNs, long startMonoNs, long payloadLimit, boolean gpuTiming,
            long deviceMemory, GpuTimingSampling timingSampling, String allocatorEvents) {
        this(formatVersion, recorder, recorderVersion, host, pid, argv, deviceName, ccMajor, ccMinor, driverVersion,
                runtimeVersion, clockDomain, startUnixNs, startMonoNs, payloadLimit, gpuTiming, deviceMemory,
                timingSampling, allocatorEvents, "");
    }

    // i15-alloc: begin
    /**
     * A header of a trace whose recorder was not asked for allocator block events ({@link #allocatorEvents()} empty).
     */
    public TraceHeader(int formatVersion, String recorder, String recorderVersion, String host, int pid,
            List<String> argv, String deviceName, int ccMajor, int ccMinor, int driverVersion, int runtimeVersion,
            String clockDomain, long startUnixNs, long startMonoNs, long payloadLimit, boolean gpuTiming,
            long deviceMemory, GpuTimingSampling timingSampling) {
        this(formatVersion, recorder, recorderVersion, host, pid, argv, deviceName, ccMajor, ccMinor, driverVersion,
                runtimeVersion, clockDomain, startUnixNs, startMonoNs, payloadLimit, gpuTiming, deviceMemory,
                timingSampling, "");
    }
    // i15-alloc: end

    /** A header whose GPU times (if any) cover every launch: {@link GpuTimingSampling#EVERY_LAUNCH}. */
    public TraceHeader(int formatVersion, String recorder, String recorderVersion, String host, int pid,
            List<String> argv, String deviceName, int ccMajor, int ccMinor, int driverVersion, int runtimeVersion,
            String clockDomain, long startUnixNs, long startMonoNs, long payloadLimit, boolean gpuTiming,
            long deviceMemory) {
        this(formatVersion, recorder, recorderVersion, host, pid, argv, deviceName, ccMajor, ccMinor, driverVersion,
                runtimeVersion, clockDomain, startUnixNs, startMonoNs, payloadLimit, gpuTiming, deviceMemory,
                GpuTimingSampling.EVERY_LAUNCH);
    }

    /** A builder with format version 1, clock domain {@code CLOCK_MONOTONIC} and everything else empty. */
    public static Builder builder(String recorder, String recorderVersion) {
        return new Builder(recorder, recorderVersion);
    }

    /** Mutable builder for {@link TraceHeader}; every setter returns {@code this}. */
    public static final class Builder {
        private int formatVersion = FORMAT_VERSION;
        private String recorder;
        private String recorderVersion;
        private String host = "";
        private int pid;
        private List<String> argv = List.of();
        private String deviceName = "";
        private int ccMajor;
        private int ccMinor;
        private int driverVersion;
        private int runtimeVersion;
        private String clockDomain = "CLOCK_MONOTONIC";
        private long startUnixNs;
        private long startMonoNs;
        private long payloadLimit;
        private boolean gpuTiming;
        private long deviceMemory;
        private GpuTimingSampling timingSampling = GpuTimingSampling.EVERY_LAUNCH;
        private String allocatorEvents = ""; // i15-alloc
        private String workingDirectory = "";

        Builder(String recorder, String recorderVersion) {
            this.recorder = recorder;
            this.recorderVersion = recorderVersion;
        }

        public Builder formatVersion(int v) { formatVersion = v; return this; }
        public Builder host(String v) { host = v; return this; }
        public Builder pid(int v) { pid = v; return this; }
        public Builder argv(List<String> v) { argv = v; return this; }
        public Builder deviceName(String v) { deviceName = v; return this; }
        public Builder computeCapability(int major, int minor) { ccMajor = major; ccMinor = minor; return this; }
        public Builder driverVersion(int v) { driverVersion = v; return this; }
        public Builder runtimeVersion(int v) { runtimeVersion = v; return this; }
        public Builder clockDomain(String v) { clockDomain = v; return this; }
        public Builder startUnixNs(long v) { startUnixNs = v; return this; }
        public Builder startMonoNs(long v) { startMonoNs = v; return this; }
        public Builder payloadLimit(long v) { payloadLimit = v; return this; }
        public Builder gpuTiming(boolean v) { gpuTiming = v; return this; }
        public Builder deviceMemory(long v) { deviceMemory = v; return this; }
        public Builder timingSampling(GpuTimingSampling v) { timingSampling = v; return this; }
        /** i15-alloc: the allocator whose block events the recorder was asked for ({@code "pytorch"}), else "". */
        public Builder allocatorEvents(String v) { allocatorEvents = v; return this; }
        /** The recorded process's working directory at the start (field 46), "" when not recorded. */
        public Builder workingDirectory(String v) { workingDirectory = v; return this; }

        public TraceHeader build() {
            return new TraceHeader(formatVersion, recorder, recorderVersion, host, pid, argv, deviceName, ccMajor,
                    ccMinor, driverVersion, runtimeVersion, clockDomain, startUnixNs, startMonoNs, payloadLimit,
                    gpuTiming, deviceMemory, timingSampling, allocatorEvents, workingDirectory);
        }
    }
}
