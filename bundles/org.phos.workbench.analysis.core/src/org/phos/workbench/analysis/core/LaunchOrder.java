package org.phos.workbench.analysis.core;

import java.util.Arrays;
import java.util.function.IntFunction;
import java.util.regex.Pattern;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.Trace;

/**
 * Builds the launch indices a {@link LaunchQuery}'s filter and sort select, as an {@code int[]}: primitive arrays
 * only (10 million launches sort in a few seconds without boxing), a stable sort on a {@code long} key so that ties
 * keep launch order.
 */
final class LaunchOrder {

	private LaunchOrder() {
	}

	static int[] build(Trace trace, LaunchQuery q, IntFunction<String> kernelName, @Nullable ValidationAnswer verdicts,
			IProgressMonitor monitor) {
		int launches = trace.launchCount();
		monitor.beginTask("Filtering launches", Math.max(1, launches >> 16) * 2);
		LaunchQuery.Filter f = q.filter();
		Pattern kernel = f.kernel() == null ? null : Pattern.compile(f.kernel());
		java.util.Map<Integer, Boolean> kernelMatch = new java.util.HashMap<>();
		String verdict = f.verdict();
		int[] out = new int[launches];
		int n = 0;
		for (int l = 0; l < launches; l++) {
			if ((l & 0xffff) == 0xffff) {
				if (monitor.isCanceled()) {
					throw new OperationCanceledException();
				}
				monitor.worked(1);
			}
			int e = trace.launchEvent(l);
			if (f.stream() != null && trace.stream(e) != f.stream()) {
				continue;
			}
			long host = trace.hostNs(e);
			if (host < f.fromHostNs() || host >= f.toHostNs()) {
				continue;
			}
			if (kernel != null && !kernelMatch.computeIfAbsent(trace.functionId(e),
					id -> kernel.matcher(kernelName.apply(id)).find())) {
				continue;
			}
			if (verdict != null) {
				if (verdicts == null) {
					throw new IllegalArgumentException("a verdict filter needs an engine to judge launches by");
				}
				LaunchVerdict v = verdicts.verdict(0, l);
				if (verdict.equals("unsafe") ? !v.unsafe() : !v.label().equals(verdict)) {
					continue;
				}
			}
			out[n++] = l;
		}
		out = Arrays.copyOf(out, n);
		LaunchQuery.Sort sort = q.sort();
		if (sort.column().equals("launch") && !sort.descending()) {
			monitor.done();
			return out;
		}
		long[] key = new long[n];
		int[] kernelRank = sort.column().equals("kernel") ? kernelRanks(trace, kernelName) : null;
		for (int i = 0; i < n; i++) {
			int l = out[i];
			int e = trace.launchEvent(l);
			long k = switch (sort.column()) {
			case "launch", "event" -> l;
			case "host_ns" -> trace.hostNs(e);
			case "gpu_start_ns" -> trace.gpuStartNs(e);
			case "gpu_end_ns" -> trace.gpuEndNs(e);
			case "gpu_ns" -> {
				long s = trace.gpuStartNs(e);
				long end = trace.gpuEndNs(e);
				yield s == 0 || end < s ? 0 : end - s;
			}
			case "stream" -> trace.stream(e) ^ Long.MIN_VALUE; // unsigned order
			case "function" -> trace.functionId(e);
			case "kernel" -> {
				int id = trace.functionId(e);
				yield id >= 0 && id < kernelRank.length ? kernelRank[id] : Integer.MAX_VALUE;
			}
			case "verdict" -> verdicts == null ? 0 : verdicts.verdict(0, l).ordinal();
			default -> throw new IllegalArgumentException(sort.column());
			};
			key[i] = sort.descending() ? ~k : k; // ~ keeps ties stable in launch order and reverses the rest
		}
		if (monitor.isCanceled()) {
			throw new OperationCanceledException();
		}
		sortByKey(out, key);
		monitor.done();
		return out;
	}

	/** Ranks of function ids by kernel name (ids without a function last). */
	private static int[] kernelRanks(Trace trace, IntFunction<String> kernelName) {
		int max = -1;
		for (var f : trace.functions()) {
			max = Math.max(max, f.id());
		}
		Integer[] ids = new Integer[max + 1];
		for (int i = 0; i <= max; i++) {
			ids[i] = i;
		}
		Arrays.sort(ids, (a, b) -> kernelName.apply(a).compareTo(kernelName.apply(b)));
		int[] rank = new int[max + 1];
		for (int r = 0; r < ids.length; r++) {
			rank[ids[r]] = r;
		}
		return rank;
	}

	/** Stable sort of {@code values} by {@code keys} (a bottom-up merge sort on both arrays). */
	static void sortByKey(int[] values, long[] keys) {
		int n = values.length;
		int[] v2 = new int[n];
		long[] k2 = new long[n];
		int[] vs = values;
		long[] ks = keys;
		for (int width = 1; width < n; width *= 2) {
			for (int lo = 0; lo < n; lo += 2 * width) {
				int mid = Math.min(lo + width, n);
				int hi = Math.min(lo + 2 * width, n);
				int i = lo;
				int j = mid;
				int o = lo;
				while (i < mid && j < hi) {
					if (ks[j] < ks[i]) {
						k2[o] = ks[j];
						v2[o++] = vs[j++];
					} else {
						k2[o] = ks[i];
						v2[o++] = vs[i++];
					}
				}
				while (i < mid) {
					k2[o] = ks[i];
					v2[o++] = vs[i++];
				}
				while (j < hi) {
					k2[o] = ks[j];
					v2[o++] = vs[j++];
				}
			}
			int[] tv = vs;
			vs = v2;
			v2 = tv;
			long[] tk = ks;
			ks = k2;
			k2 = tk;
		}
		if (vs != values) {
			System.arraycopy(vs, 0, values, 0, n);
		}
	}
}
