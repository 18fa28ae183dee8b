package dev.runnel.streaming.runtime.io;

import static dev.runnel.streaming.runtime.io.StatusWatermarkValve.NO_CHANGE;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatusWatermarkValveTest {

    @Test
    void theInputWatermarkIsTheMinimumOverChannels() {
        StatusWatermarkValve valve = new StatusWatermarkValve(3);
        assertThat(valve.inputWatermark(10, 0)).isEqualTo(NO_CHANGE);
        assertThat(valve.inputWatermark(20, 1)).isEqualTo(NO_CHANGE);
        assertThat(valve.inputWatermark(5, 2)).isEqualTo(5);
        assertThat(valve.inputWatermark(30, 2)).isEqualTo(10);
        assertThat(valve.inputWatermark(40, 0)).isEqualTo(20);
    }

    @Test
    void watermarksNeverGoBack() {
        StatusWatermarkValve valve = new StatusWatermarkValve(1);
        assertThat(valve.inputWatermark(10, 0)).isEqualTo(10);
        assertThat(valve.inputWatermark(7, 0)).isEqualTo(NO_CHANGE);
        assertThat(valve.getCombinedWatermark()).isEqualTo(10);
    }

    @Test
    void anIdleChannelDoesNotHoldBackTheOthers() {
        StatusWatermarkValve valve = new StatusWatermarkValve(2);
        valve.inputWatermark(100, 0);
        assertThat(valve.inputStatus(true, 1)).as("channel 1 idle: only channel 0 counts").isEqualTo(100);
        assertThat(valve.isIdle()).isFalse();
        assertThat(valve.inputWatermark(150, 0)).isEqualTo(150);
    }

    @Test
    void aChannelThatWakesUpBehindTheCombinedWatermarkWaitsUntilItCatchesUp() {
        StatusWatermarkValve valve = new StatusWatermarkValve(2);
        valve.inputWatermark(50, 1);
        valve.inputStatus(true, 1);
        valve.inputWatermark(100, 0);
        valve.inputStatus(false, 1);
        assertThat(valve.inputWatermark(60, 1)).as("behind 100: not aligned, no regression").isEqualTo(NO_CHANGE);
        assertThat(valve.inputWatermark(120, 0)).as("channel 1 still not aligned").isEqualTo(120);
        assertThat(valve.inputWatermark(130, 1)).as("caught up: aligned again").isEqualTo(NO_CHANGE);
        assertThat(valve.inputWatermark(200, 0)).isEqualTo(130);
    }

    @Test
    void allChannelsIdleMakesTheInputIdle() {
        StatusWatermarkValve valve = new StatusWatermarkValve(2);
        valve.inputStatus(true, 0);
        assertThat(valve.isIdle()).isFalse();
        valve.inputStatus(true, 1);
        assertThat(valve.isIdle()).isTrue();
        valve.inputStatus(false, 0);
        assertThat(valve.isIdle()).isFalse();
    }

    @Test
    void whenEveryChannelIsIdleTheLargestWatermarkIsReleased() {
        StatusWatermarkValve valve = new StatusWatermarkValve(2);
        valve.inputWatermark(4998, 0);
        assertThat(valve.inputStatus(true, 0)).as("channel 1 never sent a watermark").isEqualTo(NO_CHANGE);
        assertThat(valve.inputStatus(true, 1)).isEqualTo(4998);
        assertThat(valve.isIdle()).isTrue();
    }
}
