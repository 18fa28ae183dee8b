package dev.runnel.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.annotation.Annotation;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Test;

class StabilityAnnotationsTest {

    @Test
    void targetsAreFlinks() {
        assertThat(targets(Public.class)).containsExactly(ElementType.TYPE);
        for (Class<? extends Annotation> member : memberLevel()) {
            assertThat(targets(member)).as(member.getSimpleName())
                    .containsExactly(ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.CONSTRUCTOR);
        }
    }

    @Test
    void classFileRetentionAndDocumentedLikeFlink() {
        for (Class<? extends Annotation> annotation : all()) {
            // No @Retention means RetentionPolicy.CLASS, which is what Flink's annotations use.
            assertThat(annotation.getAnnotation(Retention.class)).as(annotation.getSimpleName()).isNull();
            assertThat(annotation.isAnnotationPresent(Documented.class)).as(annotation.getSimpleName()).isTrue();
        }
    }

    @Test
    void usableWhereFlinkCodeUsesThem() throws Exception {
        // Compiles only if the targets allow it; class retention means reflection does not see them.
        assertThat(Annotated.class.getAnnotations()).isEmpty();
        assertThat(Annotated.class.getDeclaredMethod("helper").getAnnotations()).isEmpty();
    }

    @Public
    @PublicEvolving
    @Experimental
    @Internal
    @VisibleForTesting
    static final class Annotated {
        @PublicEvolving
        @VisibleForTesting
        int field;

        @Internal
        @Experimental
        Annotated() {}

        @VisibleForTesting
        @PublicEvolving
        void helper() {}
    }

    private static ElementType[] targets(Class<? extends Annotation> annotation) {
        return annotation.getAnnotation(Target.class).value();
    }

    private static java.util.List<Class<? extends Annotation>> memberLevel() {
        return java.util.List.of(PublicEvolving.class, Experimental.class, Internal.class, VisibleForTesting.class);
    }

    private static java.util.List<Class<? extends Annotation>> all() {
        return java.util.List.of(Public.class, PublicEvolving.class, Experimental.class, Internal.class,
                VisibleForTesting.class);
    }
}
