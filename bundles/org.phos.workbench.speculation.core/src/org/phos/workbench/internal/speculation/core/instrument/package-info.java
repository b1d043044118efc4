/** PTX rewriting behind {@link org.phos.workbench.speculation.core.instrument.PtxInstrumenter}. */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.speculation.core.instrument;
