package org.phos.workbench.cr.core;

/**
 * A value of a counter from {@code timeNs} on (dirty bytes, spare budget in use).
 *
 * @param timeNs when the value starts to hold
 * @param counter counter name ("dirty bytes", "budget used")
 * @param value the value
 */
public record CounterSample(long timeNs, String counter, long value) {
    public static final String DIRTY_BYTES = "dirty bytes";
    public static final String BUDGET_USED = "budget used";
}
