import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Finds which Kafka config key each typed spring.kafka.* property sets, by asking
 * Spring Boot's own KafkaProperties: set one property to a probe value, build the
 * producer/consumer/admin/streams maps, and see which Kafka keys changed.
 *
 * Usage: java -cp <Boot's jars> SpringKafkaProbe.java KAFKA_PROPERTIES_CLASS NAMES_FILE OUTPUT_FILE
 *   NAMES_FILE: one spring.kafka.* property name per line (from Boot's configuration metadata)
 *   OUTPUT_FILE: one line per name: name TAB status TAB role=key,key;role=key ...
 *     status: mapped (sets the keys listed), none (sets no Kafka key: a Spring-level setting),
 *     unprobed (no probe value for its type, e.g. a Resource or a Map)
 */
public class SpringKafkaProbe {
    static final String[] BUILDS = {"Producer", "Consumer", "Admin", "Streams"};

    public static void main(String[] args) throws Exception {
        Class<?> propertiesClass = Class.forName(args[0]);
        List<String> names = Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8);
        Map<String, Map<String, Object>> baseline = buildAll(propertiesClass.getDeclaredConstructor().newInstance());
        List<String> out = new ArrayList<>();
        for (String name : names) {
            if (name.isBlank()) continue;
            Object properties = propertiesClass.getDeclaredConstructor().newInstance();
            String status;
            String keys = "";
            if (!setProbe(properties, name.substring("spring.kafka.".length()))) {
                status = "unprobed";
            } else {
                Map<String, Map<String, Object>> probed = buildAll(properties);
                List<String> parts = new ArrayList<>();
                for (String role : probed.keySet()) {
                    TreeSet<String> changed = new TreeSet<>();
                    Map<String, Object> before = baseline.get(role);
                    Map<String, Object> after = probed.get(role);
                    for (String key : after.keySet()) {
                        if (!Objects.equals(String.valueOf(before.get(key)), String.valueOf(after.get(key)))) {
                            changed.add(key);
                        }
                    }
                    for (String key : before.keySet()) {
                        if (!after.containsKey(key)) changed.add(key);
                    }
                    if (!changed.isEmpty()) parts.add(role + "=" + String.join(",", changed));
                }
                status = parts.isEmpty() ? "none" : "mapped";
                keys = String.join(";", parts);
            }
            out.add(name + "\t" + status + "\t" + keys);
        }
        Files.write(Path.of(args[2]), out, StandardCharsets.UTF_8);
    }

    /** The Kafka maps Spring would hand to each client type (absent builders are skipped). */
    static Map<String, Map<String, Object>> buildAll(Object properties) throws Exception {
        Map<String, Map<String, Object>> result = new TreeMap<>();
        for (String role : BUILDS) {
            Method build = null;
            for (Method m : properties.getClass().getMethods()) {
                if (m.getName().equals("build" + role + "Properties")
                        && (build == null || m.getParameterCount() < build.getParameterCount())) {
                    build = m;
                }
            }
            if (build == null) continue;
            Object[] nulls = new Object[build.getParameterCount()];  // SslBundles etc.: none configured
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> map = (Map<String, Object>) build.invoke(properties, nulls);
                result.put(role.toLowerCase(), new TreeMap<>(map));
            } catch (ReflectiveOperationException | RuntimeException e) {
                result.put(role.toLowerCase(), new TreeMap<>(Map.of("<build failed>", String.valueOf(e.getCause()))));
            }
        }
        return result;
    }

    /** Navigates "producer.ssl.key-password" through getters and sets the last segment. */
    static boolean setProbe(Object target, String path) throws Exception {
        String[] segments = path.split("\\.");
        Object current = target;
        for (int i = 0; i < segments.length - 1; i++) {
            Method getter = findMethod(current.getClass(), "get" + camel(segments[i]), 0);
            if (getter == null) return false;
            current = getter.invoke(current);
            if (current == null) return false;
        }
        String last = camel(segments[segments.length - 1]);
        Method setter = findMethod(current.getClass(), "set" + last, 1);
        if (setter == null) return false;
        Method getter = findMethod(current.getClass(), "get" + last, 0);
        if (getter == null) getter = findMethod(current.getClass(), "is" + last, 0);
        Object now = getter == null ? null : getter.invoke(current);
        Object value = probeValue(setter.getParameterTypes()[0], now);
        if (value == null) return false;
        setter.invoke(current, value);
        return true;
    }

    static Object probeValue(Class<?> type, Object current) throws Exception {
        if (type == String.class) return "spring-probe";
        if (type == Integer.class || type == int.class) return 12345;
        if (type == Long.class || type == long.class) return 12345L;
        if (type == Short.class || type == short.class) return (short) 123;
        if (type == Double.class || type == double.class) return 0.5;
        if (type == Boolean.class || type == boolean.class) return !Boolean.TRUE.equals(current);
        if (type == Class.class) return StringBuilder.class;
        if (type == List.class) return List.of("spring-probe");
        if (type.getName().equals("java.time.Duration")) return java.time.Duration.ofMillis(12345);
        if (type.getName().equals("org.springframework.util.unit.DataSize")) {
            return type.getMethod("ofBytes", long.class).invoke(null, 12345L);
        }
        if (type.isEnum()) {
            for (Object constant : type.getEnumConstants()) {
                if (!constant.equals(current)) return constant;
            }
        }
        return null;  // Resource, Map, nested beans...: not probed
    }

    static Method findMethod(Class<?> cls, String name, int parameters) {
        for (Method m : cls.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == parameters) return m;
        }
        return null;
    }

    static String camel(String kebab) {
        StringBuilder out = new StringBuilder();
        for (String part : kebab.split("-")) {
            if (!part.isEmpty()) out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return out.toString();
    }
}
