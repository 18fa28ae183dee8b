package dev.runnel.api.common.eventtime;

import java.time.Duration;

/** For timestamps that never decrease: bounded out-of-orderness of zero. */
public final class AscendingTimestampsWatermarks<T> extends BoundedOutOfOrdernessWatermarks<T> {

    public AscendingTimestampsWatermarks() {
        super(Duration.ZERO);
    }
}
