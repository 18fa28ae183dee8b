package dev.runnel.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Target;

/**
 * Marks a type as stable public API: a job written against it keeps compiling across minor
 * releases; only a major release may break it.
 *
 * <p>Like Flink's {@code @Public}: types only, class-file retention (the default), documented.
 */
@Documented
@Target(ElementType.TYPE)
@Public
public @interface Public {}
