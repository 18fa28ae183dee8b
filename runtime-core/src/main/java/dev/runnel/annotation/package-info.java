/**
 * API stability markers with the names, targets and retention of Flink's
 * {@code org.apache.flink.annotation}: {@link dev.runnel.annotation.Public},
 * {@link dev.runnel.annotation.PublicEvolving}, {@link dev.runnel.annotation.Experimental},
 * {@link dev.runnel.annotation.Internal} and {@link dev.runnel.annotation.VisibleForTesting}.
 * They document intent only; nothing reads them at run time.
 */
package dev.runnel.annotation;
