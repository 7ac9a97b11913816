import java.lang.reflect.Method;
import java.util.Map;

/**
 * Builds a producer the way a Spring Boot application does: Boot's KafkaProperties (producer
 * settings given as arguments) → buildProducerProperties → spring-kafka's
 * DefaultKafkaProducerFactory with the transaction-id prefix → createProducer(). Prints one JSON
 * line: {"ok":true} or {"ok":false,"exception":...,"message":...} (the root cause).
 * max.block.ms is 2 s: with a prefix, createProducer() also calls initTransactions(), which
 * times out when nothing listens — an outcome distinct from a configuration refusal.
 *
 * Usage: java -cp <Boot's jars> SpringProducerOracle.java KAFKA_PROPERTIES_CLASS
 *            [retries=N] [acks=X] [transaction-id-prefix=P] [properties.KEY=VALUE]
 *   properties.KEY=VALUE is spring.kafka.producer.properties[KEY]: passed to the client as is.
 */
public class SpringProducerOracle {
    public static void main(String[] args) throws Exception {
        Object properties = Class.forName(args[0]).getDeclaredConstructor().newInstance();
        Object producer = properties.getClass().getMethod("getProducer").invoke(properties);
        String prefix = null;
        Map<String, String> passThrough = new java.util.HashMap<>();
        for (int i = 1; i < args.length; i++) {
            String name = args[i].substring(0, args[i].indexOf('='));
            String value = args[i].substring(args[i].indexOf('=') + 1);
            switch (name) {
                case "retries" -> producer.getClass().getMethod("setRetries", Integer.class).invoke(producer, Integer.valueOf(value));
                case "acks" -> producer.getClass().getMethod("setAcks", String.class).invoke(producer, value);
                case "transaction-id-prefix" -> {
                    producer.getClass().getMethod("setTransactionIdPrefix", String.class).invoke(producer, value);
                    prefix = value;
                }
                default -> {
                    if (!name.startsWith("properties.")) throw new IllegalArgumentException(name);
                    passThrough.put(name.substring("properties.".length()), value);
                }
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> config = (Map<String, Object>) build(properties);
        config.putAll(passThrough);
        config.put("bootstrap.servers", "127.0.0.1:1");
        config.put("max.block.ms", 2000);
        Class<?> factoryClass = Class.forName("org.springframework.kafka.core.DefaultKafkaProducerFactory");
        Object factory = factoryClass.getConstructor(Map.class).newInstance(config);
        if (prefix != null) {
            factoryClass.getMethod("setTransactionIdPrefix", String.class).invoke(factory, prefix);
        }
        try {
            Object client = factoryClass.getMethod("createProducer").invoke(factory);
            client.getClass().getMethod("close").invoke(client);
            System.out.println("{\"ok\":true}");
        } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable cause = e.getCause();
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            System.out.println("{\"ok\":false,\"exception\":\"" + cause.getClass().getName() + "\",\"message\":\""
                + String.valueOf(cause.getMessage()).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ")
                + "\"}");
        }
    }

    /** buildProducerProperties() in Boot 2.x, buildProducerProperties(SslBundles) from 3.1. */
    static Object build(Object properties) throws Exception {
        for (Method method : properties.getClass().getMethods()) {
            if (method.getName().equals("buildProducerProperties")) {
                return method.getParameterCount() == 0 ? method.invoke(properties) : method.invoke(properties, (Object) null);
            }
        }
        throw new IllegalStateException("no buildProducerProperties");
    }
}
