package org.phos.workbench.internal.trace.core.format;

/** A protobuf payload that does not decode; the message says why and where inside the payload. */
public final class WireFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public WireFormatException(String message) {
        super(message);
    }
}
