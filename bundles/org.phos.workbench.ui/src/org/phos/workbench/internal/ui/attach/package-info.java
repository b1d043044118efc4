/**
 * Attaching the workbench to a GPU process that records (File &gt; Attach to GPU Process…): the dialog listing this
 * user's live recording processes, and the live trace editor that follows one (bundle API.md, "Live attach").
 */
@NonNullByDefault
package org.phos.workbench.internal.ui.attach;

import org.eclipse.jdt.annotation.NonNullByDefault;
