package dev.runnel.api.common.state;

import java.util.Iterator;
import java.util.Map;

/**
 * A map per key. Iteration order is the store's: hash order for the heap store, serialized-key byte
 * order for the RocksDB store. Values may be null; keys may not.
 */
public interface MapState<UK, UV> extends State {

    UV get(UK key) throws Exception;

    void put(UK key, UV value) throws Exception;

    void putAll(Map<UK, UV> map) throws Exception;

    void remove(UK key) throws Exception;

    boolean contains(UK key) throws Exception;

    Iterable<Map.Entry<UK, UV>> entries() throws Exception;

    Iterable<UK> keys() throws Exception;

    Iterable<UV> values() throws Exception;

    Iterator<Map.Entry<UK, UV>> iterator() throws Exception;

    boolean isEmpty() throws Exception;
}
