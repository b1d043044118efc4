/**
 * C/R experiments in the workbench: the Experiments view (saved experiments of the open traces), the New Experiment
 * dialog, and the job that runs one.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.experiment;
