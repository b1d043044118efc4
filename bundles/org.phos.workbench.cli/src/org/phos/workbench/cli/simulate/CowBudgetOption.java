package org.phos.workbench.cli.simulate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.cli.Option;
import org.phos.workbench.cli.UsageException;
import org.phos.workbench.cli.ValueParser;
import org.phos.workbench.cr.core.CrPolicies;

/**
 * {@code --cow-budget SIZE|auto} of {@code simulate} and {@code live} (issue #13, i13-cow): the copy-on-write budget
 * of every soft policy (soft-cow, coordinated, soft-recopy, repeated) that names no {@code budget=}, written into its
 * spec so that the saved configuration says it. {@code auto}: the device memory the checkpoint instant leaves free,
 * less 2 GiB (simulated: the machine's {@code device-memory} less the bytes live at the instant; live: the driver's
 * free memory at the instant). Without the option a soft policy keeps PhOS's 14 GiB.
 */
final class CowBudgetOption {
	static final Option<String> COW_BUDGET = Option.optional("cow-budget", "SIZE|auto",
			"copy-on-write budget of every soft policy that names no budget=: bytes (14GiB, PhOS's and the default) "
					+ "or auto (free device memory at the instant less 2 GiB)",
			ValueParser.text());

	private static final Set<String> SOFT = Set.of("soft-cow", "coordinated", "soft-recopy", "repeated");

	private CowBudgetOption() {
	}

	/** {@code policies} ({@code ;}-separated specs) with {@code budget} added where a soft policy names none. */
	static String apply(String policies, @Nullable String budget) throws UsageException {
		if (budget == null) {
			return policies;
		}
		try {
			CrPolicies.budget(budget);
		} catch (IllegalArgumentException e) {
			throw new UsageException("--cow-budget '" + budget + "': expected a size such as 14GiB or auto ("
					+ e.getMessage() + ")");
		}
		List<String> out = new ArrayList<>();
		for (String spec : policies.split(";")) {
			String s = spec.trim();
			int colon = s.indexOf(':');
			String name = (colon < 0 ? s : s.substring(0, colon)).toLowerCase(Locale.ROOT);
			boolean named = colon >= 0 && (s.substring(colon + 1).toLowerCase(Locale.ROOT).startsWith("budget=")
					|| s.toLowerCase(Locale.ROOT).contains(",budget="));
			if (!SOFT.contains(name) || named) {
				out.add(s);
			} else {
				out.add(s + (colon < 0 ? ":" : colon == s.length() - 1 ? "" : ",") + "budget=" + budget.trim());
			}
		}
		return String.join(";", out);
	}
}
