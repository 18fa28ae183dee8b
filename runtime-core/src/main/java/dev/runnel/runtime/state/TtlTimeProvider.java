package dev.runnel.runtime.state;

/** The clock that state time-to-live measures against; tests replace it. */
@FunctionalInterface
public interface TtlTimeProvider {

    TtlTimeProvider DEFAULT = System::currentTimeMillis;

    long currentTimestamp();
}
