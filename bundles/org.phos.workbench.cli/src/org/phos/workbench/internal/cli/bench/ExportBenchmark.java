package org.phos.workbench.internal.cli.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import javax.management.JMException;
import javax.management.ObjectName;

import org.eclipse.core.runtime.NullProgressMonitor;
import org.phos.workbench.trace.core.export.TraceExporter;
import org.phos.workbench.trace.core.Trace;

/**
 * Measures an exporter on a loaded trace: events per second (wall and CPU time of the process, median of
 * the runs after warm-up), bytes written, and two memory figures that show whether the export streams: the bytes
 * the exporting thread allocated during one export ({@code com.sun.management.ThreadMXBean}) and the peak heap
 * growth over the heap in use before the export (after GC, peak usage of the heap pools). Output goes to a real
 * file in {@code directory}, a new one for each timed run (the previous one is deleted before the clock starts).
 */
public final class ExportBenchmark {

	/** The figures of one exporter on one trace. */
	public record ExportFigures(String format, long launches, long events, long outputBytes, int runs,
			double[] wallSeconds, double medianEventsPerSecond, double[] cpuSeconds, double medianEventsPerCpuSecond,
			long allocatedBytes, long peakHeapGrowthBytes) {
	}

	private ExportBenchmark() {
	}

	public static ExportFigures measure(Trace trace, TraceExporter exporter, Path directory, int runs, int warmups)
			throws IOException {
		if (runs < 1 || warmups < 0) {
			throw new IllegalArgumentException("runs must be >= 1 and warmups >= 0: " + runs + ", " + warmups);
		}
		Path file = Files.createTempFile(directory, "phos-bench-export-", "." + exporter.formatName());
		try {
			for (int w = 0; w < warmups; w++) {
				exportOnce(trace, exporter, file);
			}
			ThreadMXBean threads = ManagementFactory.getThreadMXBean();
			double[] wall = new double[runs];
			double[] cpu = new double[runs];
			long bytes = 0;
			for (int r = 0; r < runs; r++) {
				// each run writes a new file, as the export command does (it writes a temporary file and moves it
				// into place): truncating the previous run's output is the file system's work, not the export's
				Files.deleteIfExists(file);
				long c = threads.getCurrentThreadCpuTime();
				long p = processCpuNanos();
				long t = System.nanoTime();
				bytes = exportOnce(trace, exporter, file);
				wall[r] = (System.nanoTime() - t) / 1e9;
				// the exporter may write its output from a second thread: count the process (all threads, which
				// includes the JVM's own) when the JVM tells it, else the exporting thread
				long processCpu = processCpuNanos();
				cpu[r] = (p >= 0 && processCpu >= 0 ? processCpu - p : threads.getCurrentThreadCpuTime() - c) / 1e9;
			}
			// memory: one more export with the heap measured around it
			long baseline = usedAfterGc();
			for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
				if (pool.getType() == MemoryType.HEAP) {
					pool.resetPeakUsage();
				}
			}
			long allocatedBefore = allocatedBytes();
			exportOnce(trace, exporter, file);
			long allocated = allocatedBetween(allocatedBefore, allocatedBytes());
			long peak = 0;
			for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
				if (pool.getType() == MemoryType.HEAP) {
					peak += pool.getPeakUsage().getUsed();
				}
			}
			int n = trace.eventCount();
			return new ExportFigures(exporter.formatName(), trace.launchCount(), n, bytes, runs, wall,
					n / median(wall), cpu, n / median(cpu), allocated, Math.max(0, peak - baseline));
		} finally {
			Files.deleteIfExists(file);
		}
	}

	private static long exportOnce(Trace trace, TraceExporter exporter, Path file) throws IOException {
		try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
			exporter.export(trace, file.getFileName().toString(), out, new NullProgressMonitor());
		}
		return Files.size(file);
	}

	/**
	 * @param before {@link #allocatedBytes()} before
	 * @param after and after
	 * @return the bytes allocated between the two readings, or -1 when either is unknown (a runtime without the
	 *         {@code jdk.management} module, such as the packed one of the GPU machine, cannot tell: -1 - -1 is not 0)
	 */
	static long allocatedBetween(long before, long after) {
		return before < 0 || after < 0 ? -1 : after - before;
	}

	/**
	 * Bytes allocated so far by this thread, or -1 when the JVM cannot tell. Read through JMX (the Threading MXBean's
	 * {@code CurrentThreadAllocatedBytes} attribute of HotSpot) so that no {@code com.sun} class is needed.
	 */
	static long allocatedBytes() {
		try {
			Object value = ManagementFactory.getPlatformMBeanServer()
					.getAttribute(new ObjectName(ManagementFactory.THREAD_MXBEAN_NAME), "CurrentThreadAllocatedBytes");
			return value instanceof Long bytes ? bytes : -1;
		} catch (JMException | RuntimeException e) {
			return -1;
		}
	}

	/** CPU time of the whole JVM process in ns (JMX {@code ProcessCpuTime}), or -1 when the JVM cannot tell. */
	static long processCpuNanos() {
		try {
			Object value = ManagementFactory.getPlatformMBeanServer().getAttribute(
					new ObjectName(ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME), "ProcessCpuTime");
			return value instanceof Long nanos ? nanos : -1;
		} catch (JMException | RuntimeException e) {
			return -1;
		}
	}

	static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int n = sorted.length;
		return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	}

	static long usedAfterGc() {
		Runtime rt = Runtime.getRuntime();
		long used = Long.MAX_VALUE;
		for (int k = 0; k < 3; k++) {
			System.gc();
			try {
				Thread.sleep(30);
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				break;
			}
			used = Math.min(used, rt.totalMemory() - rt.freeMemory());
		}
		return used;
	}
}
