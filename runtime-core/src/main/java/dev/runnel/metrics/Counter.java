package dev.runnel.metrics;

/** A count that goes up (and down). Updated by one task thread; read by any thread. */
public interface Counter extends Metric {

    void inc();

    void inc(long n);

    void dec();

    void dec(long n);

    long getCount();
}
