package org.phos.workbench.internal.analysis.core.experiment;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** An I/O failure in words, as the command line says it ({@code Main.describe}). */
public final class IoText {
	private IoText() {
	}

	public static String describe(IOException e) {
		if (e instanceof NoSuchFileException) {
			return e.getMessage() + ": no such file";
		}
		if (e instanceof AccessDeniedException) {
			return e.getMessage() + ": permission denied";
		}
		if (e instanceof FileSystemException fse && fse.getReason() != null) {
			return fse.getFile() + ": " + fse.getReason();
		}
		return e.getMessage() != null ? e.getMessage() : e.toString();
	}
}
