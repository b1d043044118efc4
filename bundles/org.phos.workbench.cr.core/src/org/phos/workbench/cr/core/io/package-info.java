/**
 * Writing result files safely: each file is written under a hidden temporary name in its target's folder and renamed
 * into place when complete ({@link org.phos.workbench.cr.core.io.OutputFile}), and a target that is not an ordinary
 * file or is one of the inputs is refused ({@link org.phos.workbench.cr.core.io.OutputFiles}). Shared by every
 * command of the command-line tool that writes a file, the chart files and the PTX instrumentation (live).
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.cr.core.io;
