package org.phos.workbench.cli;

import java.util.List;

import org.phos.workbench.internal.cli.commands.BenchCommand;
import org.phos.workbench.internal.cli.commands.ExportCommand;
import org.phos.workbench.internal.cli.commands.GenerateCommand;
import org.phos.workbench.internal.cli.commands.InfoCommand;
import org.phos.workbench.internal.cli.commands.MergeObservedCommand;

/**
 * The commands of {@code workbench}, in the order {@code workbench help} lists them. To add a command, write a class
 * implementing {@link Command} and add an instance here; {@code help} is added by {@link Main}.
 */
public final class BuiltinCommands {

	private BuiltinCommands() {
	}

	public static List<Command> all() {
		return List.of(
				new InfoCommand(),
				new ExportCommand(),
				new org.phos.workbench.internal.cli.commands.LaunchesCommand(),
				new org.phos.workbench.internal.cli.commands.AccessesCommand(),
				new org.phos.workbench.internal.cli.commands.BuffersCommand(), // i11-buffers
				new GenerateCommand(),
				new org.phos.workbench.cli.speculation.SpeculateCommand(),
				new org.phos.workbench.cli.speculation.ValidateCommand(),
				new org.phos.workbench.cli.simulate.SimulateCommand(),
				new org.phos.workbench.cli.simulate.ExperimentCommand(), // i12-exp-core
				new org.phos.workbench.internal.cli.commands.ReportCommand(), // i12-report
				new MergeObservedCommand(),
				new BenchCommand());
	}
}
