/**
 * Speculated versus observed: for each launch that instrumentation observed and each allocation either side names, an
 * {@link org.phos.workbench.speculation.core.validate.AccessVerdict}, and per kernel, engine and trace the figures that
 * say whether an engine is safe for concurrent checkpointing (write recall must be 100%) and how much it wastes (byte
 * precision). Run it with {@link org.phos.workbench.speculation.core.validate.SpeculationValidator}.
 */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.speculation.core.validate;
