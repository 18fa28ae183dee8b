package dev.runnel.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Target;

/**
 * Marks API meant for public use whose behaviour is stable but whose signatures may still change
 * between minor releases. Inside a {@link Public} type it singles out the members that may evolve.
 *
 * <p>Like Flink's {@code @PublicEvolving}: types, methods, fields and constructors; class-file retention.
 */
@Documented
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.CONSTRUCTOR})
@Public
public @interface PublicEvolving {}
