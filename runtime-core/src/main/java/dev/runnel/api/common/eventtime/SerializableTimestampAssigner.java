package dev.runnel.api.common.eventtime;

import java.io.Serializable;

/** A {@link TimestampAssigner} usable as a lambda in a (serializable) {@link WatermarkStrategy}. */
@FunctionalInterface
public interface SerializableTimestampAssigner<T> extends TimestampAssigner<T>, Serializable {}
