/** The trace timeline view: public identifiers ({@link TimelineUi}). */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.ui.timeline;
