package dev.runnel.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Target;

/**
 * Marks something that is public only for Runnel's own modules: it carries no compatibility promise
 * and job code should not use it.
 *
 * <p>Like Flink's {@code @Internal}: types, methods, fields and constructors; class-file retention.
 */
@Documented
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.CONSTRUCTOR})
@Public
public @interface Internal {}
