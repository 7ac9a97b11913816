import java.lang.reflect.Field;
import java.util.Properties;

/**
 * Constructs a real Kafka Java client with the given settings and prints what happened, as
 * one JSON line: {"ok":true,"idempotent":true|false} or {"ok":false,"exception":...,"message":...}.
 * "idempotent" reads the producer's transactionManager, which exists only when idempotence is on.
 *
 * Usage: java -cp <kafka-clients and its deps> ClientOracle.java producer|consumer key=value ...
 *    or: ... ClientOracle producer|consumer --batch < cases.tsv (one case per line: tab-separated
 *        key=value settings; one JSON line per case)
 */
public class ClientOracle {
    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[1].equals("--batch")) {
            java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, "UTF-8"));
            String line;
            while ((line = in.readLine()) != null) {
                String[] settings = line.isEmpty() ? new String[0] : line.split("\t");
                String[] caseArgs = new String[settings.length + 1];
                caseArgs[0] = args[0];
                System.arraycopy(settings, 0, caseArgs, 1, settings.length);
                construct(caseArgs);
            }
            return;
        }
        construct(args);
    }

    private static void construct(String[] args) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", "127.0.0.1:1");  // nothing listens: construction only
        String role = args[0];
        if (role.equals("producer")) {
            props.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
            props.put("value.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        } else {
            props.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
            props.put("value.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        }
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            props.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        String className = role.equals("producer")
            ? "org.apache.kafka.clients.producer.KafkaProducer"
            : "org.apache.kafka.clients.consumer.KafkaConsumer";
        try {
            Object client = Class.forName(className).getConstructor(Properties.class).newInstance(props);
            String extra = "";
            if (role.equals("producer")) {
                Field field = client.getClass().getDeclaredField("transactionManager");
                field.setAccessible(true);
                extra = ",\"idempotent\":" + (field.get(client) != null);
            }
            client.getClass().getMethod("close").invoke(client);
            System.out.println("{\"ok\":true" + extra + "}");
        } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable cause = e.getCause();
            while (cause.getCause() != null && cause.getClass().getName().endsWith("KafkaException")) {
                cause = cause.getCause();
            }
            System.out.println("{\"ok\":false,\"exception\":\"" + cause.getClass().getName() + "\",\"message\":\""
                + String.valueOf(cause.getMessage()).replace("\\", "\\\\").replace("\"", "\\\"")
                    .replace("\n", " ") + "\"}");
        }
    }
}
