import java.io.PrintWriter;

import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * Runs the JUnit 5 tests named on the command line ({@code CLASS#METHOD} or {@code CLASS}) on a machine without Maven
 * or the console launcher (the GPU machine: releng/gpu/live-exp.sh), tags included ({@code gpu} too): one line per
 * test with its outcome, the failures with their stack traces, exit status 1 when one failed or none ran.
 */
public final class JUnitSelect {
	public static void main(String[] args) {
		LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
		for (String a : args) {
			request.selectors(a.contains("#") ? DiscoverySelectors.selectMethod(a) : DiscoverySelectors.selectClass(a));
		}
		LauncherDiscoveryRequest r = request.build();
		Launcher launcher = LauncherFactory.create();
		SummaryGeneratingListener summary = new SummaryGeneratingListener();
		TestExecutionListener lines = new TestExecutionListener() {
			@Override
			public void executionFinished(TestIdentifier id, TestExecutionResult result) {
				if (id.isTest()) {
					System.out.println("TEST " + id.getDisplayName() + " " + id.getTags() + ": " + result.getStatus()
							+ result.getThrowable().map(t -> " " + t).orElse(""));
				}
			}

			@Override
			public void executionSkipped(TestIdentifier id, String reason) {
				System.out.println("TEST " + id.getDisplayName() + ": SKIPPED " + reason);
			}
		};
		launcher.execute(r, summary, lines);
		summary.getSummary().printTo(new PrintWriter(System.out));
		summary.getSummary().printFailuresTo(new PrintWriter(System.out), 30);
		long ok = summary.getSummary().getTestsSucceededCount();
		System.exit(summary.getSummary().getTotalFailureCount() == 0 && ok > 0 ? 0 : 1);
	}
}
