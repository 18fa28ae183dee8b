package dev.runnel.api.java.typeutils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeHint;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.typeutils.runtime.PojoSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Which classes are POJOs, how they are described, and what happens when one is not. */
class PojoTypeInfoTest {

    // ------------------------------------------------------------------ POJOs

    /** Public fields, declared out of name order. */
    public static class Customer {
        public String name;
        public Address address;
        public int age;
    }

    /** Private fields with getters and setters, one boolean with isX. */
    public static class Address {
        private String city;
        private boolean verified;

        public String getCity() {
            return city;
        }

        public void setCity(String city) {
            this.city = city;
        }

        public boolean isVerified() {
            return verified;
        }

        public void setVerified(boolean verified) {
            this.verified = verified;
        }
    }

    public static class Base {
        public long id;
        public static int ignoredStatic;
        public transient String ignoredTransient;
    }

    public static class Order extends Base {
        public Customer customer;
        public List<String> tags;
        public Map<String, Integer> quantities;
        public Instant placed;
        public Side side;
    }

    public enum Side { BUY, SELL }

    /** Flink's name matching ignores case and underscores; a fluent setter returns the class. */
    public static class OddAccessors {
        private String user_id;
        private long count;

        public String getUserId() {
            return user_id;
        }

        public OddAccessors setUserId(String userId) {
            this.user_id = userId;
            return this;
        }

        public Long getCount() {
            return count;
        }

        public void setCount(long count) {
            this.count = count;
        }
    }

    public static class Box<T> {
        public T value;
    }

    public static class Node {
        public String value;
        public Node next;
    }

    public static class Keyed {
        public String key;

        @Override
        public boolean equals(Object o) {
            return o instanceof Keyed k && Objects.equals(k.key, key);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(key);
        }
    }

    // ------------------------------------------------------------------ not POJOs, one rule broken each

    static class NotPublic {
        public String a;
    }

    public class Inner {
        public String a;
    }

    public static class NoDefaultConstructor {
        public String a;

        public NoDefaultConstructor(String a) {
            this.a = a;
        }
    }

    public static class PrivateConstructor {
        public String a;

        private PrivateConstructor() {}
    }

    public static class PrivateFieldNoAccessors {
        private String a;
    }

    public static class GetterButNoSetter {
        private String a;

        public String getA() {
            return a;
        }
    }

    public static class SetterOfTheWrongType {
        private String a;

        public String getA() {
            return a;
        }

        public void setA(Object a) {
            this.a = (String) a;
        }
    }

    public static class NoFields {
        public static final String CONSTANT = "c";
    }

    public static class Shadowing extends Base {
        public long id;
    }

    public static class CustomSerialization {
        public String a;

        private void readObject(ObjectInputStream in) {}
    }

    /** A customer whose address is not a POJO: it falls back to Kryo. */
    public static class Shipment {
        public Receiver receiver;
    }

    public static class Receiver {
        public String name;
        public Location location;
    }

    public static class Location {
        public final String city;

        public Location(String city) {
            this.city = city;
        }
    }

    private static PojoTypeInfo<?> pojo(Class<?> c) {
        TypeInformation<?> info = TypeInformation.of(c);
        assertThat(info).as("%s", c).isInstanceOf(PojoTypeInfo.class);
        return (PojoTypeInfo<?>) info;
    }

    @Nested
    class Schema {

        @Test
        void fieldsAreSortedByNameIncludingInheritedOnes() {
            PojoTypeInfo<?> order = pojo(Order.class);
            assertThat(order.getFieldNames()).containsExactly("customer", "id", "placed", "quantities", "side", "tags");
            assertThat(order.getArity()).isEqualTo(6);
            assertThat(order.getFieldIndex("placed")).isEqualTo(2);
            assertThat(order.getFieldIndex("ignoredTransient")).isEqualTo(-1);
            assertThat(order.getPojoFieldAt(1).getField().getDeclaringClass()).isEqualTo(Base.class);
            assertThat(order.<Long>getTypeAt(1)).isEqualTo(Types.LONG);
            assertThat(order.getTypeAt(3)).isEqualTo(Types.MAP(Types.STRING, Types.INT));
            assertThat(order.getTypeAt(5)).isEqualTo(Types.LIST(Types.STRING));
            assertThat(order.getTypeAt(4)).isEqualTo(Types.ENUM(Side.class));
            assertThat(order.getTypeAt("customer.address.city")).isEqualTo(Types.STRING);
            assertThat(order.getTypeAt("customer.age")).isEqualTo(Types.INT);
        }

        @Test
        void toStringIsFlinks() {
            assertThat(pojo(Address.class)).hasToString("PojoType<" + Address.class.getName()
                    + ", fields = [city: String, verified: Boolean]>");
            assertThat(pojo(Customer.class)).hasToString("PojoType<" + Customer.class.getName()
                    + ", fields = [address: PojoType<" + Address.class.getName()
                    + ", fields = [city: String, verified: Boolean]>, age: Integer, name: String]>");
        }

        @Test
        void unknownFieldExpressionsNameWhatIsMissing() {
            assertThatThrownBy(() -> pojo(Order.class).getTypeAt("customer.phone"))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining(Customer.class.getName() + " has no field 'phone'; its fields are [address, age, name]");
            assertThatThrownBy(() -> pojo(Order.class).getTypeAt("tags.size"))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("field 'tags' of " + Order.class.getName() + " is a List<String>, not a POJO");
        }

        @Test
        void accessorsFollowFlinksNamingRules() {
            PojoTypeInfo<?> odd = pojo(OddAccessors.class);
            assertThat(odd.getFieldNames()).containsExactly("count", "user_id");
            assertThat(odd.getTypeAt(0)).isEqualTo(Types.LONG);
        }

        @Test
        void genericPojosTakeTheirTypeArguments() {
            assertThat(new TypeHint<Box<String>>() {}.getTypeInfo()).isInstanceOf(PojoTypeInfo.class)
                    .hasToString("PojoType<" + Box.class.getName() + ", fields = [value: String]>");
            // Used raw, the field's type is unknown: it alone falls back to Kryo, as in Flink.
            assertThat(TypeInformation.of(Box.class))
                    .hasToString("PojoType<" + Box.class.getName() + ", fields = [value: GenericType<java.lang.Object>]>");
        }

        @Test
        void aPojoInsideItselfIsGenericWhereItRecurs() {
            assertThat(TypeInformation.of(Node.class)).hasToString("PojoType<" + Node.class.getName()
                    + ", fields = [next: GenericType<" + Node.class.getName() + ">, value: String]>");
        }

        @Test
        void inputTypesBindThroughPojoFields() {
            MapFunction<Box<String>, String> unbox = new Unbox<>();
            TypeInformation<?> in = new TypeHint<Box<String>>() {}.getTypeInfo();
            assertThat(TypeExtractor.getOutputType(unbox, MapFunction.class, 1, in)).isEqualTo(Types.STRING);
        }

        @Test
        void keyTypesNeedValueBasedEqualsAndHashCode() {
            assertThat(pojo(Keyed.class).isKeyType()).isTrue();
            assertThat(pojo(Customer.class).isKeyType()).isFalse();
        }

        @Test
        void equalityAndJavaSerialization() throws Exception {
            PojoTypeInfo<?> order = pojo(Order.class);
            assertThat(order).isEqualTo(pojo(Order.class)).hasSameHashCodeAs(pojo(Order.class)).isNotEqualTo(pojo(Base.class));
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (ObjectOutputStream oos = new ObjectOutputStream(bos)) {
                oos.writeObject(order);
            }
            try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
                PojoTypeInfo<?> read = (PojoTypeInfo<?>) ois.readObject();
                assertThat(read).isEqualTo(order);
                assertThat(read.getPojoFieldAt(0).getField()).isEqualTo(order.getPojoFieldAt(0).getField());
            }
        }

        @Test
        void typesPojoDescribesOrRefuses() {
            assertThat(Types.POJO(Customer.class)).isEqualTo(pojo(Customer.class));
            assertThat(Types.POJO(Customer.class, Map.of("name", Types.STRING)))
                    .hasToString("PojoType<" + Customer.class.getName() + ", fields = [name: String]>");
            assertThatThrownBy(() -> Types.POJO(Customer.class, Map.of("phone", Types.STRING)))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("has no non-static, non-transient field 'phone'");
            assertThatThrownBy(() -> Types.POJO(NoDefaultConstructor.class))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("POJO type expected, but " + NoDefaultConstructor.class.getName()
                            + " is not a POJO because it has no no-argument constructor")
                    .hasMessageContaining("Types.GENERIC(NoDefaultConstructor.class)");
            assertThatThrownBy(() -> Types.POJO(Side.class))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("is described as EnumTypeInfo<");
        }
    }

    static final class Unbox<T> implements MapFunction<Box<T>, T> {
        @Override
        public T map(Box<T> value) {
            return value.value;
        }
    }

    @Nested
    class Rules {

        private void assertGeneric(Class<?> c, String reason) {
            assertThat(TypeInformation.of(c)).isEqualTo(new GenericTypeInfo<>(c));
            assertThat(PojoRules.whyNotPojo(c)).isEqualTo(reason);
        }

        @Test
        void eachBrokenRuleMakesAGenericType() {
            assertGeneric(NotPublic.class, "it is not public");
            assertGeneric(Inner.class, "it is an inner class (nested, but not static): declare it static");
            assertGeneric(NoDefaultConstructor.class, "it has no no-argument constructor");
            assertGeneric(PrivateConstructor.class, "its no-argument constructor is not public");
            assertGeneric(PrivateFieldNoAccessors.class, "its field 'a' (declared by " + PrivateFieldNoAccessors.class.getName()
                    + ") is not public and has neither a public getter getA() or isA() nor a public setter setA(String)");
            assertGeneric(GetterButNoSetter.class, "its field 'a' (declared by " + GetterButNoSetter.class.getName()
                    + ") is not public and has no public setter setA(String)");
            assertGeneric(SetterOfTheWrongType.class, "its field 'a' (declared by " + SetterOfTheWrongType.class.getName()
                    + ") is not public and has no public setter setA(String)");
            assertGeneric(NoFields.class, "it has no fields (no non-static, non-transient fields in it or its superclasses)");
            assertGeneric(Shadowing.class, "the field name 'id' is used by both " + Shadowing.class.getName()
                    + " and its superclass " + Base.class.getName() + "; POJO field names must be unique in the class hierarchy");
            assertGeneric(CustomSerialization.class,
                    "it declares readObject (custom Java serialization, which a field-wise serializer would not run)");
        }

        @Test
        void anonymousAndLocalClassesAreNotPojos() {
            Object anonymous = new Object() {
                public String a;
            };
            assertThat(PojoRules.whyNotPojo(anonymous.getClass()))
                    .isEqualTo("it is an anonymous class; POJOs must be public top-level or static nested classes");
        }

        @Test
        void jdkClassesAndInterfacesGetNoPojoAdvice() {
            assertThat(PojoRules.whyNotPojo(java.util.ArrayList.class)).isNull();
            assertThat(PojoRules.whyNotPojo(Runnable.class)).isNull();
            assertThat(TypeInformation.of(Runnable.class)).isEqualTo(new GenericTypeInfo<>(Runnable.class));
            assertThat(TypeInformation.of(Object.class)).isEqualTo(new GenericTypeInfo<>(Object.class));
        }
    }

    @Nested
    class KryoFallback {

        @Test
        void aFieldThatIsNotAPojoNeedsARegistrationNamedByItsPath() {
            TypeInformation<Shipment> shipment = TypeInformation.of(Shipment.class);
            assertThat(shipment).hasToString("PojoType<" + Shipment.class.getName() + ", fields = [receiver: PojoType<"
                    + Receiver.class.getName() + ", fields = [location: GenericType<" + Location.class.getName()
                    + ">, name: String]>]>");
            assertThatThrownBy(() -> shipment.createSerializer(new SerializerConfig()))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageStartingWith("field " + Shipment.class.getName() + ".receiver.location (GenericType<"
                            + Location.class.getName() + ">): " + Location.class.getCanonicalName() + " is serialized with Kryo")
                    .hasMessageContaining("env.getConfig().registerKryoType(" + Location.class.getCanonicalName() + ".class);")
                    .hasMessageContaining("Alternatively, make " + Location.class.getCanonicalName() + " a POJO, which needs neither"
                            + " Kryo nor a registration: it is not one because it has no no-argument constructor.");
        }

        @Test
        void withTheRegistrationTheGenericFieldUsesKryoAndTheRestStaysFieldWise() {
            ExecutionConfig env = new ExecutionConfig();
            env.registerKryoType(Location.class);
            PojoSerializer<Shipment> serializer = (PojoSerializer<Shipment>) TypeInformation.of(Shipment.class)
                    .createSerializer(env.getSerializerConfig());
            assertThat(serializer.getFieldSerializer(0)).isInstanceOf(PojoSerializer.class);
            assertThat(((PojoSerializer<?>) serializer.getFieldSerializer(0)).getFieldSerializer(0))
                    .hasToString("KryoSerializer<" + Location.class.getCanonicalName() + ">");
        }

        @Test
        void disabledGenericTypesSayWhichRuleTheClassBreaks() {
            SerializerConfig config = new SerializerConfig();
            config.disableGenericTypes();
            assertThatThrownBy(() -> TypeInformation.of(Shipment.class).createSerializer(config))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("field " + Shipment.class.getName() + ".receiver.location")
                    .hasMessageContaining("generic types are disabled")
                    .hasMessageContaining("it is not one because it has no no-argument constructor");
            assertThat(TypeInformation.of(Order.class).createSerializer(config)).as("no Kryo anywhere in Order").isNotNull();
        }

        @Test
        void aTopLevelNonPojoSaysWhyItNeedsKryo() {
            assertThatThrownBy(() -> TypeInformation.of(GetterButNoSetter.class).createSerializer(new SerializerConfig()))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("env.getConfig().registerKryoType(" + GetterButNoSetter.class.getCanonicalName() + ".class)")
                    .hasMessageContaining("it is not one because its field 'a'")
                    .hasMessageContaining("has no public setter setA(String)");
        }
    }
}
