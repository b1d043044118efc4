/** UI tests of the trace timeline (UI harness, UI thread, real input through UiRobot) and its repaint benchmark. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.ui.timeline.tests;
