package org.phos.workbench.trace.core.replay;

/** Something in the trace that replay could not take as recorded (a free of an unknown address, ...) at an event. */
public record ReplayWarning(int eventIndex, String message) {

    @Override
    public String toString() {
        return "event " + eventIndex + ": " + message;
    }
}
