package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.typeinfo.TypeInformation;

/** Implemented by sources and functions that know the type of what they produce, so no extraction is needed. */
public interface ResultTypeQueryable<T> {

    TypeInformation<T> getProducedType();
}
