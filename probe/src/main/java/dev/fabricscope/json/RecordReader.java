package dev.fabricscope.json;

import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Reading;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Binds a {@link JsonTree} to the model's records as {@code Json.mapper()} does (canonical constructors, unknown members
 * ignored, absent members null, {@link Reading}s as {@link ReadingDeserializer} reads them, a
 * {@code @JsonCreator} factory from text), without Jackson: the counterpart of {@link RecordJson}'s writing. Where the
 * mapper would convert, coerce, refuse or turn a value into an "unreadable" reading, this gives up
 * ({@link JsonTree#GIVE_UP}) so that the mapper reads the file and says what it says; what it binds, it binds to a
 * value equal to the mapper's ({@code RecordReaderTest} holds every bundled and captured snapshot, and mutations of
 * them, to that).
 */
public final class RecordReader {

    private static final Map<Class<?>, Shape> SHAPES = new ConcurrentHashMap<>();

    private RecordReader() {
    }

    /** {@code tree} as a {@code type}, or {@link JsonTree#GIVE_UP}. */
    @SuppressWarnings("unchecked")
    public static <T> T read(Object tree, Class<T> type) {
        return (T) bind(tree, type, null);
    }

    /** {@code field}: the record component the value is for (a reading's range depends on it), or null. */
    private static Object bind(Object v, Type type, String field) {
        if (v == JsonTree.NULL) {
            if (type instanceof Class<?> c && c.isPrimitive()) {
                throw JsonTree.GIVE_UP; // FAIL_ON_NULL_FOR_PRIMITIVES
            }
            return null;
        }
        if (type instanceof ParameterizedType pt) {
            Class<?> raw = (Class<?>) pt.getRawType();
            Type[] args = pt.getActualTypeArguments();
            if (raw == List.class && v instanceof List<?> list) {
                List<Object> out = new ArrayList<>(list.size());
                for (Object e : list) {
                    out.add(bind(e, args[0], field)); // Jackson's element reader has the list's property
                }
                return out;
            }
            if (raw == Map.class && args[0] == String.class && v instanceof Map<?, ?> map) {
                Map<String, Object> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    out.put((String) e.getKey(), bind(e.getValue(), args[1], field));
                }
                return out;
            }
            if (raw == Reading.class) {
                return reading(v, args[0], field);
            }
            throw JsonTree.GIVE_UP;
        }
        if (!(type instanceof Class<?> c)) {
            throw JsonTree.GIVE_UP;
        }
        return scalarOrRecord(v, c);
    }

    private static Object scalarOrRecord(Object v, Class<?> c) {
        if (c == String.class) {
            return asType(v, String.class);
        }
        if (c == int.class || c == Integer.class) {
            long n = asType(v, Long.class);
            if (n != (int) n) {
                throw JsonTree.GIVE_UP;
            }
            return (int) n;
        }
        if (c == long.class || c == Long.class) {
            return asType(v, Long.class);
        }
        if (c == double.class || c == Double.class) {
            return v instanceof Long l ? (double) l : asType(v, Double.class);
        }
        if (c == boolean.class || c == Boolean.class) {
            return asType(v, Boolean.class);
        }
        if (c.isEnum()) {
            return enumConstant(c, asType(v, String.class));
        }
        Shape shape = SHAPES.computeIfAbsent(c, Shape::of);
        if (shape.creator != null) {
            return construct(shape.creator, asType(v, String.class));
        }
        if (shape.components == null) {
            throw JsonTree.GIVE_UP;
        }
        if (!(v instanceof Map<?, ?> members)) {
            throw JsonTree.GIVE_UP;
        }
        Object[] args = new Object[shape.components.length];
        for (int i = 0; i < args.length; i++) {
            RecordComponent rc = shape.components[i];
            Object member = members.get(rc.getName());
            if (member == null) {
                if (shape.required[i] || rc.getType().isPrimitive()) {
                    throw JsonTree.GIVE_UP; // what the mapper makes of an absent number or flag is its own
                }
                args[i] = null;
            } else {
                args[i] = bind(member, rc.getGenericType(), rc.getName());
            }
        }
        return construct(shape.constructor, args);
    }

    /** A reading as {@link ReadingDeserializer#deserialize} reads one that is well formed; anything else gives up. */
    private static Reading<?> reading(Object v, Type valueType, String field) {
        if (!(v instanceof Map<?, ?> m)) {
            throw JsonTree.GIVE_UP;
        }
        Object value = m.get("value");
        Object missing = m.get("missing");
        boolean hasValue = value != null && value != JsonTree.NULL;
        boolean hasMissing = missing != null && missing != JsonTree.NULL;
        if (hasValue == hasMissing) {
            throw JsonTree.GIVE_UP;
        }
        if (hasMissing) {
            return ReadingValues.shared(Reading.missing(missing(missing)));
        }
        Object bound = bind(value, valueType, null);
        if (bound == null || ReadingValues.rangeProblem(bound, field) != null) {
            throw JsonTree.GIVE_UP;
        }
        return ReadingValues.shared(Reading.of(bound));
    }

    private static Missing missing(Object v) {
        if (!(v instanceof Map<?, ?> m) || !(m.get("kind") instanceof String kindName)) {
            throw JsonTree.GIVE_UP;
        }
        Missing.Kind kind = enumConstant(Missing.Kind.class, kindName);
        Object codeValue = m.get("codeValue");
        Integer code = codeValue == null || codeValue == JsonTree.NULL ? null : (Integer) scalarOrRecord(codeValue, Integer.class);
        return new Missing(kind, text(m, "call"), text(m, "code"), code, text(m, "detail"), text(m, "raw"));
    }

    private static String text(Map<?, ?> m, String field) {
        Object t = m.get(field);
        return t == null || t == JsonTree.NULL ? null : asType(t, String.class);
    }

    private static <T> T asType(Object v, Class<T> type) {
        if (!type.isInstance(v)) {
            throw JsonTree.GIVE_UP; // the mapper would coerce or refuse: let it
        }
        return type.cast(v);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <E> E enumConstant(Class<?> c, String name) {
        try {
            return (E) Enum.valueOf((Class) c, name);
        } catch (IllegalArgumentException e) {
            throw JsonTree.GIVE_UP;
        }
    }

    private static Object construct(java.lang.reflect.Executable maker, Object... args) {
        try {
            return maker instanceof Constructor<?> k ? k.newInstance(args) : ((Method) maker).invoke(null, args);
        } catch (InvocationTargetException | IllegalAccessException | InstantiationException | IllegalArgumentException e) {
            throw JsonTree.GIVE_UP; // the mapper says the constructor's own words, with the path
        }
    }

    /**
     * How a class binds: a record through its canonical constructor, or a class through a static
     * {@code @JsonCreator} factory of one text; neither (or any Jackson annotation this reader does not follow on a
     * component): null fields, and binding gives up.
     */
    private record Shape(RecordComponent[] components, boolean[] required, Constructor<?> constructor, Method creator) {

        static Shape of(Class<?> c) {
            for (Method m : c.getDeclaredMethods()) {
                if (Modifier.isStatic(m.getModifiers()) && m.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonCreator.class)
                        && m.getParameterCount() == 1 && m.getParameterTypes()[0] == String.class) {
                    m.setAccessible(true);
                    return new Shape(null, null, null, m);
                }
            }
            if (!c.isRecord() || hasAnnotation(c, "com.fasterxml.jackson.databind.annotation.JsonDeserialize")) {
                return new Shape(null, null, null, null);
            }
            RecordComponent[] rcs = c.getRecordComponents();
            boolean[] required = new boolean[rcs.length];
            Class<?>[] types = new Class<?>[rcs.length];
            for (int i = 0; i < rcs.length; i++) {
                types[i] = rcs[i].getType();
            }
            Constructor<?> k;
            try {
                k = c.getDeclaredConstructor(types);
                k.setAccessible(true);
            } catch (NoSuchMethodException e) {
                return new Shape(null, null, null, null);
            }
            java.lang.annotation.Annotation[][] params = k.getParameterAnnotations();
            for (int i = 0; i < rcs.length; i++) {
                // an annotation on a component lands on its field, accessor and constructor parameter, as its target allows
                List<java.lang.annotation.Annotation> on = new ArrayList<>(List.of(params[i]));
                on.addAll(List.of(rcs[i].getAccessor().getAnnotations()));
                on.addAll(List.of(rcs[i].getAnnotations()));
                try {
                    on.addAll(List.of(c.getDeclaredField(rcs[i].getName()).getAnnotations()));
                } catch (NoSuchFieldException e) {
                    return new Shape(null, null, null, null);
                }
                for (var a : on) {
                    if (!followed(a)) {
                        return new Shape(null, null, null, null);
                    }
                    required[i] |= a instanceof com.fasterxml.jackson.annotation.JsonProperty jp && jp.required();
                }
            }
            return new Shape(rcs, required, k, null);
        }

        /** Only the annotations whose reading this class matches: inclusion (writing only) and a plain required flag. */
        private static boolean followed(java.lang.annotation.Annotation a) {
            Class<?> t = a.annotationType();
            if (t == com.fasterxml.jackson.annotation.JsonInclude.class) {
                return true;
            }
            if (t == com.fasterxml.jackson.annotation.JsonProperty.class) {
                return ((com.fasterxml.jackson.annotation.JsonProperty) a).value().isEmpty();
            }
            return !t.getName().startsWith("com.fasterxml.jackson");
        }

        private static boolean hasAnnotation(Class<?> c, String name) {
            for (var a : c.getAnnotations()) {
                if (a.annotationType().getName().equals(name)) {
                    return true;
                }
            }
            return false;
        }
    }
}
