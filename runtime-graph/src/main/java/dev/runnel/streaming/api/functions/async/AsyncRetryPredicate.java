package dev.runnel.streaming.api.functions.async;

import java.util.Collection;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Which outcomes of an attempt call for a retry: results the result predicate accepts, errors the exception
 * predicate accepts. An empty predicate never asks for one.
 *
 * @param <OUT> the result type
 */
public interface AsyncRetryPredicate<OUT> {

    /** Results that call for another attempt (e.g. an empty collection), or empty for none. */
    Optional<Predicate<Collection<OUT>>> resultPredicate();

    /** Errors that call for another attempt, or empty for none. */
    Optional<Predicate<Throwable>> exceptionPredicate();
}
