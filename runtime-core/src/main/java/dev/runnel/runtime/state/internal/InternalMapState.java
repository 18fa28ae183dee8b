package dev.runnel.runtime.state.internal;

import dev.runnel.api.common.state.MapState;
import java.util.Map;

/** Internal form of {@link MapState}. */
public interface InternalMapState<K, N, UK, UV> extends InternalKvState<K, N, Map<UK, UV>>, MapState<UK, UV> {}
