package org.phos.workbench.analysis.core.format;

/**
 * Kernel names short enough for a table column. C++ kernels (PyTorch, cuDNN) have demangled names of hundreds of
 * characters whose distinguishing part is the function name, not the template arguments: shortening drops the
 * {@code void} return type, then collapses the deepest template argument lists to {@code <...>} level by level, then
 * the parameter list to {@code (...)}, and only then clips the end.
 */
public final class KernelNames {

	private KernelNames() {
	}

	public static String shorten(String name, int width) {
		String text = PrintableText.printable(name).replace("(anonymous namespace)", "{anonymous}");
		if (text.startsWith("void ") && text.length() > width) {
			text = text.substring(5);
		}
		while (text.length() > width) {
			String collapsed = collapseDeepest(text, '<', '>');
			if (collapsed.equals(text)) {
				break;
			}
			text = collapsed;
		}
		if (text.length() > width) {
			text = collapseDeepest(text, '(', ')');
		}
		return PrintableText.clip(text, width);
	}

	/** Replaces the contents of every bracket pair at the deepest level that is not already {@code ...}. */
	private static String collapseDeepest(String text, char open, char close) {
		int deepest = 0;
		int depth = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == open) {
				depth++;
				if (!text.startsWith("...", i + 1) || text.indexOf(close, i) != i + 4) {
					deepest = Math.max(deepest, depth);
				}
			} else if (c == close && depth > 0) {
				depth--;
			}
		}
		if (deepest == 0) {
			return text;
		}
		StringBuilder out = new StringBuilder(text.length());
		depth = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == open) {
				depth++;
				if (depth == deepest) {
					int end = matching(text, i, open, close);
					if (end > 0) {
						out.append(open).append("...").append(close);
						i = end;
						depth--;
						continue;
					}
				}
			} else if (c == close && depth > 0) {
				depth--;
			}
			out.append(c);
		}
		return out.toString();
	}

	private static int matching(String text, int at, char open, char close) {
		int depth = 0;
		for (int i = at; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == open) {
				depth++;
			} else if (c == close && --depth == 0) {
				return i;
			}
		}
		return -1;
	}
}
