/**
 * What the workbench's views share: a trace opened in the workbench ({@link LoadedTrace}) and the typed selections
 * that coordinate the views ({@link LaunchSelection}, {@link TimeSelection}). A part publishes a selection through
 * its site's selection provider as a one-element {@code IStructuredSelection} holding one of these records; other
 * parts listen through the page's {@code ISelectionService} and react to the record types they understand.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.ui.model;
