package org.phos.workbench.cr.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class IntervalDecimatorTest {

    @Test
    void intervalsCloserThanOnePixelMergeAndShortOnesGrowToOnePixel() {
        IntervalDecimator d = new IntervalDecimator(10);
        d.add(0, 2); // 8 ns gap to the next: merges
        d.add(10, 12);
        d.add(30, 31); // 18 ns gap: a new bar, 1 ns long -> 10 ns
        d.add(100, 250);
        List<IntervalDecimator.Bar> bars = d.bars();
        assertEquals(List.of(new IntervalDecimator.Bar(0, 12, 2), new IntervalDecimator.Bar(30, 40, 1),
                new IntervalDecimator.Bar(100, 250, 1)), bars);
    }

    @Test
    void zeroResolutionKeepsIntervalsApartButJoinsTouchingOnes() {
        IntervalDecimator d = new IntervalDecimator(0);
        d.add(0, 5);
        d.add(5, 9);
        d.add(10, 11);
        assertEquals(List.of(new IntervalDecimator.Bar(0, 9, 2), new IntervalDecimator.Bar(10, 11, 1)), d.bars());
    }

    @Test
    void aMillionIntervalsInBurstsBecomeOneBarPerBurst() {
        // 1000 bursts of 1000 kernels (10 ns each, 10 ns apart), bursts 1 ms apart; one pixel = 100 us
        IntervalDecimator d = new IntervalDecimator(100_000);
        for (int burst = 0; burst < 1000; burst++) {
            long base = burst * 1_000_000L;
            for (int k = 0; k < 1000; k++) {
                d.add(base + 20L * k, base + 20L * k + 10);
            }
        }
        List<IntervalDecimator.Bar> bars = d.bars();
        assertEquals(1000, bars.size());
        for (IntervalDecimator.Bar b : bars) {
            assertEquals(1000, b.merged());
            assertEquals(100_000, b.endNs() - b.startNs(), "20 us of work grows to one pixel");
        }
    }

    @Test
    void outOfOrderInputIsRefused() {
        IntervalDecimator d = new IntervalDecimator(5);
        d.add(100, 120);
        assertThrows(IllegalArgumentException.class, () -> d.add(50, 60));
        assertThrows(IllegalArgumentException.class, () -> new IntervalDecimator(-1));
    }
}
