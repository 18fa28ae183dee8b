package dev.runnel.runtime.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RecordBatchTest {

    @Test
    void recordsWithoutTimestampsReadAsNoTimestamp() {
        RecordBatch batch = new RecordBatch(4);
        batch.add("a", RecordBatch.NO_TIMESTAMP);
        batch.addKeyed("b", RecordBatch.NO_TIMESTAMP, 7, 3, 128);
        assertEquals(RecordBatch.NO_TIMESTAMP, batch.timestamp(0));
        assertEquals(RecordBatch.NO_TIMESTAMP, batch.timestamp(1));
    }

    @Test
    void aTimestampAfterRecordsWithoutKeepsTheEarlierOnesWithout() {
        RecordBatch batch = new RecordBatch(4);
        batch.add("a", RecordBatch.NO_TIMESTAMP);
        batch.add("b", RecordBatch.NO_TIMESTAMP);
        batch.add("c", 42L);
        assertTrue(batch.add("d", RecordBatch.NO_TIMESTAMP), "the fourth record fills a batch of four");
        assertEquals(RecordBatch.NO_TIMESTAMP, batch.timestamp(0));
        assertEquals(RecordBatch.NO_TIMESTAMP, batch.timestamp(1));
        assertEquals(42L, batch.timestamp(2));
        assertEquals(RecordBatch.NO_TIMESTAMP, batch.timestamp(3));
    }

    @Test
    void aClearedBatchForgetsItsTimestamps() {
        RecordBatch batch = new RecordBatch(2);
        batch.addKeyed("a", 5L, 1, 1, 128);
        batch.addKeyed("b", 6L, 2, 2, 128);
        batch.clear();
        assertTrue(batch.isEmpty());
        assertFalse(batch.addKeyed("c", RecordBatch.NO_TIMESTAMP, 3, 3, 128));
        assertEquals(RecordBatch.NO_TIMESTAMP, batch.timestamp(0), "no timestamp left over from the last use");
        assertEquals("c", batch.value(0));
        assertEquals(3, batch.keyHash(0));
        assertEquals(3, batch.keyGroup(0));
        assertEquals(128, batch.keyGroupsOf());
    }
}
