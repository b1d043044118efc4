package org.phos.workbench.internal.speculation.core.engines;

import java.util.List;

import org.eclipse.jdt.annotation.Nullable;
import org.phos.workbench.trace.core.FunctionInfo;
import org.phos.workbench.trace.core.ParamInfo;

/**
 * Which parameter each 8-byte word of a function's parameter buffer belongs to, from the recorded layout.
 */
final class ParamLayout {

	private static final int[] NONE = new int[0];

	private ParamLayout() {
	}

	/** @return for each word index ({@code offset / 8}), the parameter index holding its first byte, or -1 */
	static int[] wordParams(@Nullable FunctionInfo function) {
		if (function == null || function.params().isEmpty()) {
			return NONE;
		}
		List<ParamInfo> params = function.params();
		int end = 0;
		for (ParamInfo p : params) {
			end = Math.max(end, p.offset() + p.size());
		}
		int[] words = new int[(end + 7) / 8];
		java.util.Arrays.fill(words, -1);
		for (int i = 0; i < params.size(); i++) {
			ParamInfo p = params.get(i);
			for (int w = p.offset() / 8; w * 8 < p.offset() + p.size() && w < words.length; w++) {
				if (words[w] < 0 || w * 8 >= p.offset()) {
					words[w] = i;
				}
			}
		}
		return words;
	}

	/** @return the parameter of a word, -1 when outside the layout */
	static int paramOf(int[] wordParams, int offset) {
		int w = offset >>> 3;
		return w < wordParams.length ? wordParams[w] : -1;
	}
}
