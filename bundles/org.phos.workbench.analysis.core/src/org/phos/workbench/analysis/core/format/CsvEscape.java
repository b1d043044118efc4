package org.phos.workbench.analysis.core.format;

/**
 * CSV field quoting (RFC 4180): a field holding a comma, a double quote, a carriage return or a line feed is wrapped
 * in double quotes with its double quotes doubled; any other field is written as it is. The one quoting routine of
 * the workbench: tables, exports and the command line all quote through it.
 */
public final class CsvEscape {

	private CsvEscape() {
	}

	/** @return whether {@code text} must be quoted to stay one field */
	public static boolean needsQuoting(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == ',' || c == '"' || c == '\n' || c == '\r') {
				return true;
			}
		}
		return false;
	}

	/** @return {@code text} as one CSV field */
	public static String field(String text) {
		return needsQuoting(text) ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
	}
}
