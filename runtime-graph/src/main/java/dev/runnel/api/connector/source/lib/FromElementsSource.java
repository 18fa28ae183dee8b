package dev.runnel.api.connector.source.lib;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A fixed list of elements, emitted in order by one reader. The elements are stored serialized with
 * their type's serializer (not Java serialization), so any type with a serializer works. Bounded.
 */
public final class FromElementsSource<T> implements Source<T, FromElementsSource.ElementsSplit<T>,
        Collection<FromElementsSource.ElementsSplit<T>>> {

    private static final long serialVersionUID = 1L;

    private final TypeSerializer<T> serializer;
    private final byte[] elements;
    private final int count;

    public FromElementsSource(List<T> data, TypeSerializer<T> serializer) {
        this.serializer = serializer;
        this.count = data.size();
        DataOutputSerializer out = new DataOutputSerializer(256);
        try {
            for (T element : data) {
                serializer.serialize(element, out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serialize the elements of fromElements/fromCollection", e);
        }
        this.elements = out.getCopyOfBuffer();
    }

    public int getNumberOfElements() {
        return count;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<T, ElementsSplit<T>> createReader(SourceReaderContext readerContext) {
        return new IteratorSourceReader<>(readerContext);
    }

    @Override
    public SplitEnumerator<ElementsSplit<T>, Collection<ElementsSplit<T>>> createEnumerator(
            SplitEnumeratorContext<ElementsSplit<T>> enumContext) {
        return new IteratorSourceEnumerator<>(enumContext, List.of(new ElementsSplit<>(this, 0)));
    }

    @Override
    public SplitEnumerator<ElementsSplit<T>, Collection<ElementsSplit<T>>> restoreEnumerator(
            SplitEnumeratorContext<ElementsSplit<T>> enumContext, Collection<ElementsSplit<T>> checkpoint) {
        return new IteratorSourceEnumerator<>(enumContext, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<ElementsSplit<T>> getSplitSerializer() {
        return new SimpleVersionedSerializer<>() {
            @Override
            public int getVersion() {
                return 1;
            }

            @Override
            public byte[] serialize(ElementsSplit<T> split) {
                DataOutputSerializer out = new DataOutputSerializer(8);
                out.writeVarInt(split.offset);
                return out.getCopyOfBuffer();
            }

            @Override
            public ElementsSplit<T> deserialize(int version, byte[] bytes) throws IOException {
                if (version != 1) {
                    throw new IOException("Unknown elements split version " + version);
                }
                return new ElementsSplit<>(FromElementsSource.this, new DataInputDeserializer(bytes).readVarInt());
            }
        };
    }

    @Override
    public SimpleVersionedSerializer<Collection<ElementsSplit<T>>> getEnumeratorCheckpointSerializer() {
        SimpleVersionedSerializer<ElementsSplit<T>> splits = getSplitSerializer();
        return new SimpleVersionedSerializer<>() {
            @Override
            public int getVersion() {
                return 1;
            }

            @Override
            public byte[] serialize(Collection<ElementsSplit<T>> all) throws IOException {
                DataOutputSerializer out = new DataOutputSerializer(8);
                out.writeVarInt(all.size());
                for (ElementsSplit<T> s : all) {
                    out.writeVarInt(s.offset);
                }
                return out.getCopyOfBuffer();
            }

            @Override
            public Collection<ElementsSplit<T>> deserialize(int version, byte[] bytes) throws IOException {
                DataInputDeserializer in = new DataInputDeserializer(bytes);
                int n = in.readLength("element splits", 1);
                List<ElementsSplit<T>> list = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    list.add(new ElementsSplit<>(FromElementsSource.this, in.readVarInt()));
                }
                return list;
            }
        };
    }

    /** The elements from {@code offset} on. */
    public static final class ElementsSplit<T> implements IteratorSourceSplit<T, ElementsIterator<T>> {
        private final FromElementsSource<T> source;
        private final int offset;

        ElementsSplit(FromElementsSource<T> source, int offset) {
            this.source = source;
            this.offset = offset;
        }

        @Override
        public String splitId() {
            return "elements";
        }

        @Override
        public ElementsIterator<T> getIterator() {
            return new ElementsIterator<>(source, offset);
        }

        @Override
        public IteratorSourceSplit<T, ElementsIterator<T>> getUpdatedSplitForIterator(ElementsIterator<T> iterator) {
            return new ElementsSplit<>(source, iterator.index);
        }
    }

    /** Deserializes the elements one by one. */
    public static final class ElementsIterator<T> implements Iterator<T> {
        private final FromElementsSource<T> source;
        private final DataInputDeserializer in;
        private int index;

        ElementsIterator(FromElementsSource<T> source, int offset) {
            this.source = source;
            this.in = new DataInputDeserializer(source.elements);
            try {
                for (int i = 0; i < offset; i++) {
                    source.serializer.deserialize(in);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            this.index = offset;
        }

        @Override
        public boolean hasNext() {
            return index < source.count;
        }

        @Override
        public T next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            try {
                T value = source.serializer.deserialize(in);
                index++;
                return value;
            } catch (IOException e) {
                throw new UncheckedIOException("Corrupt element " + index + " of fromElements", e);
            }
        }
    }
}
