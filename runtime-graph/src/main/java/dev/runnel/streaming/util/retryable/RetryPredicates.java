package dev.runnel.streaming.util.retryable;

import java.io.Serializable;
import java.util.Collection;
import java.util.function.Predicate;

/** The retry predicates Flink users use most: an empty result, and any error. */
public final class RetryPredicates {

    private RetryPredicates() {}

    /** Retries when the result is null or empty. */
    public static final Predicate<Collection> EMPTY_RESULT_PREDICATE = new EmptyResult();

    /** Retries on any error. */
    public static final Predicate<Throwable> HAS_EXCEPTION_PREDICATE = new AnyError();

    @SuppressWarnings("rawtypes")
    private static final class EmptyResult implements Predicate<Collection>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean test(Collection results) {
            return results == null || results.isEmpty();
        }
    }

    private static final class AnyError implements Predicate<Throwable>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean test(Throwable error) {
            return error != null;
        }
    }
}
