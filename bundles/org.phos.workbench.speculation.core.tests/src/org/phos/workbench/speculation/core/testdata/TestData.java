package org.phos.workbench.speculation.core.testdata;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Test resources of this fragment, found on the class path (Tycho) or, with the quicktest loop that copies only
 * classes, in the source tree under {@code -Dphos.repo}.
 */
public final class TestData {

	private static final String FOLDER = "org/phos/workbench/speculation/core/testdata/";

	private TestData() {
	}

	/**
	 * @param name a file name in this folder
	 * @return its text
	 */
	public static String read(String name) {
		try (InputStream in = TestData.class.getClassLoader().getResourceAsStream(FOLDER + name)) {
			if (in != null) {
				return new String(in.readAllBytes(), StandardCharsets.UTF_8);
			}
			String repo = System.getProperty("phos.repo", ".");
			for (Path p : new Path[] {
					Path.of(repo, "bundles/org.phos.workbench.speculation.core.tests/src", FOLDER, name),
					Path.of("src", FOLDER, name) }) {
				if (Files.isRegularFile(p)) {
					return Files.readString(p);
				}
			}
			throw new IllegalStateException("test resource " + name + " not found on the class path nor under "
					+ repo);
		} catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}
}
