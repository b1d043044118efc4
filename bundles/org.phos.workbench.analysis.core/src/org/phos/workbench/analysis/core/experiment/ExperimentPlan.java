package org.phos.workbench.analysis.core.experiment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cr.core.CheckpointInstant;
import org.phos.workbench.cr.core.CrPolicy;
import org.phos.workbench.cr.core.MachineModel;
import org.phos.workbench.cr.core.trace.TraceWorkload;
import org.phos.workbench.internal.analysis.core.experiment.AccessSets;
import org.phos.workbench.internal.analysis.core.experiment.PolicyRuns;
import org.phos.workbench.speculation.core.EngineCatalog;
import org.phos.workbench.trace.core.Trace;

/**
 * An {@link ExperimentConfig} read and checked: its policies by run name, its machine, its set sources. Every
 * invalid option is refused with the message {@code simulate} prints for it, naming the option, so the command line
 * and the New Experiment dialog say the same thing.
 * <p>
 * Two levels of checks: {@link #of(ExperimentConfig)} and the per-option {@code check...} methods need no trace
 * (the dialog calls them as the person types); {@link #check(Trace, String)} adds what only the trace can say (a
 * launch index past its last launch, an unknown engine, observed sets on a trace without observed accesses, a trace
 * without launches).
 */
public final class ExperimentPlan {
	/** The narrowest and widest charts {@code --width} accepts. */
	public static final int MIN_WIDTH_PX = 400;
	public static final int MAX_WIDTH_PX = 10_000;

	private final ExperimentConfig config;
	private final Map<String, CrPolicy> policies;
	private final Map<String, String> instants;
	private final MachineModel machine;
	private final List<AccessSets> sets;

	private ExperimentPlan(ExperimentConfig config, Map<String, CrPolicy> policies, Map<String, String> instants,
			MachineModel machine, List<AccessSets> sets) {
		this.config = config;
		this.policies = Collections.unmodifiableMap(policies);
		this.instants = Collections.unmodifiableMap(instants);
		this.machine = machine;
		this.sets = List.copyOf(sets);
	}

	/**
	 * Reads every option in {@code simulate}'s order (policies with the instant, machine, sets, width) and refuses
	 * the first invalid one.
	 */
	public static ExperimentPlan of(ExperimentConfig config) throws ExperimentException {
		Map<String, String> instants = new LinkedHashMap<>();
		Map<String, CrPolicy> policies = PolicyRuns.parse(config.policies(), config.at(), instants);
		MachineModel machine = machine(config.machine());
		List<AccessSets> sets = AccessSets.parse(config.sets());
		ExperimentProblem width = checkWidth(config.widthPx());
		if (width != null) {
			throw new ExperimentException(width);
		}
		return new ExperimentPlan(config, policies, instants, machine, sets);
	}

	/** Every problem of the options, one per option at most, without a trace; empty when all are valid. */
	public static List<ExperimentProblem> check(ExperimentConfig config) {
		List<ExperimentProblem> problems = new ArrayList<>();
		addIfAny(problems, checkAt(config.at()));
		if (problems.isEmpty()) {
			addIfAny(problems, checkPolicies(config.policies(), config.at()));
		}
		addIfAny(problems, checkMachine(config.machine()));
		addIfAny(problems, checkSets(config.sets()));
		addIfAny(problems, checkWidth(config.widthPx()));
		return problems;
	}

	/**
	 * Every problem of the options and of running them over {@code trace}: the option problems of
	 * {@link #check(ExperimentConfig)}, else the first problem the trace shows.
	 */
	public static List<ExperimentProblem> check(ExperimentConfig config, Trace trace, String traceName) {
		List<ExperimentProblem> problems = check(config);
		if (problems.isEmpty()) {
			try {
				of(config).check(trace, traceName);
			} catch (ExperimentException e) {
				problems.add(e.problem());
			}
		}
		return problems;
	}

	/** {@code --policy} (with {@code --at}, which each policy without {@code at=} takes): null when valid. */
	public static @Nullable ExperimentProblem checkPolicies(String policies, @Nullable String at) {
		try {
			PolicyRuns.parse(policies, at);
			return null;
		} catch (ExperimentException e) {
			return e.problem();
		}
	}

	/** {@code --at}: null when absent or valid. */
	public static @Nullable ExperimentProblem checkAt(@Nullable String at) {
		if (at == null) {
			return null;
		}
		try {
			CheckpointInstant.parse(at);
			return null;
		} catch (IllegalArgumentException e) {
			return ExperimentProblem.of(ExperimentOption.AT, "option --at: " + e.getMessage());
		}
	}

	/** {@code --machine}: null when valid. */
	public static @Nullable ExperimentProblem checkMachine(String machine) {
		try {
			machine(machine);
			return null;
		} catch (ExperimentException e) {
			return e.problem();
		}
	}

	/** {@code --sets}: null when valid (engine names are checked against a trace by {@link #check(Trace, String)}). */
	public static @Nullable ExperimentProblem checkSets(String sets) {
		try {
			AccessSets.parse(sets);
			return null;
		} catch (ExperimentException e) {
			return e.problem();
		}
	}

	/** {@code --width}: null when in [{@value #MIN_WIDTH_PX}, {@value #MAX_WIDTH_PX}]. */
	public static @Nullable ExperimentProblem checkWidth(int widthPx) {
		if (widthPx >= MIN_WIDTH_PX && widthPx <= MAX_WIDTH_PX) {
			return null;
		}
		return ExperimentProblem.of(ExperimentOption.WIDTH, "option --width expects an integer from " + MIN_WIDTH_PX
				+ " to " + MAX_WIDTH_PX + ", got '" + widthPx + "'");
	}

	/** The policy names {@code --policy} knows, sorted, comma-separated. */
	public static String knownPolicies() {
		return PolicyRuns.known();
	}

	/** The set source words {@code --sets} knows. */
	public static String knownSets() {
		return AccessSets.WORDS;
	}

	private static void addIfAny(List<ExperimentProblem> problems, @Nullable ExperimentProblem p) {
		if (p != null) {
			problems.add(p);
		}
	}

	private static MachineModel machine(String spec) throws ExperimentException {
		try {
			return MachineModel.parse(spec);
		} catch (IllegalArgumentException e) {
			throw new ExperimentException(ExperimentProblem.of(ExperimentOption.MACHINE,
					"option --machine: " + e.getMessage()));
		}
	}

	/**
	 * Refuses what only the trace can refuse, in {@code simulate}'s order: no launches, a trace the simulator
	 * cannot compute with, a launch-index instant at or past the last launch, an unknown engine.
	 *
	 * @param traceName the trace as the person named it, for messages
	 */
	public void check(Trace trace, String traceName) throws ExperimentException {
		check(trace, traceName, EngineCatalog.standard());
	}

	/** As {@link #check(Trace, String)}, with the engines of {@code catalog}. */
	public void check(Trace trace, String traceName, EngineCatalog catalog) throws ExperimentException {
		if (trace.launchCount() == 0) {
			throw ExperimentException.failure(traceName + ": the trace holds no launches, so there is nothing to "
					+ "simulate" + (trace.observedAccesses().isEmpty() ? ""
							: " (it holds observed accesses only: merge them into the trace they were recorded from)"));
		}
		String refused = TraceWorkload.outOfRange(trace);
		if (refused != null) {
			throw ExperimentException.failure(traceName + ": cannot simulate this trace: " + refused);
		}
		checkLaunchInstants(trace.launchCount());
		for (AccessSets source : sets) {
			source.check(trace, traceName, catalog);
		}
	}

	/**
	 * Refuses a launch-index instant at or past the trace's last launch: the run would end without a checkpoint (or
	 * restore) and say nothing.
	 */
	void checkLaunchInstants(long launches) throws ExperimentException {
		for (Map.Entry<String, String> e : instants.entrySet()) {
			CrPolicy policy = policies.get(e.getKey());
			CheckpointInstant at = instantOf(e.getValue());
			if (policy != null && at != null && at.byLaunchIndex() && at.value() >= launches) {
				throw new ExperimentException(ExperimentProblem.of(optionOf(e.getValue()), "option " + e.getValue()
						+ ": the trace has " + launches + " launch" + (launches == 1 ? "" : "es") + " (launch:0 to launch:"
						+ (launches - 1) + "), so " + at + " is never reached and " + e.getKey()
						+ " would take no checkpoint"));
			}
		}
	}

	/** The option an instant was given with ({@code --at X} or {@code --policy ...at=X...}). */
	static ExperimentOption optionOf(String given) {
		return given.startsWith("--at ") ? ExperimentOption.AT : ExperimentOption.POLICIES;
	}

	/** The instant in {@code --at X} or {@code --policy ...at=X...}; null when it cannot be read back. */
	static @Nullable CheckpointInstant instantOf(String given) {
		String text = given.startsWith("--at ") ? given.substring(5) : given;
		int at = text.indexOf("at=");
		if (!given.startsWith("--at ")) {
			if (at < 0) {
				return null;
			}
			text = text.substring(at + 3);
			int comma = text.indexOf(',');
			text = comma < 0 ? text : text.substring(0, comma);
		}
		try {
			return CheckpointInstant.parse(text);
		} catch (IllegalArgumentException e) {
			return null;
		}
	}

	public ExperimentConfig config() {
		return config;
	}

	/** The policies by run name ({@code simulate}'s: the spec as written, {@code #2} for a repeat), in order. */
	public Map<String, CrPolicy> policies() {
		return policies;
	}

	/** Where each run's instant was given ({@code --at 200ms} or {@code --policy soft-cow:at=launch:9}), by run. */
	public Map<String, String> instants() {
		return instants;
	}

	public MachineModel machine() {
		return machine;
	}

	/** The set sources as written ({@code observed}, {@code engine:phos}, ...), in order, without repeats. */
	public List<String> setLabels() {
		return sets.stream().map(AccessSets::label).toList();
	}

	/** The internal set sources, for the runner. */
	List<AccessSets> sets() {
		return sets;
	}

	/** Whether the runs make a comparison (several policies or several set sources). */
	public boolean comparison() {
		return policies.size() * sets.size() > 1;
	}

	/** The run names in the order they run: every policy with the first set source, then with the next, ... */
	public List<String> runNames() {
		List<String> names = new ArrayList<>();
		for (AccessSets source : sets) {
			for (String p : policies.keySet()) {
				names.add(sets.size() > 1 ? p + " [" + source.label() + "]" : p);
			}
		}
		return names;
	}
}
