package dev.runnel.streaming.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.typeutils.PojoTypeInfo;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Jobs whose records, keys, aggregations and state are POJOs, at parallelism 2 with network edges,
 * with generic types disabled: nothing may fall back to Kryo, and nothing needs registering.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PojoJobTest {

    public enum Channel { WEB, STORE }

    /** A nested POJO with private fields and accessors. */
    public static class Customer {
        private String name;
        private boolean member;

        public Customer() {}

        Customer(String name, boolean member) {
            this.name = name;
            this.member = member;
        }

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public boolean isMember() {
            return member;
        }

        public void setMember(boolean member) {
            this.member = member;
        }
    }

    /** The records: public fields of many kinds, a nested POJO, a list. */
    public static class Sale {
        public String shop;
        public long amount;
        public double price;
        public Instant at;
        public Channel channel;
        public Customer customer;
        public List<String> tags;

        public Sale() {}

        Sale(String shop, long amount, double price, int second, Channel channel, Customer customer) {
            this.shop = shop;
            this.amount = amount;
            this.price = price;
            this.at = Instant.ofEpochSecond(second);
            this.channel = channel;
            this.customer = customer;
            this.tags = new ArrayList<>(List.of("t" + second));
        }

        @Override
        public String toString() {
            return shop + ":" + amount + "@" + price;
        }
    }

    /** Keyed state and output. */
    public static class Totals {
        public String shop;
        public long sales;
        public long amount;
        public Customer lastCustomer;

        @Override
        public boolean equals(Object o) {
            return o instanceof Totals t && Objects.equals(t.shop, shop) && t.sales == sales && t.amount == amount
                    && Objects.equals(t.lastCustomer == null ? null : t.lastCustomer.name,
                            lastCustomer == null ? null : lastCustomer.name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(shop, sales, amount);
        }

        @Override
        public String toString() {
            return shop + "/" + sales + "/" + amount + "/" + (lastCustomer == null ? null : lastCustomer.name);
        }
    }

    private static List<Sale> sales() {
        List<Sale> sales = new ArrayList<>();
        String[] shops = {"north", "south", "east"};
        for (int i = 0; i < 300; i++) {
            Customer c = i % 7 == 0 ? null : new Customer("c" + i, i % 2 == 0);
            sales.add(new Sale(shops[i % 3], i, i % 50 + 0.5, i, i % 2 == 0 ? Channel.WEB : Channel.STORE, c));
        }
        return sales;
    }

    private static StreamExecutionEnvironment env() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.getConfig().disableGenericTypes();
        return env;
    }

    private static <T> List<T> collect(DataStream<T> stream) throws Exception {
        List<T> out = new ArrayList<>();
        stream.executeAndCollect().forEachRemaining(out::add);
        return out;
    }

    @Test
    void theRecordTypeIsAPojoTypeDownToTheNestedFields() {
        assertThat(env().fromCollection(sales()).getType()).isInstanceOf(PojoTypeInfo.class)
                .hasToString("PojoType<" + Sale.class.getName() + ", fields = [amount: Long, at: Instant, channel:"
                        + " EnumTypeInfo<" + Channel.class.getName() + ">, customer: PojoType<" + Customer.class.getName()
                        + ", fields = [member: Boolean, name: String]>, price: Double, shop: String, tags: List<String>]>");
    }

    @Test
    void keyByAPojoFieldAndSumMinMaxByFieldName() throws Exception {
        StreamExecutionEnvironment env = env();
        DataStream<Sale> sales = env.fromCollection(sales());
        Map<String, Sale> lastSum = last(collect(sales.keyBy(s -> s.shop).sum("amount")));
        Map<String, Sale> lastMax = last(collect(sales.keyBy(s -> s.shop).max("price")));
        Map<String, Sale> lastMin = last(collect(sales.keyBy(s -> s.shop).min("amount")));
        // north has the sales 0, 3, ..., 297: their amounts sum to 3 * (0 + 1 + ... + 99).
        assertThat(lastSum.get("north").amount).isEqualTo(14_850L);
        assertThat(lastSum.get("south").amount).isEqualTo(14_950L);
        assertThat(lastSum.get("east").amount).isEqualTo(15_050L);
        // sum keeps the other fields of the key's first record, as in Flink.
        assertThat(lastSum.get("south").price).isEqualTo(1.5);
        assertThat(lastSum.get("south").customer.getName()).isEqualTo("c1");
        assertThat(lastSum.get("south").tags).containsExactly("t1");
        assertThat(lastMax.get("north").price).isEqualTo(49.5);
        assertThat(lastMax.get("north").amount).as("the first record's other fields").isZero();
        assertThat(lastMin.get("east").amount).isEqualTo(2L);
    }

    @Test
    void windowedAndAllWindowedAggregationsByPojoFieldName() throws Exception {
        StreamExecutionEnvironment env = env();
        DataStream<Sale> sales = env.fromCollection(sales()).assignTimestampsAndWatermarks(
                WatermarkStrategy.<Sale>forMonotonousTimestamps().withTimestampAssigner((s, ts) -> s.at.toEpochMilli()));
        // One window holds all 300 sales (at seconds 0 to 299).
        TumblingEventTimeWindows window = TumblingEventTimeWindows.of(Duration.ofSeconds(1000));
        Map<String, Sale> sums = byShop(collect(sales.keyBy(s -> s.shop).window(window).sum("amount")));
        assertThat(sums.get("north").amount).isEqualTo(14_850L);
        assertThat(sums.get("south").amount).isEqualTo(14_950L);
        assertThat(sums.get("south").customer.getName()).as("the window's first record's other fields").isEqualTo("c1");
        // north's highest price, 49.5, is at sales 99 and 249: ties keep the first or the last.
        assertThat(byShop(collect(sales.keyBy(s -> s.shop).window(window).maxBy("price"))).get("north").amount)
                .isEqualTo(99L);
        assertThat(byShop(collect(sales.keyBy(s -> s.shop).window(window).maxBy("price", false))).get("north").amount)
                .isEqualTo(249L);
        assertThat(collect(sales.windowAll(window).sum("amount"))).singleElement()
                .satisfies(s -> assertThat(s.amount).isEqualTo(44_850L));
        assertThat(collect(sales.windowAll(window).minBy("price", false))).singleElement()
                .satisfies(s -> assertThat(s.amount).isEqualTo(250L));
    }

    private static Map<String, Sale> byShop(List<Sale> sales) {
        Map<String, Sale> byShop = new LinkedHashMap<>();
        for (Sale s : sales) {
            assertThat(byShop.put(s.shop, s)).as("one result per shop").isNull();
        }
        return byShop;
    }

    private static Map<String, Sale> last(List<Sale> rolling) {
        assertThat(rolling).hasSize(300);
        Map<String, Sale> last = new LinkedHashMap<>();
        for (Sale s : rolling) {
            last.put(s.shop, s);
        }
        return last;
    }

    @Test
    void pojoKeyedStateAndPojoOutputs() throws Exception {
        StreamExecutionEnvironment env = env();
        List<Totals> out = collect(env.fromCollection(sales())
                .map(new Tag()).name("tag").setParallelism(1) // keeps each shop's order for the last customer
                .keyBy(s -> s.shop)
                .process(new Totalling()));
        assertThat(out).hasSize(300);
        Map<String, Totals> last = new LinkedHashMap<>();
        out.forEach(t -> last.put(t.shop, t));
        assertThat(last.values()).extracting(Totals::toString)
                .containsExactlyInAnyOrder("north/100/14850/c297", "south/100/14950/c298", "east/100/15050/c299");
    }

    /** A POJO to POJO map: the output type comes from the class's signature. */
    static final class Tag implements MapFunction<Sale, Sale> {
        @Override
        public Sale map(Sale s) {
            s.tags.add(s.channel.name());
            return s;
        }
    }

    static final class Totalling extends KeyedProcessFunction<String, Sale, Totals> {
        private transient ValueState<Totals> totals;

        @Override
        public void open(OpenContext ctx) {
            totals = getRuntimeContext().getState(new ValueStateDescriptor<>("totals", TypeInformation.of(Totals.class)));
        }

        @Override
        public void processElement(Sale sale, Context ctx, Collector<Totals> out) throws Exception {
            Totals t = totals.value();
            if (t == null) {
                t = new Totals();
                t.shop = sale.shop;
            }
            t.sales++;
            t.amount += sale.amount;
            if (sale.customer != null) {
                t.lastCustomer = sale.customer;
            }
            totals.update(t);
            out.collect(t);
        }
    }

    /** A field that is not a POJO (no no-argument constructor) would need Kryo. */
    public static class Receipt {
        public String id;
        public Signature signature;
    }

    public static class Signature {
        public final String by;

        public Signature(String by) {
            this.by = by;
        }
    }

    @Test
    void aFieldThatWouldNeedKryoFailsWhenTheJobIsBuiltNamingItsPath() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStream<Receipt> receipts = env.fromSequence(1, 10).map(new ToReceipt());
        receipts.print();
        assertThatThrownBy(env::execute)
                .hasStackTraceContaining(InvalidTypesException.class.getName())
                .hasStackTraceContaining("field " + Receipt.class.getName() + ".signature (GenericType<"
                        + Signature.class.getName() + ">)")
                .hasStackTraceContaining("registerKryoType(" + Signature.class.getCanonicalName() + ".class)")
                .hasStackTraceContaining("it has no no-argument constructor");
    }

    static final class ToReceipt implements MapFunction<Long, Receipt> {
        @Override
        public Receipt map(Long value) {
            Receipt r = new Receipt();
            r.id = "r" + value;
            return r;
        }
    }
}
