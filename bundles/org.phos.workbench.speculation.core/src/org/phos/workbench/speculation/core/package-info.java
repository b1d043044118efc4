/**
 * Speculation engines: each turns a kernel launch (parameter bytes and layout, function, module image, the
 * allocations live at that point) into the buffer accesses it predicts, as PhoenixOS must do before a concurrent
 * checkpoint. Engines are pluggable ({@link org.phos.workbench.speculation.core.SpeculationEngine}), created by name
 * from the {@link org.phos.workbench.speculation.core.EngineRegistry}, and run side by side over one trace by a
 * {@link org.phos.workbench.speculation.core.TraceSpeculator}, which keeps the live allocation set and the pointers
 * written into device memory up to date. Engines emit into an
 * {@link org.phos.workbench.speculation.core.AccessSink} so that the hot path allocates nothing;
 * {@link org.phos.workbench.speculation.core.LaunchSpeculation} is the collected form for display and tests.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.speculation.core;
