/**
 * The {@code simulate} command: a trace replayed under checkpoint/restore policies on a machine model, with the
 * timeline, metrics, consistency check and charts written to a folder; several policies make a comparison.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.cli.simulate;
