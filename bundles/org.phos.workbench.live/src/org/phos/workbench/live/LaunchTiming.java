package org.phos.workbench.live;

/**
 * The GPU time of one replayed launch, measured with events recorded just before and after it on its stream (table
 * copies excluded).
 *
 * @param launchEvent the launch's event index in the recorded trace
 * @param function the kernel's name
 * @param instrumented whether the instrumented module ran
 * @param ms milliseconds between the two events
 */
public record LaunchTiming(int launchEvent, String function, boolean instrumented, float ms) {
}
