package org.phos.workbench.internal.ui;

import org.eclipse.equinox.app.IApplication;
import org.eclipse.equinox.app.IApplicationContext;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.application.IWorkbenchConfigurer;
import org.eclipse.ui.application.IWorkbenchWindowConfigurer;
import org.eclipse.ui.application.WorkbenchAdvisor;
import org.eclipse.ui.application.WorkbenchWindowAdvisor;
import org.phos.workbench.ui.PhoenixUi;

/**
 * The Phoenix Workbench application: one workbench window titled "Phoenix Workbench" that opens in the Phoenix
 * perspective. Started by the product (through the Equinox launcher jar) and by the UI test harness.
 */
public final class PhoenixApplication implements IApplication {

    @Override
    public Object start(IApplicationContext context) {
        Display display = PlatformUI.createDisplay();
        org.phos.workbench.internal.ui.theme.PhoenixThemes.prepareNativeWidgets(); // before any widget exists
        try {
            int code = PlatformUI.createAndRunWorkbench(display, new PhoenixWorkbenchAdvisor());
            if (code == PlatformUI.RETURN_RESTART) {
                return IApplication.EXIT_RESTART;
            }
            String snapshot = System.getProperty("phos.snapshot.exit");
            return snapshot == null || snapshot.equals("0") ? IApplication.EXIT_OK : Integer.valueOf(1);
        } finally {
            display.dispose();
        }
    }

    @Override
    public void stop() {
        if (!PlatformUI.isWorkbenchRunning()) {
            return;
        }
        var workbench = PlatformUI.getWorkbench();
        Display display = workbench.getDisplay();
        display.syncExec(() -> {
            if (!display.isDisposed()) {
                workbench.close();
            }
        });
    }

    /** Opens the Phoenix perspective and does not restore a previous session's layout. */
    static final class PhoenixWorkbenchAdvisor extends WorkbenchAdvisor {
        @Override
        public String getInitialWindowPerspectiveId() {
            return PhoenixUi.PERSPECTIVE_ID;
        }

        @Override
        public void initialize(IWorkbenchConfigurer configurer) {
            configurer.setSaveAndRestore(false);
        }

        @Override
        public WorkbenchWindowAdvisor createWorkbenchWindowAdvisor(IWorkbenchWindowConfigurer configurer) {
            return new WorkbenchWindowAdvisor(configurer) {
                @Override
                public void preWindowOpen() {
                    IWorkbenchWindowConfigurer window = getWindowConfigurer();
                    window.setInitialSize(new Point(1260, 960)); // fits a 1280x1024 virtual display (the tests), every view readable
                    window.setShowCoolBar(false);
                    window.setShowStatusLine(true);
                    window.setTitle(PhoenixUi.WINDOW_TITLE);
                    // i11-launches: .phos files dropped onto the editor area open as traces
                    window.addEditorAreaTransfer(org.eclipse.swt.dnd.FileTransfer.getInstance());
                    window.configureEditorAreaDropListener(org.phos.workbench.internal.ui.trace.TraceOpening
                            .dropListener(() -> window.getWindow().getActivePage(), message -> org.eclipse.jface
                                    .dialogs.MessageDialog.openError(window.getWindow().getShell(), "Open Trace",
                                            message)));
                    // end i11-launches
                }

                @Override
                public void postWindowOpen() {
                    // the theme is applied here, on the UI thread, before a snapshot starts: in preStartup the
                    // platform reset it to its default afterwards; views follow the switch (PhoenixThemes.onChange)
                    org.phos.workbench.internal.ui.theme.PhoenixThemes.applyStartupChoice();
                    org.phos.workbench.internal.ui.snapshot.Snapshot.startIfRequested(getWindowConfigurer().getWindow());
                }
            };
        }
    }
}
