/**
 * Ground truth for kernels that arrive as PTX: {@link org.phos.workbench.speculation.core.instrument.PtxInstrumenter}
 * rewrites a module so every global memory access is reduced on the device, per allocation, into an
 * {@link org.phos.workbench.speculation.core.instrument.AccessTable} (read and written address ranges and counts);
 * {@link org.phos.workbench.speculation.core.instrument.AddressRelocation} maps the recorded addresses of a trace to
 * the addresses of a replay and back, and the table read back after a launch decodes into
 * {@link org.phos.workbench.trace.core.ObservedAccess} records that
 * {@link org.phos.workbench.speculation.core.instrument.ObservedTraceWriter} appends to a trace. Nothing here touches
 * a GPU: the replay lives in {@code org.phos.workbench.live}.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.speculation.core.instrument;
