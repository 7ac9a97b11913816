import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

/**
 * Prints the configuration key names one old Apache Kafka release defines, one
 * "component<TAB>key" a line, by running its own classes (releases 0.10 to 2.7, before the
 * catalog's first): the broker's KafkaConfig, the topic's LogConfig, the Java clients' configs.
 * Usage: java -cp <that release's jars> NameDump.java. A component not found is an error.
 */
public class NameDump {
    public static void main(String[] args) throws Exception {
        print("broker", brokerNames());
        print("topic", scalaNames("kafka.log.LogConfig$"));
        print("producer", staticNames("org.apache.kafka.clients.producer.ProducerConfig"));
        print("consumer", staticNames("org.apache.kafka.clients.consumer.ConsumerConfig"));
        try {
            print("admin", staticNames("org.apache.kafka.clients.admin.AdminClientConfig"));
        } catch (ClassNotFoundException e) {
            // before 0.11 there is no AdminClient: nothing of it can be removed
        }
    }

    static void print(String component, Collection<String> names) {
        if (names.isEmpty()) throw new IllegalStateException("no " + component + " keys found");
        for (String name : new TreeSet<>(names)) System.out.println(component + "\t" + name);
    }

    static Object module(String className) throws Exception {
        return Class.forName(className).getField("MODULE$").get(null);
    }

    static Collection<String> brokerNames() throws Exception {
        Object kafkaConfig = module("kafka.server.KafkaConfig$");
        try {
            return names(kafkaConfig.getClass().getMethod("configDef").invoke(kafkaConfig));
        } catch (NoSuchMethodException e) {
            return scalaNames("kafka.server.KafkaConfig$");  // before 2.x: configNames() only
        }
    }

    /** LogConfig.configNames(): a Scala Seq or Set of strings, whatever the release. */
    static Collection<String> scalaNames(String className) throws Exception {
        Object logConfig = module(className);
        Object names = logConfig.getClass().getMethod("configNames").invoke(logConfig);
        Set<String> found = new TreeSet<>();
        Object iterator = names.getClass().getMethod("iterator").invoke(names);
        Method hasNext = iterator.getClass().getMethod("hasNext");
        Method next = iterator.getClass().getMethod("next");
        hasNext.setAccessible(true);
        next.setAccessible(true);
        while ((Boolean) hasNext.invoke(iterator)) found.add((String) next.invoke(iterator));
        return found;
    }

    @SuppressWarnings("unchecked")
    static Collection<String> staticNames(String className) throws Exception {
        Class<?> cls = Class.forName(className);
        try {
            return (Collection<String>) cls.getMethod("configNames").invoke(null);
        } catch (NoSuchMethodException e) {  // before 0.10.1: the private static ConfigDef itself
            java.lang.reflect.Field field = cls.getDeclaredField("CONFIG");
            field.setAccessible(true);
            return names(field.get(null));
        }
    }

    @SuppressWarnings("unchecked")
    static Collection<String> names(Object configDef) throws Exception {
        return (Collection<String>) configDef.getClass().getMethod("names").invoke(configDef);
    }
}
