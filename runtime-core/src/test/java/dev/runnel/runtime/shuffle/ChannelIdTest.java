package dev.runnel.runtime.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Channel ids are map keys of the shuffle: equal exactly when edge and both subtasks are. */
class ChannelIdTest {

    @Test
    void equalWhenEveryPartIsEqual() {
        ChannelId a = new ChannelId(new String("edge-1"), 2, 3);
        ChannelId b = new ChannelId("edge-1", 2, 3);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, new ChannelId("edge-2", 2, 3));
        assertNotEquals(a, new ChannelId("edge-1", 3, 3));
        assertNotEquals(a, new ChannelId("edge-1", 2, 4));
        assertNotEquals(new ChannelId("edge-1", 2, 3), new ChannelId("edge-1", 3, 2), "direction matters");
        assertNotEquals(a, "edge-1[2->3]");
        assertEquals(new ChannelId(null, 0, 1), new ChannelId(null, 0, 1));
        assertNotEquals(new ChannelId(null, 0, 1), a);
    }

    @Test
    void findsItsChannelInAMap() {
        Map<ChannelId, Integer> channels = new HashMap<>();
        for (int p = 0; p < 8; p++) {
            for (int c = 0; c < 8; c++) {
                channels.put(new ChannelId("e", p, c), p * 8 + c);
            }
        }
        assertEquals(64, channels.size(), "no two of the 64 channels collide into one entry");
        assertEquals(5 * 8 + 6, channels.get(new ChannelId("e", 5, 6)));
        assertEquals("e[5->6]", new ChannelId("e", 5, 6).toString());
    }
}
