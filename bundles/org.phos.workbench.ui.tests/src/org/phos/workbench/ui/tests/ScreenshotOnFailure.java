package org.phos.workbench.ui.tests;

import java.nio.file.Files;
import java.nio.file.Path;

import org.eclipse.swt.widgets.Display;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Keeps the evidence of a failed UI test: a PNG of the whole (virtual) screen as it was when the test failed, in the
 * folder named by {@code phos.screenshots} (the test bundle's {@code target/screenshots} in the Maven build), named
 * {@code FAILED-Class-method.png}. Register it with {@code @ExtendWith(ScreenshotOnFailure.class)} on a UI test
 * class; the screen is read on the UI thread, whichever thread reports the failure.
 */
public final class ScreenshotOnFailure implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        Display display = Display.getDefault();
        String name = "FAILED-" + context.getRequiredTestClass().getSimpleName() + "-"
                + context.getTestMethod().map(m -> m.getName()).orElse("class");
        Runnable shot = () -> save(display, name);
        if (display.getThread() == Thread.currentThread()) {
            shot.run();
        } else {
            display.syncExec(shot);
        }
    }

    private static void save(Display display, String name) {
        try {
            Path dir = Path.of(System.getProperty("phos.screenshots", System.getProperty("java.io.tmpdir")));
            Files.createDirectories(dir);
            Path file = dir.resolve(name.replaceAll("[^A-Za-z0-9._-]", "_") + ".png");
            UiRobot.savePng(display, display.getBounds(), file);
            System.out.println("UI test failed; screen saved: " + file);
        } catch (Exception | org.eclipse.swt.SWTError e) {
            // the failure itself is what matters; a missing screenshot must not hide it
            System.out.println("UI test failed; no screenshot (" + e + ")");
        }
    }
}
