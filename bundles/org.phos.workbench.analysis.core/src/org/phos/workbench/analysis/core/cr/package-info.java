/**
 * Where speculation meets checkpoint/restore: an engine's speculated accesses as the launch access sets a C/R
 * simulation consumes ({@link org.phos.workbench.analysis.core.cr.EngineAccessSource}).
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.analysis.core.cr;
