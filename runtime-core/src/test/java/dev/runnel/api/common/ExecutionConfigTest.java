package dev.runnel.api.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

class ExecutionConfigTest {

    @Test
    void defaultsMatchFlink() {
        ExecutionConfig config = new ExecutionConfig();
        assertThat(config.isObjectReuseEnabled()).isFalse();
        assertThat(config.getAutoWatermarkInterval()).isEqualTo(200);
        assertThat(config.hasGenericTypesDisabled()).isFalse();
        assertThat(config.getSerializerConfig().isKryoRegistrationRequired()).isTrue();
    }

    @Test
    void serializationSettingsGoToTheSerializerConfig() {
        ExecutionConfig config = new ExecutionConfig();
        config.registerKryoType(ArrayList.class);
        config.disableGenericTypes();
        assertThat(config.getSerializerConfig().getRegisteredKryoTypes()).containsExactly(ArrayList.class);
        assertThat(config.getRegisteredKryoTypes()).containsExactly(ArrayList.class);
        assertThat(config.getSerializerConfig().hasGenericTypesDisabled()).isTrue();
        config.enableGenericTypes();
        assertThat(config.hasGenericTypesDisabled()).isFalse();
    }

    @Test
    void objectReuseAndWatermarkIntervalAreFluent() {
        ExecutionConfig config = new ExecutionConfig();
        assertThat(config.enableObjectReuse()).isSameAs(config);
        assertThat(config.isObjectReuseEnabled()).isTrue();
        config.disableObjectReuse();
        assertThat(config.isObjectReuseEnabled()).isFalse();
        assertThat(config.setAutoWatermarkInterval(0).getAutoWatermarkInterval()).isZero();
        assertThatThrownBy(() -> config.setAutoWatermarkInterval(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got -1");
    }

    @Test
    void survivesJavaSerialization() throws Exception {
        ExecutionConfig config = new ExecutionConfig().enableObjectReuse().setAutoWatermarkInterval(50);
        config.registerKryoType(ArrayList.class);
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ObjectOutputStream oos = new ObjectOutputStream(bos)) {
            oos.writeObject(config);
        }
        try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
            ExecutionConfig read = (ExecutionConfig) ois.readObject();
            assertThat(read.isObjectReuseEnabled()).isTrue();
            assertThat(read.getAutoWatermarkInterval()).isEqualTo(50);
            assertThat(read.getRegisteredKryoTypes()).containsExactly(ArrayList.class);
        }
    }
    @Test
    void globalJobParametersDefaultToAnEmptyInstance() {
        ExecutionConfig config = new ExecutionConfig();
        assertThat(config.getGlobalJobParameters()).isExactlyInstanceOf(ExecutionConfig.GlobalJobParameters.class);
        assertThat(config.getGlobalJobParameters().toMap()).isEmpty();
        assertThatThrownBy(() -> config.setGlobalJobParameters(null)).isExactlyInstanceOf(NullPointerException.class)
                .hasMessageStartingWith("globalJobParameters shouldn't be null");
    }

    @Test
    void aConfigurationServesAsGlobalJobParametersAsInFlinksDocs() {
        dev.runnel.configuration.Configuration conf = new dev.runnel.configuration.Configuration();
        conf.setString("mykey", "myvalue");
        ExecutionConfig config = new ExecutionConfig();
        config.setGlobalJobParameters(conf);
        dev.runnel.configuration.Configuration back =
                (dev.runnel.configuration.Configuration) config.getGlobalJobParameters();
        assertThat(back.getString("mykey", null)).isEqualTo("myvalue");
        assertThat(config.toString()).contains("globalJobParameters={mykey=myvalue}");
    }

    @Test
    void globalJobParametersEqualByClassAndValues() {
        class Custom extends ExecutionConfig.GlobalJobParameters {
            private final String v;

            Custom(String v) {
                this.v = v;
            }

            @Override
            public java.util.Map<String, String> toMap() {
                return java.util.Map.of("v", v);
            }
        }
        assertThat(new Custom("a")).isEqualTo(new Custom("a")).hasSameHashCodeAs(new Custom("a"))
                .isNotEqualTo(new Custom("b"));
        assertThat(new ExecutionConfig.GlobalJobParameters()).isEqualTo(new ExecutionConfig.GlobalJobParameters())
                .isNotEqualTo(new dev.runnel.configuration.Configuration());
    }
}
