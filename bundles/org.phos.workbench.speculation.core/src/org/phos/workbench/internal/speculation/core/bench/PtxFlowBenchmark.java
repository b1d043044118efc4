package org.phos.workbench.internal.speculation.core.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.phos.workbench.speculation.core.ptx.PtxFlowAnalyzer;
import org.phos.workbench.speculation.core.ptx.PtxModule;
import org.phos.workbench.speculation.core.ptx.PtxParseException;
import org.phos.workbench.speculation.core.ptx.PtxParser;

/**
 * Throughput of {@code ptx-flow}: parses and analyses the given PTX files over and over and prints kernels per
 * second (wall and per CPU-second, the latter being stable on a loaded machine) (parse + analysis) and analysis alone. Usage: {@code PtxFlowBenchmark [--seconds N] file.ptx...}.
 */
public final class PtxFlowBenchmark {

	private PtxFlowBenchmark() {
	}

	/**
	 * @param args optional {@code --seconds N}, then PTX files
	 * @throws IOException when a file cannot be read
	 * @throws PtxParseException when a file is not PTX
	 */
	public static void main(String[] args) throws IOException, PtxParseException {
		double seconds = 5;
		List<String> texts = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			if (args[i].equals("--seconds") && i + 1 < args.length) {
				seconds = Double.parseDouble(args[++i]);
			} else {
				texts.add(Files.readString(Path.of(args[i])));
			}
		}
		if (texts.isEmpty()) {
			System.err.println("usage: PtxFlowBenchmark [--seconds N] file.ptx...");
			System.exit(2);
		}
		long bytes = texts.stream().mapToLong(String::length).sum();
		List<PtxModule> modules = new ArrayList<>();
		int kernels = 0;
		for (String t : texts) {
			PtxModule m = PtxParser.parse("bench", t);
			modules.add(m);
			kernels += m.entries().size();
		}
		System.out.printf("%d files, %d kernels, %d KiB of PTX%n", texts.size(), kernels, bytes / 1024);
		run("warm-up", texts, modules, seconds / 2, kernels, bytes, true);
		run("parse+analyse", texts, modules, seconds, kernels, bytes, true);
		run("analyse only", texts, modules, seconds, kernels, bytes, false);
	}

	private static void run(String label, List<String> texts, List<PtxModule> modules, double seconds, int kernels,
			long bytes, boolean parse) throws PtxParseException {
		java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
		long deadline = System.nanoTime() + (long) (seconds * 1e9);
		long start = System.nanoTime();
		long cpuStart = threads.getCurrentThreadCpuTime();
		long rounds = 0;
		long sink = 0;
		while (System.nanoTime() < deadline) {
			for (int i = 0; i < texts.size(); i++) {
				PtxModule m = parse ? PtxParser.parse("bench", texts.get(i)) : modules.get(i);
				sink += PtxFlowAnalyzer.analyze(m).size();
			}
			rounds++;
		}
		double elapsed = (System.nanoTime() - start) / 1e9;
		double cpu = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e9;
		// the CPU-time figure is the one to compare on a shared, loaded machine
		System.out.printf("%-14s %10.0f kernels/s wall, %10.0f kernels/CPU-s, %6.1f MB/CPU-s of PTX (%d rounds, check %d)%n",
				label, rounds * kernels / elapsed, rounds * kernels / cpu, parse ? rounds * bytes / cpu / 1e6 : 0.0,
				rounds, sink);
	}
}
