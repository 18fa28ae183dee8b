package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.functions.Function;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.typeinfo.BasicArrayTypeInfo;
import dev.runnel.api.common.typeinfo.BasicTypeInfo;
import dev.runnel.api.common.typeinfo.LocalTimeTypeInfo;
import dev.runnel.api.common.typeinfo.PrimitiveArrayTypeInfo;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.tuple.Tuple;
import dev.runnel.util.Preconditions;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodType;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Array;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.GenericDeclaration;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Derives {@link TypeInformation} from Java types, and the output types of user functions from their
 * generic signatures, when the job graph is built.
 *
 * <h2>Which information a type gets</h2>
 * <ul>
 *   <li>{@code String}, boxed and primitive numbers, {@code boolean}, {@code char}, {@code java.util.Date},
 *       {@code BigInteger}, {@code BigDecimal}, {@code Instant}, {@code UUID}: {@link BasicTypeInfo}.</li>
 *   <li>{@code LocalDate}, {@code LocalTime}, {@code LocalDateTime}: {@link LocalTimeTypeInfo}.</li>
 *   <li>Arrays: of primitives ({@code int[]}): {@link PrimitiveArrayTypeInfo}; of {@code String} or boxed
 *       primitives ({@code String[]}, {@code Long[]}): {@link BasicArrayTypeInfo}; of anything else
 *       ({@code Order[]}, {@code int[][]}, {@code T[]}): {@link ObjectArrayTypeInfo} of the element type.</li>
 *   <li>{@code Tuple0..Tuple12} with concrete type arguments, or a subclass fixing them:
 *       {@link TupleTypeInfo}. A raw tuple ({@code Tuple2} without arguments) is an error.</li>
 *   <li>A record whose components all resolve: {@link RecordTypeInfo}; otherwise (e.g. a raw generic
 *       record, or one that contains itself) the record is a generic type, which is logged.</li>
 *   <li>Enums: {@link EnumTypeInfo}.</li>
 *   <li>{@code List<E>}, {@code Map<K, V>}: {@link ListTypeInfo}, {@link MapTypeInfo}. Raw
 *       {@code List}/{@code Map} is an error: their element types are unknown.</li>
 *   <li>A class that follows Flink's POJO rules: {@link PojoTypeInfo}, its fields described recursively
 *       (see below).</li>
 *   <li>Anything else ({@code Object}, interfaces, other collections, classes that break a POJO rule, a
 *       POJO where it occurs inside itself): {@link GenericTypeInfo}, serialized with Kryo, which needs
 *       the class registered. Each such fallback is logged at INFO with its reason, and a missing
 *       registration fails when the job is built, naming the field path and the reason.</li>
 * </ul>
 *
 * <h2>POJOs</h2>
 * As in Flink, a class is a POJO if it is public (and static, if nested), has a public no-argument
 * constructor (unless abstract), at least one non-static non-transient field (its superclasses'
 * included, with unique names), each of them public or with a public getter ({@code getX()},
 * {@code isX()} or {@code x()}) and setter ({@code setX(x)}, returning void or the class), and no
 * {@code readObject}/{@code writeObject} methods. The details are in {@code PojoRules}. Each field's
 * type is described like any other type, so POJOs nest, and a field whose type cannot be described
 * becomes a generic type of its declared class (the POJO stays a POJO).
 * Type variables and wildcards that cannot be bound to a concrete type are errors. Errors are
 * {@link InvalidTypesException}s naming the type.
 *
 * <h2>Function output types</h2>
 * {@link #getOutputType} reads the output type from the function's class hierarchy (named or
 * anonymous classes: {@code new MapFunction<String, Tuple2<String, Integer>>() {...}}) and, for
 * lambdas and method references, from the generic signature of the method implementing them (found
 * through {@link SerializedLambda}). Java erases the generic types of a lambda's own parameters and
 * result, so a lambda returning a {@code Tuple2}, or emitting through a {@code Collector<OUT>}, has no
 * recoverable output type: that fails with a message saying how to declare it.
 *
 * <p>Stateless; safe from any thread.
 */
public final class TypeExtractor {

    private static final Logger LOG = LoggerFactory.getLogger(TypeExtractor.class);

    private static final String HOW_TO_DECLARE = "Declare the output type explicitly: implement the function as a"
            + " class that names its type arguments (e.g. an anonymous class), or give the type to the resulting"
            + " stream with returns(...), e.g. returns(new TypeHint<Tuple2<String, Integer>>(){}) or"
            + " returns(Types.TUPLE(Types.STRING, Types.INT))";

    private TypeExtractor() {}

    /**
     * The type information of a class, e.g. {@code createTypeInfo(String.class)}.
     *
     * @throws InvalidTypesException if the class cannot be described without type arguments
     */
    @SuppressWarnings("unchecked")
    public static <T> TypeInformation<T> createTypeInfo(Class<T> type) {
        return (TypeInformation<T>) createTypeInfo((Type) type);
    }

    /**
     * The type information of a Java type: a class, or a parameterized type such as the
     * {@code Tuple2<String, Long>} of a field or of a {@code TypeHint}.
     *
     * @throws InvalidTypesException if the type is raw where type arguments are needed, or contains
     *     type variables or wildcards
     */
    public static TypeInformation<?> createTypeInfo(Type type) {
        Preconditions.checkNotNull(type, "the type must not be null");
        return new Resolver(new HashMap<>(), new HashMap<>()).info(type);
    }

    /**
     * Why {@code clazz}, described as {@code info}, is not a POJO, for messages: the POJO rule it
     * breaks, or what it is instead (e.g. "an enum type: EnumTypeInfo&lt;...&gt;").
     */
    public static String notAPojoBecause(Class<?> clazz, TypeInformation<?> info) {
        String reason = info instanceof GenericTypeInfo ? PojoRules.whyNotPojo(clazz) : null;
        if (reason != null) {
            return "not a POJO because " + reason;
        }
        return "described as " + info;
    }

    /**
     * The non-static, non-transient fields of {@code clazz} and its superclasses, the class's own first.
     *
     * @param ignoreDuplicates if true, of fields sharing a name only the one lowest in the hierarchy is
     *     returned; if false, a shared name is an error
     * @throws InvalidTypesException if names are shared and {@code ignoreDuplicates} is false
     */
    public static List<Field> getAllDeclaredFields(Class<?> clazz, boolean ignoreDuplicates) {
        Preconditions.checkNotNull(clazz, "the class must not be null");
        return PojoRules.allDeclaredFields(clazz, ignoreDuplicates);
    }

    /**
     * The type information of type argument {@code typeArgumentIndex} of {@code baseClass}, as
     * {@code subclass} binds it through its class hierarchy; e.g. for a
     * {@code new TypeHint<Tuple2<String, Long>>(){}}, argument 0 of {@code TypeHint}.
     *
     * @throws InvalidTypesException if {@code subclass} leaves that argument unbound or not concrete
     */
    public static TypeInformation<?> createTypeInfo(Class<?> baseClass, Class<?> subclass, int typeArgumentIndex) {
        Preconditions.checkArgument(baseClass.isAssignableFrom(subclass), "%s is not a subtype of %s",
                subclass.getName(), baseClass.getName());
        TypeVariable<?>[] params = baseClass.getTypeParameters();
        Preconditions.checkArgument(typeArgumentIndex >= 0 && typeArgumentIndex < params.length,
                "%s has no type argument %s", baseClass.getName(), typeArgumentIndex);
        Map<TypeVariable<?>, Type> bindings = new HashMap<>();
        bindHierarchy(subclass, bindings);
        Type argument = resolve(bindings, params[typeArgumentIndex]);
        if (argument == params[typeArgumentIndex]) {
            throw new InvalidTypesException(String.format("%s does not give %s its type argument %s",
                    subclass.getName(), baseClass.getSimpleName(), params[typeArgumentIndex].getName()));
        }
        return new Resolver(bindings, new HashMap<>()).info(argument);
    }

    /**
     * The output type of a user function: the type argument {@code outputTypeArgumentIndex} of
     * {@code functionInterface} as {@code function} binds it.
     *
     * <p>{@code inputTypes[i]}, where given and non-null, is the known type of the interface's type
     * argument {@code i} (for {@code MapFunction<IN, OUT>}: {@code getOutputType(f, MapFunction.class,
     * 1, inType)}). Known inputs bind type variables, so a generic function such as
     * {@code MapFunction<T, Tuple2<T, Long>>} resolves once its input is known, and an output that is
     * itself a known input (e.g. {@code ReduceFunction<T>}) is returned as is.
     *
     * <p>For lambdas and method references, the output type is read from the implementing method:
     * its generic return type if the output is the interface method's result, or the type argument of
     * the matching parameter (e.g. the {@code X} of a {@code Collector<X>} parameter).
     *
     * @throws OutputTypeExtractionException naming the function if the output type cannot be
     *     determined, typically because erasure hid it (a lambda returning a generic type or emitting
     *     through a collector); the message says how to declare the type
     */
    @SuppressWarnings("unchecked")
    public static <OUT> TypeInformation<OUT> getOutputType(Function function, Class<?> functionInterface,
            int outputTypeArgumentIndex, TypeInformation<?>... inputTypes) {
        Preconditions.checkNotNull(function, "the function must not be null");
        Preconditions.checkNotNull(functionInterface, "the function interface must not be null");
        Preconditions.checkArgument(functionInterface.isInstance(function), "%s does not implement %s",
                function.getClass().getName(), functionInterface.getName());
        TypeVariable<?>[] params = functionInterface.getTypeParameters();
        Preconditions.checkArgument(outputTypeArgumentIndex >= 0 && outputTypeArgumentIndex < params.length,
                "%s has no type argument %s", functionInterface.getName(), outputTypeArgumentIndex);
        TypeInformation<?>[] inputs = inputTypes == null ? new TypeInformation<?>[0] : inputTypes;
        if (outputTypeArgumentIndex < inputs.length && inputs[outputTypeArgumentIndex] != null) {
            return (TypeInformation<OUT>) inputs[outputTypeArgumentIndex];
        }

        String described = function.getClass().getName();
        try {
            // Works for any class, and for a lambda whose interface binds the arguments itself
            // (e.g. interface WordSplitter extends FlatMapFunction<String, String>).
            Map<TypeVariable<?>, Type> bindings = new HashMap<>();
            bindHierarchy(function.getClass(), bindings);
            Type output = resolve(bindings, params[outputTypeArgumentIndex]);
            if (output != params[outputTypeArgumentIndex]) {
                Resolver resolver = new Resolver(bindings, new HashMap<>());
                for (int i = 0; i < inputs.length && i < params.length; i++) {
                    if (inputs[i] != null) {
                        resolver.bindInfo(resolve(bindings, params[i]), inputs[i]);
                    }
                }
                return (TypeInformation<OUT>) resolver.info(output);
            }
            SerializedLambda lambda = serializedLambda(function);
            if (lambda == null) {
                throw new InvalidTypesException(String.format("%s implements %s as a raw type, without type arguments",
                        described, functionInterface.getSimpleName()));
            }
            LambdaImplementation impl = LambdaImplementation.of(lambda, function.getClass().getClassLoader());
            described = impl.describe();
            return (TypeInformation<OUT>) impl.outputType(functionInterface, outputTypeArgumentIndex, inputs);
        } catch (InvalidTypesException e) {
            throw new OutputTypeExtractionException(String.format("the output type %s of %s %s",
                    params[outputTypeArgumentIndex].getName(), functionInterface.getSimpleName(), described),
                    e.getMessage(), HOW_TO_DECLARE, e);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Type variable bindings through class hierarchies
    // ------------------------------------------------------------------------------------------

    /**
     * Records, for every generic supertype of {@code type}, which type each of its type variables is
     * bound to (in terms of the subtype's variables, which are bound further down the chain).
     */
    private static void bindHierarchy(Type type, Map<TypeVariable<?>, Type> into) {
        Class<?> raw;
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
            raw = c;
            TypeVariable<?>[] vars = c.getTypeParameters();
            Type[] args = p.getActualTypeArguments();
            for (int i = 0; i < vars.length && i < args.length; i++) {
                into.putIfAbsent(vars[i], args[i]);
            }
        } else if (type instanceof Class<?> c) {
            raw = c;
        } else {
            return;
        }
        if (raw.getGenericSuperclass() != null) {
            bindHierarchy(raw.getGenericSuperclass(), into);
        }
        for (Type itf : raw.getGenericInterfaces()) {
            bindHierarchy(itf, into);
        }
    }

    /** Follows {@code type} through variable bindings until it is not a bound variable. */
    private static Type resolve(Map<TypeVariable<?>, Type> bindings, Type type) {
        Type t = type;
        for (int hops = 0; t instanceof TypeVariable<?> v && bindings.containsKey(v) && hops < 64; hops++) {
            Type next = bindings.get(v);
            if (next.equals(v)) {
                break;
            }
            t = next;
        }
        return t;
    }

    /** The plain tuple class ({@code Tuple0..Tuple12}) that {@code tupleClass} is or extends. */
    private static Class<?> tupleBase(Class<?> tupleClass) {
        for (Class<?> c = tupleClass; c != null && c != Tuple.class; c = c.getSuperclass()) {
            if (c.getSuperclass() == Tuple.class) {
                return c;
            }
        }
        throw new InvalidTypesException(String.format(
                "%s does not fix the number and types of the tuple's fields; use one of Tuple0..Tuple%s with type"
                        + " arguments, e.g. Tuple2<String, Long>",
                tupleClass.getName(), Tuple.MAX_ARITY));
    }

    private static String declarer(TypeVariable<?> v) {
        GenericDeclaration d = v.getGenericDeclaration();
        if (d instanceof Class<?> c) {
            return c.getName();
        }
        if (d instanceof Method m) {
            return m.getDeclaringClass().getName() + "." + m.getName() + "()";
        }
        return String.valueOf(d);
    }

    /** Resolves types to type information under one set of variable bindings. Not thread-safe. */
    private static final class Resolver {
        private final Map<TypeVariable<?>, Type> types;
        private final Map<TypeVariable<?>, TypeInformation<?>> infos;
        private final Set<Class<?>> inProgress;

        Resolver(Map<TypeVariable<?>, Type> types, Map<TypeVariable<?>, TypeInformation<?>> infos) {
            this(types, infos, new HashSet<>());
        }

        private Resolver(Map<TypeVariable<?>, Type> types, Map<TypeVariable<?>, TypeInformation<?>> infos,
                Set<Class<?>> inProgress) {
            this.types = types;
            this.infos = infos;
            this.inProgress = inProgress;
        }

        /** A resolver that also knows the bindings of {@code type}'s hierarchy, which win over ours. */
        private Resolver within(Type type) {
            Map<TypeVariable<?>, Type> own = new HashMap<>();
            bindHierarchy(type, own);
            Map<TypeVariable<?>, Type> merged = new HashMap<>(types);
            merged.putAll(own);
            return new Resolver(merged, infos, inProgress);
        }

        Type resolve(Type type) {
            return TypeExtractor.resolve(types, type);
        }

        TypeInformation<?> info(Type type) {
            Type t = resolve(type);
            if (t instanceof Class<?> c) {
                return ofClass(c, null);
            }
            if (t instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
                return ofClass(raw, p);
            }
            if (t instanceof TypeVariable<?> v) {
                TypeInformation<?> known = infos.get(v);
                if (known != null) {
                    return known;
                }
                throw new InvalidTypesException(String.format(
                        "the type variable %s (declared by %s) is not bound to a concrete type", v.getName(), declarer(v)));
            }
            if (t instanceof GenericArrayType g) {
                return genericArray(g);
            }
            if (t instanceof WildcardType w) {
                throw new InvalidTypesException(String.format(
                        "the wildcard %s does not name one concrete type; use a concrete type argument", w));
            }
            throw new InvalidTypesException("unsupported kind of type: " + t);
        }

        private Class<?> arrayClass(GenericArrayType g) {
            Type component = resolve(g.getGenericComponentType());
            Class<?> componentClass;
            if (component instanceof Class<?> c) {
                componentClass = c;
            } else if (component instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
                componentClass = raw;
            } else if (component instanceof GenericArrayType inner) {
                componentClass = arrayClass(inner);
            } else if (component instanceof TypeVariable<?> v && infos.containsKey(v)) {
                componentClass = infos.get(v).getTypeClass();
            } else {
                throw new InvalidTypesException(String.format(
                        "the array type %s has a component type that is not bound to a concrete type", g));
            }
            return Array.newInstance(componentClass, 0).getClass();
        }

        /** An array written with a type variable or a parameterized component, e.g. {@code T[]}, {@code List<String>[]}. */
        @SuppressWarnings({"unchecked", "rawtypes"})
        private TypeInformation<?> genericArray(GenericArrayType g) {
            Class<?> arrayClass = arrayClass(g);
            TypeInformation<?> component = info(g.getGenericComponentType());
            BasicArrayTypeInfo<?, ?> basic = BasicArrayTypeInfo.getInfoFor(arrayClass);
            if (basic != null && basic.getComponentInfo().equals(component)) {
                return basic;
            }
            return ObjectArrayTypeInfo.getInfoFor((Class) arrayClass, component);
        }

        /** Arrays: of primitives, of basic types (as Flink, {@code String[]}, {@code Integer[]}, ...), or of objects. */
        @SuppressWarnings({"unchecked", "rawtypes"})
        private TypeInformation<?> array(Class<?> arrayClass) {
            PrimitiveArrayTypeInfo<?> primitive = PrimitiveArrayTypeInfo.getInfoFor(arrayClass);
            if (primitive != null) {
                return primitive;
            }
            BasicArrayTypeInfo<?, ?> basic = BasicArrayTypeInfo.getInfoFor(arrayClass);
            if (basic != null) {
                return basic;
            }
            return ObjectArrayTypeInfo.getInfoFor((Class) arrayClass, info(arrayClass.getComponentType()));
        }

        /** The enum itself for the class of a constant with a body (an anonymous subclass of the enum). */
        @SuppressWarnings({"unchecked", "rawtypes"})
        private static TypeInformation<?> enumOf(Class<?> c) {
            Class<?> e = c;
            while (!e.isEnum()) {
                e = e.getSuperclass();
            }
            return new EnumTypeInfo(e);
        }

        /** {@code parameterized} is null for a class used raw (or a non-generic class). */
        private TypeInformation<?> ofClass(Class<?> c, ParameterizedType parameterized) {
            BasicTypeInfo<?> basic = BasicTypeInfo.getInfoFor(c);
            if (basic != null) {
                return basic;
            }
            LocalTimeTypeInfo<?> time = LocalTimeTypeInfo.getInfoFor(c);
            if (time != null) {
                return time;
            }
            if (c == void.class || c == Void.class) {
                throw new InvalidTypesException("void has no values to serialize; a function must return a value");
            }
            if (c.isArray()) {
                return array(c);
            }
            if (Enum.class.isAssignableFrom(c) && c != Enum.class) {
                return enumOf(c);
            }
            if (Tuple.class.isAssignableFrom(c)) {
                return tuple(c, parameterized);
            }
            if (c.isRecord()) {
                return record(c, parameterized);
            }
            if (c == List.class || c == Map.class) {
                if (parameterized == null) {
                    throw new InvalidTypesException(String.format(
                            "%s is used raw, so its element types are unknown; give its type arguments, e.g. %s",
                            c.getName(), c == List.class ? "List<String>" : "Map<String, Long>"));
                }
                Type[] args = parameterized.getActualTypeArguments();
                return c == List.class
                        ? new ListTypeInfo<>(info(args[0]))
                        : new MapTypeInfo<>(info(args[0]), info(args[1]));
            }
            if (c == Object.class || c == Class.class || c.isInterface()) {
                return new GenericTypeInfo<>(c);
            }
            return pojo(c, parameterized);
        }

        /**
         * A POJO type if {@code c} follows the POJO rules ({@link PojoRules}), otherwise a generic type.
         * A POJO inside itself (directly or through other types) is a generic type at the inner
         * occurrence, as in Flink. A field whose type cannot be described (e.g. a type variable left
         * open by a raw use) is a generic type of its declared class.
         */
        @SuppressWarnings({"unchecked", "rawtypes"})
        private TypeInformation<?> pojo(Class<?> c, ParameterizedType parameterized) {
            if (!inProgress.add(c)) {
                LOG.info("{} contains itself, so it is serialized with Kryo as a generic type where it does", c.getName());
                return new GenericTypeInfo<>(c);
            }
            try {
                Resolver inner = within(parameterized != null ? parameterized : c);
                PojoRules.Verdict verdict = PojoRules.check(c, inner::resolve);
                if (!verdict.isPojo()) {
                    LOG.info("{} is not a POJO because {}, so it is serialized with Kryo as a generic type", c.getName(),
                            verdict.reason());
                    return new GenericTypeInfo<>(c);
                }
                List<PojoField> fields = new ArrayList<>();
                for (Field f : verdict.fields()) {
                    fields.add(new PojoField(f, inner.fieldInfo(c, f)));
                }
                return new PojoTypeInfo(c, fields);
            } finally {
                inProgress.remove(c);
            }
        }

        private TypeInformation<?> fieldInfo(Class<?> pojo, Field f) {
            try {
                return info(f.getGenericType());
            } catch (InvalidTypesException e) {
                LOG.info("Field {} of POJO {} is serialized with Kryo as a generic type of {}, because {}", f.getName(),
                        pojo.getName(), f.getType().getName(), e.getMessage());
                return new GenericTypeInfo<>(f.getType());
            }
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private TypeInformation<?> tuple(Class<?> c, ParameterizedType parameterized) {
            if (parameterized == null && c.getTypeParameters().length > 0) {
                throw new InvalidTypesException(String.format(
                        "%s is used raw, so the types of its fields are unknown (Java erased them); give its type"
                                + " arguments, e.g. Tuple2<String, Long>",
                        c.getSimpleName()));
            }
            Class<?> base = tupleBase(c);
            Resolver inner = within(parameterized != null ? parameterized : c);
            TypeVariable<?>[] fields = base.getTypeParameters();
            TypeInformation<?>[] fieldInfos = new TypeInformation<?>[fields.length];
            for (int i = 0; i < fields.length; i++) {
                try {
                    fieldInfos[i] = inner.info(fields[i]);
                } catch (InvalidTypesException e) {
                    throw new InvalidTypesException(String.format("field f%s of %s: %s", i, c.getSimpleName(), e.getMessage()), e);
                }
            }
            return new TupleTypeInfo(c, fieldInfos);
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private TypeInformation<?> record(Class<?> c, ParameterizedType parameterized) {
            if (!inProgress.add(c)) {
                throw new InvalidTypesException(String.format("record %s contains itself", c.getName()));
            }
            try {
                Resolver inner = within(parameterized != null ? parameterized : c);
                RecordComponent[] components = c.getRecordComponents();
                TypeInformation<?>[] infos = new TypeInformation<?>[components.length];
                for (int i = 0; i < components.length; i++) {
                    try {
                        infos[i] = inner.info(components[i].getGenericType());
                    } catch (InvalidTypesException e) {
                        throw new InvalidTypesException(String.format("component %s of record %s: %s",
                                components[i].getName(), c.getSimpleName(), e.getMessage()), e);
                    }
                }
                return new RecordTypeInfo(c, infos);
            } catch (InvalidTypesException e) {
                LOG.info("Record {} is serialized with Kryo as a generic type, not component by component, because {}",
                        c.getName(), e.getMessage());
                return new GenericTypeInfo<>(c);
            } finally {
                inProgress.remove(c);
            }
        }

        /**
         * Binds the type variables in {@code declared} to parts of {@code info}, matching structure:
         * {@code T} takes all of it, {@code Tuple2<T, Long>} takes field 0 of a tuple, {@code List<T>}
         * the element type, and so on. Parts that do not match are ignored.
         */
        void bindInfo(Type declared, TypeInformation<?> info) {
            Type t = resolve(declared);
            if (t instanceof TypeVariable<?> v) {
                infos.putIfAbsent(v, info);
                return;
            }
            if (!(t instanceof ParameterizedType p) || !(p.getRawType() instanceof Class<?> raw)) {
                return;
            }
            Type[] args = p.getActualTypeArguments();
            if (info instanceof ListTypeInfo<?> list && raw == List.class) {
                bindInfo(args[0], list.getElementTypeInfo());
            } else if (info instanceof MapTypeInfo<?, ?> map && raw == Map.class) {
                bindInfo(args[0], map.getKeyTypeInfo());
                bindInfo(args[1], map.getValueTypeInfo());
            } else if (info instanceof TupleTypeInfo<?> tuple && Tuple.class.isAssignableFrom(raw) && raw != Tuple.class) {
                Resolver inner = within(p);
                TypeVariable<?>[] fields = tupleBase(raw).getTypeParameters();
                for (int i = 0; i < fields.length && i < tuple.getArity(); i++) {
                    inner.bindInfo(fields[i], tuple.getTypeAt(i));
                }
            } else if (info instanceof PojoTypeInfo<?> pojo && pojo.getTypeClass() == raw) {
                Resolver inner = within(p);
                for (int i = 0; i < pojo.getArity(); i++) {
                    inner.bindInfo(pojo.getPojoFieldAt(i).getField().getGenericType(), pojo.getTypeAt(i));
                }
            } else if (info instanceof RecordTypeInfo<?> record && raw.isRecord() && record.getTypeClass() == raw) {
                Resolver inner = within(p);
                RecordComponent[] components = raw.getRecordComponents();
                for (int i = 0; i < components.length && i < record.getArity(); i++) {
                    inner.bindInfo(components[i].getGenericType(), record.getTypeAt(i));
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Lambdas and method references
    // ------------------------------------------------------------------------------------------

    /** The {@link SerializedLambda} behind a lambda or method reference, or null for ordinary classes. */
    private static SerializedLambda serializedLambda(Function function) {
        Class<?> c = function.getClass();
        if (!c.isSynthetic()) {
            return null; // only lambda classes are synthetic; never call a user's writeReplace
        }
        try {
            Method writeReplace = c.getDeclaredMethod("writeReplace");
            writeReplace.setAccessible(true);
            Object replacement = writeReplace.invoke(function);
            return replacement instanceof SerializedLambda lambda ? lambda : null;
        } catch (NoSuchMethodException e) {
            return null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new InvalidTypesException(String.format("cannot inspect the lambda %s: %s", c.getName(), e), e);
        }
    }

    /** The method or constructor implementing a lambda or method reference, and how it is called. */
    private static final class LambdaImplementation {
        private final SerializedLambda lambda;
        private final Class<?> implClass;
        private final Executable impl;
        private final Type genericReturn;
        private final Type[] genericParams;
        private final boolean instanceMethod;

        private LambdaImplementation(SerializedLambda lambda, Class<?> implClass, Executable impl, Type genericReturn,
                Type[] genericParams) {
            this.lambda = lambda;
            this.implClass = implClass;
            this.impl = impl;
            this.genericReturn = genericReturn;
            this.genericParams = genericParams;
            int kind = lambda.getImplMethodKind();
            this.instanceMethod = kind == MethodHandleInfo.REF_invokeVirtual
                    || kind == MethodHandleInfo.REF_invokeInterface
                    || kind == MethodHandleInfo.REF_invokeSpecial;
        }

        static LambdaImplementation of(SerializedLambda lambda, ClassLoader loader) {
            try {
                Class<?> implClass = Class.forName(lambda.getImplClass().replace('/', '.'), false, loader);
                Class<?>[] params = MethodType.fromMethodDescriptorString(lambda.getImplMethodSignature(), loader)
                        .parameterArray();
                if ("<init>".equals(lambda.getImplMethodName())) {
                    Executable ctor = implClass.getDeclaredConstructor(params);
                    return new LambdaImplementation(lambda, implClass, ctor, implClass, genericParams(ctor));
                }
                Method method = findMethod(implClass, lambda.getImplMethodName(), params);
                return new LambdaImplementation(lambda, implClass, method, method.getGenericReturnType(), genericParams(method));
            } catch (ReflectiveOperationException | TypeNotPresentException | IllegalArgumentException e) {
                throw new InvalidTypesException(String.format("cannot find the method %s.%s%s implementing a lambda: %s",
                        lambda.getImplClass(), lambda.getImplMethodName(), lambda.getImplMethodSignature(), e), e);
            }
        }

        private static Type[] genericParams(Executable e) {
            Type[] generic = e.getGenericParameterTypes();
            // Without a generic signature, or with synthetic parameters (inner-class constructors), the
            // generic view may not line up with the descriptor; fall back to the erased parameters.
            return generic.length == e.getParameterCount() ? generic : e.getParameterTypes();
        }

        private static Method findMethod(Class<?> start, String name, Class<?>[] params) throws NoSuchMethodException {
            ArrayDeque<Class<?>> queue = new ArrayDeque<>();
            Set<Class<?>> seen = new HashSet<>();
            queue.add(start);
            while (!queue.isEmpty()) {
                Class<?> c = queue.poll();
                if (!seen.add(c)) {
                    continue;
                }
                try {
                    return c.getDeclaredMethod(name, params);
                } catch (NoSuchMethodException ignored) {
                    // keep looking in supertypes
                }
                if (c.getSuperclass() != null) {
                    queue.add(c.getSuperclass());
                }
                queue.addAll(List.of(c.getInterfaces()));
            }
            throw new NoSuchMethodException(start.getName() + "." + name);
        }

        private boolean isLambdaBody() {
            return lambda.getImplMethodName().startsWith("lambda$") || (impl instanceof Method m && m.isSynthetic());
        }

        String describe() {
            if (isLambdaBody()) {
                return "(the lambda " + lambda.getImplMethodName() + " in " + implClass.getName() + ")";
            }
            String name = "<init>".equals(lambda.getImplMethodName()) ? "new" : lambda.getImplMethodName();
            return "(the method reference " + implClass.getSimpleName() + "::" + name + ")";
        }

        /** The implementation's type at parameter {@code samIndex} of the interface method. */
        private Type typeOfSamParameter(int samIndex) {
            int k = (instanceMethod ? lambda.getCapturedArgCount() - 1 : lambda.getCapturedArgCount()) + samIndex;
            return k < 0 ? implClass : genericParams[k];
        }

        TypeInformation<?> outputType(Class<?> functionInterface, int outputIndex, TypeInformation<?>[] inputs) {
            Method sam = singleAbstractMethod(functionInterface);
            Map<TypeVariable<?>, Type> samBindings = new HashMap<>();
            bindHierarchy(functionInterface, samBindings);
            Type[] samParams = sam.getGenericParameterTypes();
            int expected = lambda.getCapturedArgCount() + samParams.length - (instanceMethod ? 1 : 0);
            if (genericParams.length != expected) {
                throw new InvalidTypesException(String.format(
                        "its implementation %s takes %s parameters where %s were expected from %s.%s",
                        impl, genericParams.length, expected, functionInterface.getSimpleName(), sam.getName()));
            }
            TypeVariable<?>[] interfaceParams = functionInterface.getTypeParameters();
            TypeVariable<?> outputVar = interfaceParams[outputIndex];

            Map<TypeVariable<?>, Type> implBindings = new HashMap<>();
            bindHierarchy(implClass, implBindings);
            Resolver resolver = new Resolver(implBindings, new HashMap<>());
            for (int j = 0; j < samParams.length; j++) {
                Type samParam = resolve(samBindings, samParams[j]);
                for (int i = 0; i < interfaceParams.length && i < inputs.length; i++) {
                    if (inputs[i] != null && samParam.equals(interfaceParams[i])) {
                        resolver.bindInfo(typeOfSamParameter(j), inputs[i]);
                    }
                }
            }

            Type samReturn = resolve(samBindings, sam.getGenericReturnType());
            Type output = extract(samReturn, genericReturn, outputVar, "the result");
            for (int j = 0; output == null && j < samParams.length; j++) {
                output = extract(resolve(samBindings, samParams[j]), typeOfSamParameter(j), outputVar, "parameter " + j);
            }
            if (output == null) {
                throw new InvalidTypesException(String.format("%s does not appear in the signature of %s.%s",
                        outputVar.getName(), functionInterface.getSimpleName(), sam.getName()));
            }
            output = resolver.resolve(output);
            if (output instanceof Class<?> c && c.getTypeParameters().length > 0) {
                throw new InvalidTypesException(String.format(
                        "the implementation produces the raw type %s, whose type arguments Java erased (it does so"
                                + " for every lambda)",
                        c.getName()));
            }
            if (output == Object.class && isLambdaBody()) {
                throw new InvalidTypesException(
                        "the lambda's result type was erased to Object (it is generic where the lambda is written)");
            }
            return resolver.info(output);
        }

        /**
         * Where {@code var} occurs in {@code pattern} (a type from the interface method), the type at the
         * same place in {@code actual} (from the implementation); null if {@code var} does not occur.
         */
        private static Type extract(Type pattern, Type actual, TypeVariable<?> var, String where) {
            if (pattern.equals(var)) {
                if (actual instanceof WildcardType w) {
                    Type[] lower = w.getLowerBounds();
                    Type[] upper = w.getUpperBounds();
                    return lower.length > 0 ? lower[0] : upper.length > 0 && upper[0] != Object.class ? upper[0] : w;
                }
                return actual;
            }
            if (pattern instanceof ParameterizedType pp && pp.getRawType() instanceof Class<?> patternRaw) {
                if (!mentions(pp, var)) {
                    return null;
                }
                if (actual instanceof Class<?> c) {
                    throw new InvalidTypesException(String.format(
                            "%s is a type argument of %s (%s), but the implementation declares it as the raw %s: Java"
                                    + " erases the generic types of a lambda's parameters and result",
                            var.getName(), where, pp.getTypeName(), c.getSimpleName()));
                }
                if (!(actual instanceof ParameterizedType ap) || !(ap.getRawType() instanceof Class<?> actualRaw)
                        || !patternRaw.isAssignableFrom(actualRaw)) {
                    return null;
                }
                Map<TypeVariable<?>, Type> bindings = new HashMap<>();
                bindHierarchy(ap, bindings);
                Type[] patternArgs = pp.getActualTypeArguments();
                TypeVariable<?>[] rawParams = patternRaw.getTypeParameters();
                for (int i = 0; i < patternArgs.length; i++) {
                    Type found = extract(patternArgs[i], TypeExtractor.resolve(bindings, rawParams[i]), var, where);
                    if (found != null) {
                        return found;
                    }
                }
                return null;
            }
            if (pattern instanceof GenericArrayType pg) {
                if (actual instanceof GenericArrayType ag) {
                    return extract(pg.getGenericComponentType(), ag.getGenericComponentType(), var, where);
                }
                if (actual instanceof Class<?> c && c.isArray()) {
                    return extract(pg.getGenericComponentType(), c.getComponentType(), var, where);
                }
            }
            return null;
        }

        private static boolean mentions(Type type, TypeVariable<?> var) {
            if (type.equals(var)) {
                return true;
            }
            if (type instanceof ParameterizedType p) {
                for (Type arg : p.getActualTypeArguments()) {
                    if (mentions(arg, var)) {
                        return true;
                    }
                }
            }
            if (type instanceof GenericArrayType g) {
                return mentions(g.getGenericComponentType(), var);
            }
            if (type instanceof WildcardType w) {
                for (Type b : w.getUpperBounds()) {
                    if (mentions(b, var)) {
                        return true;
                    }
                }
                for (Type b : w.getLowerBounds()) {
                    if (mentions(b, var)) {
                        return true;
                    }
                }
            }
            return false;
        }

        private static Method singleAbstractMethod(Class<?> functionInterface) {
            Method found = null;
            for (Method m : functionInterface.getMethods()) {
                if (!Modifier.isAbstract(m.getModifiers()) || m.isDefault() || isObjectMethod(m)) {
                    continue;
                }
                if (found != null && !(found.getName().equals(m.getName())
                        && found.getParameterCount() == m.getParameterCount())) {
                    throw new InvalidTypesException(String.format(
                            "%s has several abstract methods (%s, %s), so a lambda cannot implement it",
                            functionInterface.getName(), found.getName(), m.getName()));
                }
                found = found == null || !m.isBridge() ? m : found;
            }
            if (found == null) {
                throw new InvalidTypesException(String.format("%s has no abstract method", functionInterface.getName()));
            }
            return found;
        }

        private static boolean isObjectMethod(Method m) {
            try {
                Object.class.getMethod(m.getName(), m.getParameterTypes());
                return true;
            } catch (NoSuchMethodException e) {
                return false;
            }
        }
    }
}
