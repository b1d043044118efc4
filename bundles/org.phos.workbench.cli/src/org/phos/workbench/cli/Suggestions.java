package org.phos.workbench.cli;

import java.util.Collection;

import org.eclipse.jdt.annotation.Nullable;

/**
 * "Did you mean ...?" for mistyped commands and options: the known word closest to the typed one by edit distance,
 * when it is close enough to be a plausible typo, or the only known word that starts with it.
 */
public final class Suggestions {

	private Suggestions() {
	}

	public static @Nullable String closest(String typed, Collection<String> known) {
		String best = null;
		int bestDistance = Integer.MAX_VALUE;
		String prefixMatch = null;
		int prefixMatches = 0;
		for (String candidate : known) {
			int d = distance(typed, candidate);
			if (d < bestDistance) {
				bestDistance = d;
				best = candidate;
			}
			if (!typed.isEmpty() && candidate.startsWith(typed)) {
				prefixMatch = candidate;
				prefixMatches++;
			}
		}
		int tolerance = Math.max(1, Math.min(3, typed.length() / 3));
		if (best != null && bestDistance <= tolerance) {
			return best;
		}
		return prefixMatches == 1 ? prefixMatch : null;
	}

	/** Damerau-Levenshtein (optimal string alignment) distance: a swap of two letters counts as one edit. */
	static int distance(String a, String b) {
		int[][] d = new int[a.length() + 1][b.length() + 1];
		for (int i = 0; i <= a.length(); i++) {
			d[i][0] = i;
		}
		for (int j = 0; j <= b.length(); j++) {
			d[0][j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			for (int j = 1; j <= b.length(); j++) {
				int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
				d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
				if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
					d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
				}
			}
		}
		return d[a.length()][b.length()];
	}
}
