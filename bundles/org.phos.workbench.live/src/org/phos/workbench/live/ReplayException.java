package org.phos.workbench.live;

/** A GPU operation of a replay failed; the message names the operation, the trace event and the driver's error. */
public final class ReplayException extends Exception {

	private static final long serialVersionUID = 1L;

	/** @param message what failed */
	public ReplayException(String message) {
		super(message);
	}

	/**
	 * @param message what failed
	 * @param cause the driver's exception
	 */
	public ReplayException(String message, Throwable cause) {
		super(message, cause);
	}
}
