/**
 * The pieces every shuffle of this module is built from: one channel's sending end
 * ({@link dev.runnel.runtime.network.partition.SubpartitionWriter}) and receiving end
 * ({@link dev.runnel.runtime.network.partition.InputChannelReader}), and the writer and gate that combine
 * many channels, whether each channel is in memory (same TaskManager) or crosses the network. Module
 * internal: the engine sees only {@code dev.runnel.runtime.io} and {@code dev.runnel.runtime.shuffle}.
 */
package dev.runnel.runtime.network.partition;
