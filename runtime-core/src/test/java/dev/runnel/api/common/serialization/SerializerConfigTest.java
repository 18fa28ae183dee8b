package dev.runnel.api.common.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class SerializerConfigTest {

    @Test
    void defaultsAreSafe() {
        SerializerConfig config = new SerializerConfig();
        assertThat(config.isKryoRegistrationRequired()).isTrue();
        assertThat(config.hasGenericTypesDisabled()).isFalse();
        assertThat(config.getRegisteredKryoTypes()).isEmpty();
    }

    @Test
    void registrationsKeepFirstOrderAndDeduplicate() {
        SerializerConfig config = new SerializerConfig();
        config.registerKryoType(HashMap.class);
        config.registerKryoType(ArrayList.class);
        config.registerKryoType(HashMap.class);
        assertThat(config.getRegisteredKryoTypes()).containsExactly(HashMap.class, ArrayList.class);
        assertThatThrownBy(() -> config.getRegisteredKryoTypes().add(String.class))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> config.registerKryoType(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void equalityIncludesRegistrationOrder() {
        SerializerConfig a = new SerializerConfig();
        a.registerKryoType(HashMap.class);
        a.registerKryoType(ArrayList.class);
        SerializerConfig b = new SerializerConfig();
        b.registerKryoType(HashMap.class);
        b.registerKryoType(ArrayList.class);
        SerializerConfig swapped = new SerializerConfig();
        swapped.registerKryoType(ArrayList.class);
        swapped.registerKryoType(HashMap.class);
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).isNotEqualTo(swapped);
    }

    @Test
    void genericTypesCanBeDisabled() {
        SerializerConfig config = new SerializerConfig();
        config.disableGenericTypes();
        assertThat(config.hasGenericTypesDisabled()).isTrue();
        config.enableGenericTypes();
        assertThat(config.hasGenericTypesDisabled()).isFalse();
    }

    @Test
    void turningRegistrationOffWarnsAboutTheRisk() {
        Logger logger = (Logger) LoggerFactory.getLogger(SerializerConfig.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            SerializerConfig config = new SerializerConfig();
            config.setKryoRegistrationRequired(true);
            assertThat(appender.list).isEmpty();
            config.setKryoRegistrationRequired(false);
            assertThat(config.isKryoRegistrationRequired()).isFalse();
            assertThat(appender.list).hasSize(1);
            ILoggingEvent event = appender.list.get(0);
            assertThat(event.getLevel()).isEqualTo(Level.WARN);
            assertThat(event.getFormattedMessage()).contains("registration is turned off").contains("execute code");
        } finally {
            logger.detachAppender(appender);
        }
    }

    @Test
    void survivesJavaSerialization() throws Exception {
        SerializerConfig config = new SerializerConfig();
        config.registerKryoType(HashMap.class);
        config.disableGenericTypes();
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ObjectOutputStream oos = new ObjectOutputStream(bos)) {
            oos.writeObject(config);
        }
        try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
            SerializerConfig read = (SerializerConfig) ois.readObject();
            assertThat(read).isEqualTo(config);
            assertThat(read.getRegisteredKryoTypes()).containsExactly(HashMap.class);
            assertThat(read.hasGenericTypesDisabled()).isTrue();
        }
    }
}
