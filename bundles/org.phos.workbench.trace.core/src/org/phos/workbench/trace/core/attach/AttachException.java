package org.phos.workbench.trace.core.attach;

import java.io.IOException;

/** Attaching failed or the stream broke; the message is one line that says why and what to do. */
public final class AttachException extends IOException {
    private static final long serialVersionUID = 1L;

    public AttachException(String message) {
        super(message);
    }

    public AttachException(String message, Throwable cause) {
        super(message, cause);
    }
}
