import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Sends <count> unkeyed records of <size> bytes with a real Java producer and prints one JSON
 * line: how many were acknowledged, the delivery errors by exception, what send() threw (if it
 * did) and the producer metrics that show batching: batch-size-max, request-size-max,
 * batch-split-total, record-send-total (records put on the wire, re-sends included) — and
 * produce-throttle-time-max, the longest a broker held back a response for a quota.
 *
 * Usage: java -cp <kafka-clients and its deps> ProducerSendOracle bootstrap topic count size key=value ...
 */
public class ProducerSendOracle {
    private static final Set<String> METRICS =
        Set.of("batch-size-max", "request-size-max", "batch-split-total", "record-send-total",
            "produce-throttle-time-max");

    public static void main(String[] args) {
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        props.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        for (int i = 4; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            props.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        String topic = args[1];
        int count = Integer.parseInt(args[2]);
        byte[] value = new byte[Integer.parseInt(args[3])];
        AtomicInteger acknowledged = new AtomicInteger();
        Map<String, Integer> errors = new TreeMap<>();
        String thrown = null;
        StringBuilder metrics = new StringBuilder();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < count && thrown == null; i++) {
                try {
                    producer.send(new ProducerRecord<>(topic, value), (metadata, error) -> {
                        if (error == null) {
                            acknowledged.incrementAndGet();
                        } else {
                            synchronized (errors) {
                                errors.merge(error.getClass().getName(), 1, Integer::sum);
                            }
                        }
                    });
                } catch (RuntimeException e) {
                    thrown = e.getClass().getName() + ": " + e.getMessage();
                }
            }
            producer.flush();
            for (var metric : producer.metrics().entrySet()) {
                String name = metric.getKey().name();
                if (metric.getKey().group().equals("producer-metrics") && METRICS.contains(name)) {
                    Object number = metric.getValue().metricValue();
                    metrics.append(metrics.length() == 0 ? "" : ",").append('"').append(name).append("\":")
                        .append(number instanceof Double d && d.isNaN() ? "null" : number);
                }
            }
        }
        StringBuilder errorJson = new StringBuilder();
        errors.forEach((name, n) -> errorJson.append(errorJson.length() == 0 ? "" : ",")
            .append('"').append(name).append("\":").append(n));
        System.out.println("{\"acknowledged\":" + acknowledged + ",\"errors\":{" + errorJson + "},\"thrown\":"
            + (thrown == null ? "null" : '"' + thrown.replace("\\", "\\\\").replace("\"", "\\\"") + '"')
            + ",\"metrics\":{" + metrics + "}}");
    }
}
