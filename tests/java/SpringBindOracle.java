import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.PropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.FileSystemResource;

/**
 * Reads an application.yml or application.properties the way Spring Boot does (its own property
 * source loaders and Binder, every document of the file), binds spring.kafka to Boot's
 * KafkaProperties and prints the Kafka client configurations Boot builds from it, as one JSON line:
 * {"producer": {key: value...}, "consumer": {...}} (values as strings, lists comma-separated).
 *
 * Usage: java -cp <Boot's jars, snakeyaml>:. SpringBindOracle KAFKA_PROPERTIES_CLASS FILE
 */
public class SpringBindOracle {
    public static void main(String[] args) throws Exception {
        @SuppressWarnings("unchecked")
        Class<Object> type = (Class<Object>) Class.forName(args[0]);
        PropertySourceLoader loader = args[1].endsWith(".properties")
            ? new PropertiesPropertySourceLoader() : new YamlPropertySourceLoader();
        List<PropertySource<?>> sources = new ArrayList<>(loader.load("application", new FileSystemResource(args[1])));
        Binder binder = new Binder(ConfigurationPropertySources.from(sources));
        Object properties = binder.bind("spring.kafka", Bindable.of(type)).orElseGet(() -> newInstance(type));
        StringBuilder out = new StringBuilder("{");
        out.append("\"producer\":").append(json(build(properties, "buildProducerProperties")));
        out.append(",\"consumer\":").append(json(build(properties, "buildConsumerProperties")));
        System.out.println(out.append("}"));
    }

    static Object newInstance(Class<Object> type) {
        try {
            return type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** build*Properties() in Boot 2.x, build*Properties(SslBundles) from 3.1. */
    static Map<?, ?> build(Object properties, String name) throws Exception {
        for (Method method : properties.getClass().getMethods()) {
            if (method.getName().equals(name)) {
                Object built = method.getParameterCount() == 0 ? method.invoke(properties) : method.invoke(properties, (Object) null);
                return (Map<?, ?>) built;
            }
        }
        throw new IllegalStateException("no " + name);
    }

    static String json(Map<?, ?> map) {
        StringBuilder out = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<?, ?> entry : new TreeMap<>(map).entrySet()) {
            out.append(first ? "" : ",").append(quote(String.valueOf(entry.getKey()))).append(':')
                .append(quote(text(entry.getValue())));
            first = false;
        }
        return out.append('}').toString();
    }

    /** A value as a Kafka property says it: a list comma-separated, a class by its name. */
    static String text(Object value) {
        if (value instanceof java.util.Collection<?> items) {
            List<String> parts = new ArrayList<>();
            for (Object item : items) {
                parts.add(text(item));
            }
            return String.join(",", parts);
        }
        return value instanceof Class<?> type ? type.getName() : String.valueOf(value);
    }

    static String quote(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
    }
}
