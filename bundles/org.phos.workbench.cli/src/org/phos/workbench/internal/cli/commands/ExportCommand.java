package org.phos.workbench.internal.cli.commands;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.eclipse.core.runtime.IProgressMonitor;
import org.phos.workbench.cli.Command;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.Main;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.ParsedArguments;
import org.phos.workbench.cli.Positional;
import org.phos.workbench.cli.UsageException;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.cr.core.io.OutputFile;
import org.phos.workbench.trace.core.export.TraceChromeExporter;
import org.phos.workbench.trace.core.export.CsvExporter;
import org.phos.workbench.trace.core.export.TraceExporter;
import org.phos.workbench.internal.cli.util.Human;
import org.phos.workbench.internal.cli.util.Outputs;
import org.phos.workbench.trace.core.Trace;

/**
 * {@code workbench export TRACE --format chrome-json|csv --out FILE}: converts a trace for other tools, streaming.
 */
public final class ExportCommand implements Command {

	static final Option<String> FORMAT = Option.optional("format", "FORMAT",
			"chrome-json (Perfetto, chrome://tracing, HTA) or csv; by default from the extension of --out "
					+ "(.json, .csv)",
			ValueParser.choice("chrome-json", "csv"));
	static final Option<Path> OUT = Option.required("out", "FILE", "where to write; - for standard output",
			ValueParser.path());

	static final Option<Boolean> PARAMS = Option.flag("params",
			"chrome-json: also write each launch's parameter bytes in hex (args.params); off by default: about "
					+ "120 bytes more per launch, a sixth of the file");

	/** Perfetto and chrome://tracing struggle with JSON files beyond about this size. */
	static final long LARGE_JSON = 1L << 30;

	@Override
	public String name() {
		return "export";
	}

	@Override
	public String summary() {
		return "convert a trace to Chrome Trace Event JSON (Perfetto) or CSV";
	}

	@Override
	public String description() {
		return """
				Convert a .phos trace for other tools, writing while walking the events (memory stays flat).
				chrome-json: Chrome Trace Event JSON shaped like PyTorch's profiler (Kineto) output, for
				ui.perfetto.dev, chrome://tracing and Holistic Trace Analysis: the GPU is a process with one thread
				per stream, kernels/copies/fills are slices with grid and block in args (--params adds the launch
				parameter bytes in hex), API calls are
				slices on the host threads, flows lead from each API call to its GPU operation. GPU operations without
				GPU times are placed at their host time with a note in args. csv: one row per event with its fields.
				The file is written next to FILE under a temporary name and moved into place when complete; FILE
				may not be the trace itself, a symbolic link, a device or a FIFO (docs/cli.md, "How outputs are
				written").""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(FORMAT, OUT, PARAMS);
	}

	@Override
	public List<Positional> positionals() {
		return List.of(Positional.one("TRACE", ".phos trace file"));
	}

	@Override
	public List<String> examples() {
		return List.of("export run.phos --format chrome-json --out run.json",
				"export run.phos --params --out run-with-params.json",
				"export run.phos --out run.csv", "export run.phos --format csv --out - | head");
	}

	/** The exporter for a {@code --format} word (Chrome JSON without parameter bytes). */
	public static TraceExporter exporter(String format) {
		return exporter(format, false);
	}

	/** The exporter for a {@code --format} word; {@code params}: Chrome JSON with the launch parameter bytes. */
	public static TraceExporter exporter(String format, boolean params) {
		return format.equals("csv") ? new CsvExporter() : new TraceChromeExporter(params);
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException, UsageException {
		Path traceFile = InputFiles.path(args.positionals().get(0), "TRACE");
		Path out = args.get(OUT);
		boolean toStdout = out.toString().equals("-");
		String format = args.find(FORMAT);
		if (format == null) {
			String name = out.getFileName() == null ? "" : out.getFileName().toString().toLowerCase(Locale.ROOT);
			if (name.endsWith(".json")) {
				format = "chrome-json";
			} else if (name.endsWith(".csv")) {
				format = "csv";
			} else {
				throw new UsageException("say which format to write with --format chrome-json or --format csv "
						+ "(it cannot be told from the name '" + out + "')");
			}
		}
		if (!toStdout) {
			Outputs.check(out, "--out", List.of(traceFile), context);
		}
		Trace trace = TraceLoader.load(traceFile, context).trace();
		boolean params = args.get(PARAMS);
		if (params && !format.equals("chrome-json")) {
			throw new UsageException("--params applies to --format chrome-json; csv always has the params column");
		}
		TraceExporter exporter = exporter(format, params);
		long started = System.nanoTime();
		long records;
		long bytes;
		IProgressMonitor monitor = context.progress();
		if (toStdout) {
			CountingStream counter = new CountingStream(context.out());
			try {
				records = exporter.export(trace, traceFile.getFileName().toString(), counter, monitor);
				counter.flush();
			} catch (IOException e) {
				throw new CommandFailedException("cannot write to standard output: " + Main.describe(e), e);
			}
			bytes = counter.count;
		} else {
			try (OutputFile file = OutputFile.create(out)) {
				records = exporter.export(trace, traceFile.getFileName().toString(), file.stream(), monitor);
				bytes = file.size();
				file.commit();
			} catch (IOException e) {
				throw new CommandFailedException("cannot write " + out + ": " + Main.describe(e), e);
			}
		}
		double seconds = (System.nanoTime() - started) / 1e9;
		PrintStream report = toStdout ? context.err() : context.out();
		report.printf(Locale.ROOT, "exported %s events of %s to %s (%s, %s records, %s) in %.2f s, %s events/s%n",
				Human.count(trace.eventCount()), traceFile, toStdout ? "standard output" : out, format,
				Human.count(records), bytes < 0 ? "?" : Human.bytes(bytes), seconds,
				Human.count((long) (trace.eventCount() / Math.max(seconds, 1e-9))));
		if (format.equals("chrome-json") && bytes > LARGE_JSON) {
			context.warn(out + " is " + Human.bytes(bytes) + "; Perfetto's and Chrome's JSON importers may fail on "
					+ "files this large: export a smaller trace, or use the csv format");
		}
		return ExitCode.OK;
	}

	/**
	 * Counts what goes to standard output, which has no size to ask for afterwards, and turns the errors a
	 * {@link PrintStream} swallows (a reader that closed the pipe, a full disk) into an {@link IOException}, so the
	 * export stops at the first failed write and fails.
	 */
	private static final class CountingStream extends OutputStream {
		private final PrintStream target;
		long count;

		CountingStream(PrintStream target) {
			this.target = target;
		}

		@Override
		public void write(int b) throws IOException {
			target.write(b);
			count++;
			check();
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			target.write(b, off, len);
			count += len;
			check();
		}

		@Override
		public void flush() throws IOException {
			target.flush();
			check();
		}

		private void check() throws IOException {
			if (target.checkError()) {
				throw new IOException("the write failed (the reading end of the pipe was closed, or the disk is "
						+ "full)");
			}
		}
	}
}
