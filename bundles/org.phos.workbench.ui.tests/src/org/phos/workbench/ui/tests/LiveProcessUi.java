package org.phos.workbench.ui.tests;

import java.nio.file.Path;

import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.handlers.IHandlerService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.phos.workbench.cr.core.process.CheckpointHelper;
import org.phos.workbench.internal.ui.launches.LaunchesView;
import org.phos.workbench.internal.ui.theme.PhoenixThemes;
import org.phos.workbench.internal.ui.theme.SwitchThemeHandler;

/**
 * What the UI tests of an attached process share: the workbench in front with its robot, native-hooks built once per
 * class (the recorder, the fake libcuda, {@code fake_app}, the driver-checkpoint helper), a temporary folder, and
 * after each test the workbench as the next test class expects it: no editor open, no attach folder or checkpoint
 * helper set, the light theme, and Launches on top of its folder (the Trace Timeline shares it).
 */
@ExtendWith(ScreenshotOnFailure.class)
abstract class LiveProcessUi {
    /** native-hooks' build folder. */
    static Path build;

    final WorkbenchUi ui = WorkbenchUi.inFront();
    final IWorkbenchWindow window = ui.window();
    final Shell shell = ui.shell();
    final UiRobot robot = ui.robot();

    @TempDir
    Path tmp;

    @BeforeAll
    static void buildNative() throws Exception {
        build = RecordingProcess.nativeBuild();
    }

    /** The driver-checkpoint helper of the build, over the fake libcuda (for the checkpoint tests). */
    void useCheckpointHelperOverTheFakeDriver() {
        System.setProperty(CheckpointHelper.HELPER_PROPERTY, build.resolve(CheckpointHelper.NAME).toString());
        System.setProperty(CheckpointHelper.LIBRARY_PROPERTY, build.resolve("fake").toString());
    }

    @AfterEach
    void leaveTheWorkbenchAsFound() throws Exception {
        if (PhoenixThemes.isDark()) {
            window.getService(IHandlerService.class).executeCommand(SwitchThemeHandler.LIGHT_COMMAND, null);
        }
        window.getActivePage().closeAllEditors(false);
        System.clearProperty("phos.attach.dir");
        System.clearProperty(CheckpointHelper.HELPER_PROPERTY);
        System.clearProperty(CheckpointHelper.LIBRARY_PROPERTY);
        window.getActivePage().showView(LaunchesView.ID);
    }
}
