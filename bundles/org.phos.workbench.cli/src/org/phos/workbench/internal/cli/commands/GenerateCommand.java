package org.phos.workbench.internal.cli.commands;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.eclipse.core.runtime.IProgressMonitor;
import org.phos.workbench.cli.Command;
import org.phos.workbench.cli.CommandContext;
import org.phos.workbench.cli.CommandFailedException;
import org.phos.workbench.cli.ExitCode;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.ParsedArguments;
import org.phos.workbench.cli.Positional;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.internal.cli.util.Human;
import org.phos.workbench.internal.cli.util.Outputs;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceGenerator;
import org.phos.workbench.trace.core.synthetic.SyntheticTraceOptions;

/**
 * {@code workbench generate --launches N --out FILE}: a deterministic synthetic trace from the trace core's
 * generator, for tests, benchmarks and trying the workbench without a GPU.
 */
public final class GenerateCommand implements Command {

	private static final SyntheticTraceOptions DEFAULTS = SyntheticTraceOptions.defaults(0);

	static final Option<Long> LAUNCHES = Option.required("launches", "N",
			"kernel launches to generate (graph nodes included); 10M and 1k are understood",
			ValueParser.integer(0, 2_000_000_000L));
	static final Option<Long> SEED = Option.withDefault("seed", "S", "random seed: same options, same file",
			ValueParser.integer(Long.MIN_VALUE, Long.MAX_VALUE), DEFAULTS.seed());
	static final Option<Long> ALLOCATIONS = Option.withDefault("allocations", "K",
			"allocations the simulated process keeps live", ValueParser.integer(1, 50_000_000),
			(long) DEFAULTS.liveAllocations());
	static final Option<Long> STREAMS = Option.withDefault("streams", "M",
			"streams besides the legacy default stream", ValueParser.integer(1, 1024), (long) DEFAULTS.streams());
	static final Option<Long> THREADS = Option.withDefault("threads", "T", "host threads issuing calls",
			ValueParser.integer(1, 1024), (long) DEFAULTS.threads());
	static final Option<Long> FUNCTIONS = Option.withDefault("functions", "F", "distinct kernel functions",
			ValueParser.integer(1, 100_000), (long) DEFAULTS.functions());
	static final Option<Long> GRAPH_EVERY = Option.withDefault("graph-every", "G",
			"a graph launch after about every G launches; 0 for none", ValueParser.integer(0, Integer.MAX_VALUE),
			(long) DEFAULTS.graphEvery());
	static final Option<Boolean> NO_GPU_TIMING = Option.flag("no-gpu-timing",
			"leave GPU start/end times out, as a recorder without GPU timing does");
	static final Option<Boolean> COMPRESS = Option.flag("compress", "zstd-compress the event chunks");
	static final Option<Long> OBSERVED_EVERY = Option.withDefault("observed-every", "N",
			"write synthetic observed accesses (tool 'synthetic') for every Nth launch, 1 for all; 0 for none. "
					+ "Random extents and directions: ground truth for timing validate, not for accuracy",
			ValueParser.integer(0, Integer.MAX_VALUE), 0L);
	static final Option<Path> OUT = Option.required("out", "FILE", "the .phos file to write", ValueParser.path());

	@Override
	public String name() {
		return "generate";
	}

	@Override
	public String summary() {
		return "write a deterministic synthetic trace (allocations, copies, launches, streams, graphs)";
	}

	@Override
	public String description() {
		return """
				Write a synthetic .phos trace: a simulated process that creates streams and CUDA events, keeps a
				number of allocations live (allocating, freeing and reusing addresses), copies small host buffers
				holding device pointers to the device, launches kernels whose parameters hold pointers, integers and
				structs, records and waits for events across streams, synchronizes, and launches graphs. The same
				options give the same file, byte for byte. FILE is written under a temporary name and moved into
				place when complete; it may not be a symbolic link, a device or a FIFO (docs/cli.md, "How outputs
				are written").""";
	}

	@Override
	public List<Option<?>> options() {
		return List.of(LAUNCHES, SEED, ALLOCATIONS, STREAMS, THREADS, FUNCTIONS, GRAPH_EVERY, NO_GPU_TIMING, COMPRESS,
				OBSERVED_EVERY, OUT);
	}

	@Override
	public List<Positional> positionals() {
		return List.of();
	}

	@Override
	public List<String> examples() {
		return List.of("generate --launches 100k --seed 7 --out small.phos",
				"generate --launches 10M --allocations 100000 --streams 8 --out big.phos",
				"generate --launches 10M --observed-every 10 --out truth.phos");
	}

	@Override
	public int run(ParsedArguments args, CommandContext context) throws CommandFailedException {
		Path out = args.get(OUT);
		Outputs.check(out, "--out", List.of(), context);
		SyntheticTraceOptions options = new SyntheticTraceOptions(args.get(LAUNCHES),
				args.get(ALLOCATIONS).intValue(), args.get(STREAMS).intValue(), args.get(THREADS).intValue(),
				args.get(FUNCTIONS).intValue(), args.get(GRAPH_EVERY).intValue(), DEFAULTS.payloadLimit(),
				!args.get(NO_GPU_TIMING), args.get(COMPRESS), args.get(SEED), args.get(OBSERVED_EVERY).intValue());
		long started = System.nanoTime();
		SyntheticTraceGenerator.Result result;
		IProgressMonitor monitor = context.progress();
		try {
			result = Outputs.write(out, temporary -> SyntheticTraceGenerator.generate(temporary, options, monitor));
		} finally {
			monitor.done();
		}
		double seconds = (System.nanoTime() - started) / 1e9;
		context.out().printf(Locale.ROOT, "generated %s: %s events, %s launches, %s in %.2f s (seed %d)%n", out,
				Human.count(result.events()), Human.count(result.launches()), Human.bytes(result.bytes()), seconds,
				options.seed());
		return ExitCode.OK;
	}
}
