package dev.runnel.runtime.network.netty;

import dev.runnel.runtime.shuffle.BrokenChannelException;

/**
 * A remote channel can no longer deliver: its connection was lost or its peer gave up. The message names the
 * channel and the remote TaskManager; the task that uses the channel fails with it.
 */
public final class ChannelFailedException extends BrokenChannelException {

    private static final long serialVersionUID = 1L;

    public ChannelFailedException(String message) {
        super(message);
    }
}
