package org.phos.workbench.speculation.core.ptx;

/** PTX text that the parser cannot read; the message names the source, line and what was expected. */
public final class PtxParseException extends Exception {

	private static final long serialVersionUID = 1L;

	private final int line;

	/**
	 * @param source what was parsed (a file name or module id)
	 * @param line 1-based line
	 * @param message what went wrong
	 */
	public PtxParseException(String source, int line, String message) {
		super(source + ":" + line + ": " + message);
		this.line = line;
	}

	/** @return the 1-based line of the problem */
	public int line() {
		return line;
	}
}
