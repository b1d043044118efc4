/** The Buffers view: the allocations of a trace as a table and as a memory map (address × time). */
@org.eclipse.jdt.annotation.NonNullByDefault
package org.phos.workbench.internal.ui.buffers;
