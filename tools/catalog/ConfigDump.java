import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Dumps the ConfigDefs of one Apache Kafka release as JSON, by running Kafka's own classes.
 *
 * Usage: java -cp <that release's jars> ConfigDump.java OUTPUT.json
 *
 * Only reflection is used, so the same source works for every release from 2.8 to 4.x even
 * though the classes moved: broker configs live in the Scala object kafka.server.KafkaConfig$
 * throughout; topic configs in the Scala object kafka.log.LogConfig$ before 3.6 and in
 * org.apache.kafka.storage.internals.log.LogConfig after; dynamic update modes in
 * kafka.server.DynamicBrokerConfig$ (Scala) or org.apache.kafka.server.config.DynamicBrokerConfig.
 * A component that cannot be found is an error, never silently empty.
 */
public class ConfigDump {

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: ConfigDump OUTPUT.json");
            System.exit(2);
        }
        Map<String, Object> out = new TreeMap<>();
        out.put("kafka_version", kafkaVersion());
        Map<String, Object> components = new TreeMap<>();
        Map<String, String> dynamicModes = dynamicUpdateModes();
        components.put("broker", dumpDef(brokerConfigDef(), dynamicModes, null));
        components.put("topic", dumpDef(topicConfigDef(), null, topicSynonyms()));
        components.put("producer", dumpDef(staticConfigDef("org.apache.kafka.clients.producer.ProducerConfig"), null, null));
        components.put("consumer", dumpDef(staticConfigDef("org.apache.kafka.clients.consumer.ConsumerConfig"), null, null));
        components.put("admin", dumpDef(staticConfigDef("org.apache.kafka.clients.admin.AdminClientConfig"), null, null));
        out.put("components", components);
        StringBuilder json = new StringBuilder();
        writeJson(json, out);
        json.append('\n');
        Files.write(Path.of(args[0]), json.toString().getBytes(StandardCharsets.UTF_8));
    }

    // ------------------------------------------------------------------ locating ConfigDefs

    /** The version kafka-clients was built as (the resource AppInfoParser reads; the class itself moved in 4.x). */
    static String kafkaVersion() throws Exception {
        java.util.Properties props = new java.util.Properties();
        try (java.io.InputStream in = ClassLoader.getSystemResourceAsStream("kafka/kafka-version.properties")) {
            props.load(in);
        }
        return props.getProperty("version");
    }

    static Object scalaObject(String className) throws Exception {
        return Class.forName(className).getField("MODULE$").get(null);
    }

    static Object brokerConfigDef() throws Exception {
        Object module = scalaObject("kafka.server.KafkaConfig$");
        return module.getClass().getMethod("configDef").invoke(module);
    }

    static Object topicConfigDef() throws Exception {
        try {
            return Class.forName("org.apache.kafka.storage.internals.log.LogConfig").getMethod("configDefCopy").invoke(null);
        } catch (ClassNotFoundException e) {
            Object module = scalaObject("kafka.log.LogConfig$");
            return module.getClass().getMethod("configDefCopy").invoke(module);
        }
    }

    static Object staticConfigDef(String className) throws Exception {
        Class<?> cls = Class.forName(className);
        try {
            return cls.getMethod("configDef").invoke(null);
        } catch (NoSuchMethodException e) {
            Field field = cls.getDeclaredField("CONFIG");
            field.setAccessible(true);
            return field.get(null);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, String> dynamicUpdateModes() throws Exception {
        try {
            Object module = scalaObject("kafka.server.DynamicBrokerConfig$");
            return (Map<String, String>) module.getClass().getMethod("dynamicConfigUpdateModes").invoke(module);
        } catch (NoSuchMethodException | ClassNotFoundException e) {
            return (Map<String, String>) Class.forName("org.apache.kafka.server.config.DynamicBrokerConfig")
                .getMethod("dynamicConfigUpdateModes").invoke(null);
        }
    }

    /** Topic key -> broker keys that set its default, in precedence order. */
    static Map<String, List<String>> topicSynonyms() throws Exception {
        Object all = null;
        try {
            all = Class.forName("org.apache.kafka.server.config.ServerTopicConfigSynonyms")
                .getField("ALL_TOPIC_CONFIG_SYNONYMS").get(null);
        } catch (ClassNotFoundException | NoSuchFieldException e) {
            Object module = scalaObject("kafka.log.LogConfig$");
            try {
                all = module.getClass().getMethod("AllTopicConfigSynonyms").invoke(module);
            } catch (NoSuchMethodException e2) {
                // 2.8-3.2: only the primary synonym, as a Scala Map[String, String].
                Object scalaMap = module.getClass().getMethod("TopicConfigSynonyms").invoke(module);
                Map<?, ?> primary = (Map<?, ?>) Class.forName("scala.jdk.javaapi.CollectionConverters")
                    .getMethod("asJava", Class.forName("scala.collection.Map")).invoke(null, scalaMap);
                Map<String, List<String>> result = new TreeMap<>();
                for (Map.Entry<?, ?> entry : primary.entrySet()) {
                    result.put((String) entry.getKey(), List.of((String) entry.getValue()));
                }
                return result;
            }
        }
        Map<String, List<String>> result = new TreeMap<>();
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) all).entrySet()) {
            List<String> names = new ArrayList<>();
            for (Object synonym : (Collection<?>) entry.getValue()) {
                names.add((String) synonym.getClass().getMethod("name").invoke(synonym));
            }
            result.put((String) entry.getKey(), names);
        }
        return result;
    }

    // ------------------------------------------------------------------ dumping one ConfigDef

    static List<Object> dumpDef(Object configDef, Map<String, String> dynamicModes, Map<String, List<String>> synonyms)
            throws Exception {
        Map<?, ?> keys = (Map<?, ?>) configDef.getClass().getMethod("configKeys").invoke(configDef);
        Class<?> typeClass = Class.forName("org.apache.kafka.common.config.ConfigDef$Type");
        Method convertToString = Class.forName("org.apache.kafka.common.config.ConfigDef")
            .getMethod("convertToString", Object.class, typeClass);
        Object noDefault = Class.forName("org.apache.kafka.common.config.ConfigDef").getField("NO_DEFAULT_VALUE").get(null);
        List<Object> records = new ArrayList<>();
        for (Object key : new TreeMap<>(keys).values()) {
            Class<?> k = key.getClass();
            String name = (String) k.getField("name").get(key);
            Object type = k.getField("type").get(key);
            Object defaultValue = k.getField("defaultValue").get(key);
            Map<String, Object> record = new TreeMap<>();
            record.put("name", name);
            record.put("type", type.toString());
            record.put("importance", String.valueOf(k.getField("importance").get(key)));
            record.put("doc", firstSentence((String) k.getField("documentation").get(key)));
            record.put("internal", fieldOr(key, "internalConfig", Boolean.FALSE));
            if (defaultValue == noDefault) {
                record.put("required", Boolean.TRUE);
            } else {
                boolean password = "PASSWORD".equals(type.toString());
                record.put("default", password && defaultValue != null ? "[hidden]" : typedDefault(defaultValue));
                record.put("default_text", password && defaultValue != null ? "[hidden]"
                    : (String) convertToString.invoke(null, defaultValue, type));
            }
            Object validator = k.getField("validator").get(key);
            if (validator != null) {
                describeValidator(validator, record);
            }
            if (dynamicModes != null) {
                record.put("dynamic", dynamicModes.getOrDefault(name, "read-only"));
            }
            if (synonyms != null && synonyms.containsKey(name)) {
                record.put("broker_synonyms", synonyms.get(name));
            }
            records.add(record);
        }
        return records;
    }

    static Object fieldOr(Object target, String field, Object fallback) {
        try {
            return target.getClass().getField(field).get(target);
        } catch (ReflectiveOperationException e) {
            return fallback;
        }
    }

    static Object typedDefault(Object value) {
        if (value == null || value instanceof Number || value instanceof Boolean || value instanceof String) {
            return value;
        }
        if (value instanceof Class) {
            return ((Class<?>) value).getName();
        }
        if (value instanceof Collection) {
            List<Object> items = new ArrayList<>();
            for (Object item : (Collection<?>) value) {
                items.add(typedDefault(item));
            }
            return items;
        }
        return value.toString();
    }

    /** Records the validator as Kafka renders it, plus range bounds or choices when recognisable. */
    static void describeValidator(Object validator, Map<String, Object> record) {
        String text = validator.toString();
        if (text != null && !text.isEmpty() && !text.contains("@")) {
            record.put("valid", text);
        }
        Object min = declaredField(validator, "min");
        Object max = declaredField(validator, "max");
        if (validator.getClass().getSimpleName().equals("Range")) {
            if (min != null) record.put("min", min);
            if (max != null) record.put("max", max);
        }
        Object choices = declaredField(validator, "validStrings");
        Object chooser = validator;
        if (choices == null) {
            Object inner = declaredField(validator, "validString");
            choices = inner == null ? null : declaredField(inner, "validStrings");
            chooser = inner;
        }
        if (choices instanceof Collection) {
            List<Object> sorted = new ArrayList<>((Collection<?>) choices);
            record.put("choices", sorted);
            // ValidString compares exactly; CaseInsensitiveValidString ignores case.
            if (chooser.getClass().getSimpleName().startsWith("CaseInsensitive")) {
                record.put("choices_ignore_case", Boolean.TRUE);
            }
        }
    }

    static Object declaredField(Object target, String name) {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field field = c.getDeclaredField(name);
                if (Modifier.isStatic(field.getModifiers())) {
                    return null;
                }
                field.setAccessible(true);
                return field.get(target);
            } catch (NoSuchFieldException e) {
                // try the superclass
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    static String firstSentence(String doc) {
        if (doc == null) {
            return "";
        }
        String text = doc.replaceAll("<[^>]+>", "").replaceAll("\\s+", " ").trim();
        int end = -1;
        for (int i = 0; i < text.length() - 1; i++) {
            // A period ends the sentence when followed by a space and not inside "e.g." / "i.e.".
            if (text.charAt(i) == '.' && text.charAt(i + 1) == ' ' && !text.startsWith("e.g", Math.max(0, i - 3))
                    && !text.startsWith("i.e", Math.max(0, i - 3))) {
                end = i + 1;
                break;
            }
        }
        return end > 0 ? text.substring(0, end) : text;
    }

    // ------------------------------------------------------------------ minimal JSON writer

    static void writeJson(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            writeString(out, (String) value);
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long || value instanceof Short) {
            out.append(value);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            out.append(Double.isFinite(d) ? Double.toString(d) : "null");
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                if (!first) out.append(',');
                first = false;
                writeString(out, entry.getKey().toString());
                out.append(':');
                writeJson(out, entry.getValue());
            }
            out.append('}');
        } else if (value instanceof Collection) {
            out.append('[');
            boolean first = true;
            for (Object item : (Collection<?>) value) {
                if (!first) out.append(',');
                first = false;
                writeJson(out, item);
            }
            out.append(']');
        } else {
            writeString(out, value.toString());
        }
    }

    static void writeString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }
}
