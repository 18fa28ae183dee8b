package dev.runnel.runtime.io;

/** The last element of a channel: its producer finished and will send nothing more. */
public final class EndOfPartitionEvent implements ChannelEvent {

    public static final EndOfPartitionEvent INSTANCE = new EndOfPartitionEvent();

    private EndOfPartitionEvent() {}

    @Override
    public Type type() {
        return Type.END_OF_PARTITION;
    }

    @Override
    public String toString() {
        return "EndOfPartition";
    }
}
