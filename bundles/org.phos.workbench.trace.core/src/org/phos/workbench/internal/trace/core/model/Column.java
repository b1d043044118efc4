package org.phos.workbench.internal.trace.core.model;

/** What the builder needs from every column: undo appends, freeze, and account for heap. */
public interface Column {
    void truncate(int n);

    void trim();

    long footprintBytes();
}
