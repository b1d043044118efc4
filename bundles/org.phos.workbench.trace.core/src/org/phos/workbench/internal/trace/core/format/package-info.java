/**
 * The v1 file format: chunk framing (CRC-32C, zstd) and hand-written protobuf wire encoding and decoding of the
 * messages of {@code docs/phos-trace-v1.proto}, decoding events straight into the model's columns.
 */
@NonNullByDefault
package org.phos.workbench.internal.trace.core.format;

import org.eclipse.jdt.annotation.NonNullByDefault;
