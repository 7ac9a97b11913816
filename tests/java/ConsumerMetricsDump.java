import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * A real Java consumer that polls <polls> times, pausing <pauseMs> ms after each poll (an
 * application busy with what it fetched), printing its metrics after every poll in the
 * kafka-client-metrics format (docs/metrics.md; ClientMetricsDump writes it), one JSON object a
 * line.
 *
 * Usage: java -cp <kafka-clients and its deps>:<ClientMetricsDump>:. ConsumerMetricsDump bootstrap topic polls pauseMs key=value ...
 */
public class ConsumerMetricsDump {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        props.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        for (int i = 4; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            props.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        int polls = Integer.parseInt(args[2]);
        long pause = Long.parseLong(args[3]);
        String clientId = props.getProperty("client.id", "consumer");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(args[1]));
            for (int i = 0; i < polls; i++) {
                consumer.poll(Duration.ofMillis(200));
                System.out.println(ClientMetricsDump.dump("consumer", clientId, consumer.metrics()));
                Thread.sleep(pause);
            }
            consumer.poll(Duration.ofMillis(200));  // the last pause is a gap between polls too
            System.out.println(ClientMetricsDump.dump("consumer", clientId, consumer.metrics()));
        }
    }
}
