/** Tests that drive the real Phoenix Workbench with real input events, and the robot they use. */
package org.phos.workbench.ui.tests;
