package dev.runnel.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Target;

/**
 * Says that a type or member is less private than its design needs only so that tests can reach
 * it; production code should treat it as private.
 *
 * <p>Like Flink's {@code @VisibleForTesting}: types, methods, fields and constructors; class-file retention.
 */
@Documented
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.CONSTRUCTOR})
@Internal
public @interface VisibleForTesting {}
