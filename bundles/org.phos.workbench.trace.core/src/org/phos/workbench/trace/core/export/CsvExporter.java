package org.phos.workbench.trace.core.export;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.OperationCanceledException;
import org.phos.workbench.trace.core.EventKind;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.LaunchKind;
import org.phos.workbench.trace.core.Trace;

/**
 * One CSV row per event (RFC 4180, header row first) with the fields of its kind; fields another kind has are left
 * empty. Addresses, handles and parameter bytes are hexadecimal, times are ns since the trace start, so the file
 * loads in pandas or a spreadsheet as a flat table of the trace.
 */
public final class CsvExporter implements TraceExporter {

	/** The columns, in order. */
	public static final List<String> COLUMNS = List.of("index", "kind", "host_ns", "thread", "stream",
			"gpu_start_ns", "gpu_end_ns", "function", "kernel", "grid_x", "grid_y", "grid_z", "block_x", "block_y",
			"block_z", "shared_mem", "launch_kind", "graph_launch", "param_bytes", "params", "address", "size",
			"alloc_kind", "copy_kind", "src", "dst", "bytes", "async", "payload_bytes", "memset_value",
			"element_size", "sync_kind", "cuda_event", "flags", "graph_exec", "kernel_nodes");

	@Override
	public String formatName() {
		return "csv";
	}

	@Override
	public long export(Trace trace, String traceName, OutputStream stream, IProgressMonitor monitor)
			throws IOException {
		ByteSink out = new ByteSink(stream, 1 << 20);
		out.ascii(String.join(",", COLUMNS)).ch('\n');
		byte[][] names = kernelNames(trace);
		byte[] scratch = new byte[4096];
		int n = trace.eventCount();
		int step = 1 << 16;
		monitor.beginTask("exporting " + traceName + " as CSV", Math.max(1, (n + step - 1) / step));
		try {
			for (int start = 0; start < n; start += step) {
				if (monitor.isCanceled()) {
					throw new OperationCanceledException();
				}
				int end = Math.min(n, start + step);
				for (int i = start; i < end; i++) {
					row(trace, i, out, names, scratch);
				}
				monitor.worked(1);
			}
			out.flush();
		} finally {
			monitor.done();
		}
		return n;
	}

	private static byte[][] kernelNames(Trace trace) {
		int maxId = 0;
		for (FunctionInfo f : trace.functions()) {
			maxId = Math.max(maxId, f.id());
		}
		byte[][] names = new byte[Math.min(maxId, 1 << 20) + 1][];
		for (FunctionInfo f : trace.functions()) {
			if (f.id() >= 0 && f.id() < names.length) {
				String name = f.displayName();
				boolean quote = name.indexOf(',') >= 0 || name.indexOf('"') >= 0 || name.indexOf('\n') >= 0
						|| name.indexOf('\r') >= 0;
				names[f.id()] = (quote ? "\"" + name.replace("\"", "\"\"") + "\"" : name)
						.getBytes(StandardCharsets.UTF_8);
			}
		}
		return names;
	}

	/** Writes {@code n} empty fields (each preceded by its comma). */
	private static void skip(ByteSink out, int n) throws IOException {
		for (int k = 0; k < n; k++) {
			out.ch(',');
		}
	}

	private static void row(Trace trace, int i, ByteSink out, byte[][] names, byte[] scratch) throws IOException {
		EventKind kind = trace.kind(i);
		out.decimal(i).ch(',').ascii(kind.name()).ch(',').decimal(trace.hostNs(i)).ch(',')
				.decimal(Integer.toUnsignedLong(trace.thread(i))).ch(',');
		if (kind != EventKind.UNKNOWN) {
			out.hexAddress(trace.stream(i));
		}
		boolean gpu = kind == EventKind.LAUNCH || kind == EventKind.MEMCPY || kind == EventKind.MEMSET;
		if (gpu && trace.gpuStartNs(i) != 0) {
			out.ch(',').unsignedDecimal(trace.gpuStartNs(i)).ch(',').unsignedDecimal(trace.gpuEndNs(i));
		} else {
			skip(out, 2);
		}
		// launch columns: function .. params (13)
		if (kind == EventKind.LAUNCH) {
			int f = trace.functionId(i);
			out.ch(',').decimal(Integer.toUnsignedLong(f)).ch(',');
			if (f >= 0 && f < names.length && names[f] != null) {
				out.raw(names[f]);
			}
			out.ch(',').decimal(Integer.toUnsignedLong(trace.gridX(i))).ch(',')
					.decimal(Integer.toUnsignedLong(trace.gridY(i))).ch(',')
					.decimal(Integer.toUnsignedLong(trace.gridZ(i))).ch(',')
					.decimal(Integer.toUnsignedLong(trace.blockX(i))).ch(',')
					.decimal(Integer.toUnsignedLong(trace.blockY(i))).ch(',')
					.decimal(Integer.toUnsignedLong(trace.blockZ(i))).ch(',')
					.decimal(Integer.toUnsignedLong(trace.sharedMem(i))).ch(',').ascii(trace.launchKind(i).name())
					.ch(',');
			if (trace.launchKind(i) == LaunchKind.GRAPH_NODE) {
				out.decimal(trace.graphLaunchEvent(i));
			}
			int length = trace.paramLength(i);
			out.ch(',').decimal(length).ch(',');
			byte[] buffer = length <= scratch.length ? scratch : new byte[length];
			trace.copyParams(i, buffer, 0);
			out.hexBytes(buffer, 0, length);
		} else {
			skip(out, 13);
		}
		// allocation columns: address, size, alloc_kind
		switch (kind) {
		case ALLOC -> out.ch(',').hexAddress(trace.address(i)).ch(',').unsignedDecimal(trace.size(i)).ch(',')
				.ascii(trace.allocKind(i).name());
		case FREE -> out.ch(',').hexAddress(trace.address(i)).ch(',').ch(',').ascii(trace.allocKind(i).name());
		default -> skip(out, 3);
		}
		// copy and fill columns: copy_kind, src, dst, bytes, async, payload_bytes, memset_value, element_size
		switch (kind) {
		case MEMCPY -> {
			out.ch(',').ascii(trace.copyKind(i).name()).ch(',').hexAddress(trace.src(i)).ch(',')
					.hexAddress(trace.dst(i)).ch(',').unsignedDecimal(trace.bytes(i)).ch(',')
					.ascii(trace.async(i) ? "true" : "false").ch(',').decimal(trace.payloadLength(i));
			skip(out, 2);
		}
		case MEMSET -> {
			out.ch(',').ch(',').ch(',').hexAddress(trace.dst(i)).ch(',').unsignedDecimal(trace.bytes(i)).ch(',')
					.ascii(trace.async(i) ? "true" : "false").ch(',').ch(',')
					.decimal(Integer.toUnsignedLong(trace.memsetValue(i))).ch(',')
					.decimal(Integer.toUnsignedLong(trace.memsetElementSize(i)));
		}
		default -> skip(out, 8);
		}
		// sync columns: sync_kind, cuda_event, flags
		if (kind == EventKind.SYNC) {
			out.ch(',').ascii(trace.syncKind(i).name()).ch(',').hexAddress(trace.cudaEvent(i)).ch(',')
					.decimal(Integer.toUnsignedLong(trace.syncFlags(i)));
		} else {
			skip(out, 3);
		}
		// graph columns: graph_exec, kernel_nodes
		if (kind == EventKind.GRAPH_LAUNCH) {
			out.ch(',').hexAddress(trace.graphExec(i)).ch(',')
					.decimal(Integer.toUnsignedLong(trace.graphKernelNodes(i)));
		} else {
			skip(out, 2);
		}
		out.ch('\n');
	}
}
