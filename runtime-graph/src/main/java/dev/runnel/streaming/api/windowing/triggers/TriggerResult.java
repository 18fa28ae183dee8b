package dev.runnel.streaming.api.windowing.triggers;

/** What a trigger decides for a window: fire (evaluate it), purge (drop its contents), both, or neither. */
public enum TriggerResult {
    CONTINUE(false, false),
    FIRE_AND_PURGE(true, true),
    FIRE(true, false),
    PURGE(false, true);

    private final boolean fire;
    private final boolean purge;

    TriggerResult(boolean fire, boolean purge) {
        this.fire = fire;
        this.purge = purge;
    }

    public boolean isFire() {
        return fire;
    }

    public boolean isPurge() {
        return purge;
    }
}
