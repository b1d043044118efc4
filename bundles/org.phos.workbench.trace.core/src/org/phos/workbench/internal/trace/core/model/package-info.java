/**
 * The compact in-memory representation behind {@link org.phos.workbench.trace.core.Trace}: paged primitive columns
 * (no per-event objects, no doubling slack, no big copies when growing), byte arenas for parameter buffers and copy
 * payloads, and interning tables for streams and launch shapes.
 */
@NonNullByDefault
package org.phos.workbench.internal.trace.core.model;

import org.eclipse.jdt.annotation.NonNullByDefault;
