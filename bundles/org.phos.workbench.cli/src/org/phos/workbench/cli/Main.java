package org.phos.workbench.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.jdt.annotation.Nullable;

/**
 * The entry point of the headless workbench: {@code workbench [--debug] COMMAND [OPTIONS] [ARGUMENTS]}.
 * <p>
 * Runs on a plain class path (no OSGi). {@link #run(String[], PrintStream, PrintStream, boolean)} does everything but
 * exit, so that tests can call it and check the exit code and the messages. Exit codes are in {@link ExitCode}.
 * Failures are reported as one readable line; {@code --debug} (anywhere before {@code --}) adds the stack trace.
 */
public final class Main {

	/** Name of the program in usage lines and messages. */
	public static final String PROGRAM = System.getProperty("phos.cli.name", "workbench");

	private final List<Command> commands;

	public Main(List<Command> commands) {
		List<Command> all = new ArrayList<>(commands);
		all.add(new HelpCommand(PROGRAM, List.copyOf(commands)));
		this.commands = List.copyOf(all);
	}

	public static void main(String[] args) {
		int code = new Main(BuiltinCommands.all()).run(args, System.out, System.err, stderrIsTerminal());
		System.out.flush();
		System.err.flush();
		System.exit(code);
	}

	/**
	 * Runs one command line.
	 *
	 * @param showProgress whether long jobs draw progress on {@code err}
	 * @return the exit code
	 */
	public int run(String[] argv, PrintStream out, PrintStream err, boolean showProgress) {
		List<String> args = new ArrayList<>(Arrays.asList(argv));
		boolean debug = removeFlag(args, "--debug") || "1".equals(System.getenv("PHOS_DEBUG"));
		if (args.isEmpty()) {
			err.print(HelpFormatter.commandList(PROGRAM, commandsWithoutHelp()));
			return ExitCode.USAGE;
		}
		String name = args.remove(0);
		if (name.equals("--help") || name.equals("-h")) {
			name = "help";
		} else if (name.equals("--version")) {
			out.println(PROGRAM + " " + version());
			return ExitCode.OK;
		}
		Command command = find(name);
		if (command == null) {
			err.println(PROGRAM + ": " + unknownCommandMessage(name, commands));
			err.println("Run '" + PROGRAM + " help' for the list of commands.");
			return ExitCode.USAGE;
		}
		if (wantsHelp(args)) {
			out.print(HelpFormatter.commandHelp(PROGRAM, command));
			return ExitCode.OK;
		}
		String prefix = PROGRAM + " " + command.name() + ": ";
		CommandContext context = new CommandContext(PROGRAM, out, err, showProgress, debug);
		try {
			ParsedArguments parsed = new ArgumentParser(command).parse(args);
			int code = command.run(parsed, context);
			// PrintStream swallows write errors (a closed pipe, a full disk): a report that did not arrive is a failure
			if (out.checkError() && code == ExitCode.OK) {
				err.println(prefix + "error: cannot write to standard output (the reading end of the pipe was "
						+ "closed, or the disk is full)");
				return ExitCode.FAILURE;
			}
			return code;
		} catch (UsageException e) {
			err.println(prefix + e.getMessage());
			err.println("Usage: " + HelpFormatter.usageLine(PROGRAM, command));
			err.println("Run '" + PROGRAM + " " + command.name() + " --help' for details.");
			debugTrace(e, err, debug);
			return ExitCode.USAGE;
		} catch (CommandFailedException e) {
			err.println(prefix + "error: " + e.getMessage());
			debugTrace(e, err, debug);
			return ExitCode.FAILURE;
		} catch (UncheckedIOException e) {
			err.println(prefix + "error: " + describe(e.getCause()));
			debugTrace(e, err, debug);
			return ExitCode.FAILURE;
		} catch (OutOfMemoryError e) {
			err.println(prefix + "error: " + outOfMemoryMessage(e));
			debugTrace(e, err, debug);
			return ExitCode.FAILURE;
		} catch (LinkageError e) {
			err.println(prefix + "internal error: a class is missing from the class path (" + e.getMessage()
					+ "); the workbench script sets the class path, run the command through it");
			debugTrace(e, err, debug);
			return ExitCode.FAILURE;
		} catch (RuntimeException | StackOverflowError e) {
			err.println(prefix + "internal error: " + e + (debug ? "" : " (run with --debug for the stack trace)"));
			debugTrace(e, err, debug);
			return ExitCode.FAILURE;
		}
	}

	/**
	 * The out-of-memory hint: names {@code PHOS_JAVA_OPTS}, the variable the {@code workbench} script passes to the
	 * JVM (it does not read {@code JAVA_OPTS}).
	 */
	static String outOfMemoryMessage(OutOfMemoryError e) {
		return "out of memory (" + e.getMessage() + "); give the JVM more heap, e.g. PHOS_JAVA_OPTS=-Xmx16g "
				+ PROGRAM + " ..., or work on a smaller trace";
	}

	private static void debugTrace(Throwable e, PrintStream err, boolean debug) {
		if (debug) {
			e.printStackTrace(err);
		}
	}

	/** A readable one-line description of an I/O failure, naming the file when the exception knows it. */
	public static String describe(IOException e) {
		if (e instanceof java.nio.file.NoSuchFileException) {
			return e.getMessage() + ": no such file";
		}
		if (e instanceof java.nio.file.AccessDeniedException) {
			return e.getMessage() + ": permission denied";
		}
		if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
			return fse.getFile() + ": " + fse.getReason();
		}
		return e.getMessage() != null ? e.getMessage() : e.toString();
	}

	static String unknownCommandMessage(String name, List<Command> commands) {
		List<String> names = commands.stream().map(Command::name).toList();
		String close = Suggestions.closest(name, names);
		return "unknown command '" + name + "'" + (close == null ? "" : "; did you mean '" + close + "'?");
	}

	private @Nullable Command find(String name) {
		for (Command command : commands) {
			if (command.name().equals(name)) {
				return command;
			}
		}
		return null;
	}

	private List<Command> commandsWithoutHelp() {
		return commands.subList(0, commands.size() - 1);
	}

	private static boolean wantsHelp(List<String> args) {
		for (String arg : args) {
			if (arg.equals("--")) {
				return false;
			}
			if (arg.equals("--help") || arg.equals("-h")) {
				return true;
			}
		}
		return false;
	}

	private static boolean removeFlag(List<String> args, String flag) {
		boolean found = false;
		for (int i = 0; i < args.size(); i++) {
			if (args.get(i).equals("--")) {
				break;
			}
			if (args.get(i).equals(flag)) {
				args.remove(i--);
				found = true;
			}
		}
		return found;
	}

	private static String version() {
		String v = Main.class.getPackage().getImplementationVersion();
		return v != null ? v : "0.1.0";
	}

	/**
	 * Whether stderr is a terminal. Java 21 can only tell whether the process has a console; on Linux
	 * {@code /proc/self/fd/2} says where stderr itself goes. {@code PHOS_PROGRESS=0|1} overrides.
	 */
	static boolean stderrIsTerminal() {
		String forced = System.getenv("PHOS_PROGRESS");
		if (forced != null) {
			return forced.equals("1");
		}
		try {
			String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
			return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
		} catch (IOException | UnsupportedOperationException | SecurityException e) {
			return System.console() != null;
		}
	}
}
