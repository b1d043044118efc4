package org.phos.workbench.internal.cli.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The machine a benchmark ran on, as {@code nproc}, {@code free -g} and {@code java -version} would say it, plus the
 * CPU model and the load average (other work on a shared machine skews wall-clock figures).
 */
public record MachineInfo(int processors, long memoryBytes, String cpuModel, String jvm, long maxHeapBytes,
		double loadAverage) {

	public static MachineInfo current() {
		long memory = 0;
		String cpu = "unknown CPU";
		try {
			for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
				if (line.startsWith("MemTotal:")) {
					memory = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
				}
			}
			List<String> cpuInfo = Files.readAllLines(Path.of("/proc/cpuinfo"));
			for (String line : cpuInfo) {
				if (line.startsWith("model name")) {
					cpu = line.substring(line.indexOf(':') + 1).strip();
					break;
				}
			}
		} catch (IOException | RuntimeException e) {
			// not Linux: leave what we know
		}
		String jvm = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
		return new MachineInfo(Runtime.getRuntime().availableProcessors(), memory, cpu, jvm,
				Runtime.getRuntime().maxMemory(), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
	}

	/** One line: {@code 2 processors, 23 GiB memory, <cpu>, <jvm>, max heap 6 GiB, load average 1.2}. */
	public String describe() {
		return String.format(Locale.ROOT, "%d processors (nproc), %d GiB memory (free -g), %s; %s, max heap %d MiB; "
				+ "load average %.2f", processors, memoryBytes >> 30, cpuModel, jvm, maxHeapBytes >> 20, loadAverage);
	}
}
