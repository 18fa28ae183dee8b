package dev.runnel.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Target;

/**
 * Marks API that may change or disappear in any release, even a minor one; use it knowing that
 * the next upgrade may need code changes.
 *
 * <p>Like Flink's {@code @Experimental}: types, methods, fields and constructors; class-file retention.
 */
@Documented
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.CONSTRUCTOR})
@Public
public @interface Experimental {}
