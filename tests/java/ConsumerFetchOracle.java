import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * Reads a topic from the beginning with a real Java consumer until one poll() returns records,
 * then prints one JSON line: how many records that poll returned and how many bytes the consumer
 * had received from the brokers by then (incoming-byte-total of consumer-metrics).
 *
 * Usage: java -cp <kafka-clients and its deps> ConsumerFetchOracle bootstrap topic key=value ...
 */
public class ConsumerFetchOracle {
    public static void main(String[] args) {
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("group.id", "fetch-oracle-" + System.nanoTime());
        props.put("auto.offset.reset", "earliest");
        props.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        props.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        for (int i = 2; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            props.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        StringBuilder out = new StringBuilder();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(args[1]));
            int polled = 0;
            long deadline = System.currentTimeMillis() + 60_000;
            while (polled == 0 && System.currentTimeMillis() < deadline) {
                polled = consumer.poll(Duration.ofMillis(500)).count();
            }
            out.append("{\"polled\":").append(polled);
            for (var metric : consumer.metrics().entrySet()) {
                String name = metric.getKey().name();
                if (metric.getKey().group().equals("consumer-metrics") && name.equals("incoming-byte-total")) {
                    out.append(",\"").append(name).append("\":").append(metric.getValue().metricValue());
                }
            }
        }
        System.out.println(out.append("}"));
    }
}
