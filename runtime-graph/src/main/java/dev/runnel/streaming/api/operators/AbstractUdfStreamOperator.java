package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.state.CheckpointListener;
import dev.runnel.runtime.state.StateInitializationContext;
import dev.runnel.runtime.state.StateSnapshotContext;
import dev.runnel.streaming.api.checkpoint.CheckpointedFunction;
import dev.runnel.api.common.functions.Function;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.functions.RichFunction;
import java.util.Objects;

/**
 * An operator around a user function: opens and closes it when it is a {@link RichFunction}, after
 * giving it the runtime context.
 */
public abstract class AbstractUdfStreamOperator<OUT, F extends Function> extends AbstractStreamOperator<OUT> {

    private static final long serialVersionUID = 1L;

    private static final OpenContext OPEN_CONTEXT = new OpenContext() {};

    protected final F userFunction;

    protected AbstractUdfStreamOperator(F userFunction) {
        this.userFunction = Objects.requireNonNull(userFunction, "userFunction");
    }

    public F getUserFunction() {
        return userFunction;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        if (userFunction instanceof CheckpointedFunction checkpointed) {
            checkpointed.initializeState(context);
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (userFunction instanceof CheckpointedFunction checkpointed) {
            checkpointed.snapshotState(context);
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        if (userFunction instanceof CheckpointListener listener) {
            listener.notifyCheckpointComplete(checkpointId);
        }
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        super.notifyCheckpointAborted(checkpointId);
        if (userFunction instanceof CheckpointListener listener) {
            listener.notifyCheckpointAborted(checkpointId);
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        if (userFunction instanceof RichFunction rich) {
            rich.setRuntimeContext(getRuntimeContext());
            rich.open(OPEN_CONTEXT);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (userFunction instanceof RichFunction rich) {
                rich.close();
            }
        } finally {
            super.close();
        }
    }
}
