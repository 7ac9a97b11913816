import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * A real Java producer sending <rate> records of <size> bytes a second for <seconds> seconds,
 * printing its metrics every <every> ms, at the end of the load and once flushed, in the
 * kafka-client-metrics format kafka-advisor reads
 * (docs/metrics.md), one JSON object a line: what an application's metrics dump looks like.
 *
 * Usage: java -cp <kafka-clients and its deps>:. ClientMetricsDump bootstrap topic rate size seconds every key=value ...
 */
public class ClientMetricsDump {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        props.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        for (int i = 6; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            props.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        String topic = args[1];
        int rate = Integer.parseInt(args[2]);
        byte[] value = new byte[Integer.parseInt(args[3])];
        long every = Long.parseLong(args[5]);
        String clientId = props.getProperty("client.id", "producer");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            // The topic's metadata first: the first send would block on it while the clock runs, and the
            // records due meanwhile would leave as one burst of full batches, whatever linger.ms says.
            producer.partitionsFor(topic);
            long started = System.nanoTime();
            // The run's length counts from here: a slow start (a loaded machine) must not shorten it.
            long end = System.currentTimeMillis() + Long.parseLong(args[4]) * 1000;
            long sent = 0;
            long nextDump = System.currentTimeMillis() + every;
            while (System.currentTimeMillis() < end) {
                long due = (System.nanoTime() - started) * rate / 1_000_000_000L;
                while (sent < due) {
                    producer.send(new ProducerRecord<>(topic, value));
                    sent++;
                }
                if (System.currentTimeMillis() >= nextDump) {
                    System.out.println(dump("producer", clientId, producer.metrics()));
                    nextDump += every;
                }
                Thread.sleep(1);
            }
            System.out.println(dump("producer", clientId, producer.metrics()));  // the load's end, before the queue drains
            producer.flush();
            System.out.println(dump("producer", clientId, producer.metrics()));
        }
    }

    /** The dump: every metric's group, name, tags and value (a number, null for NaN, else a string). */
    static String dump(String clientType, String clientId, Map<MetricName, ? extends Metric> metrics) {
        StringBuilder out = new StringBuilder();
        out.append("{\"format\":\"kafka-client-metrics\",\"time_ms\":").append(System.currentTimeMillis())
            .append(",\"client_type\":").append(quote(clientType)).append(",\"client_id\":").append(quote(clientId)).append(",\"metrics\":[");
        boolean first = true;
        for (var entry : metrics.entrySet()) {
            MetricName name = entry.getKey();
            Object value = entry.getValue().metricValue();
            out.append(first ? "" : ",").append("{\"group\":").append(quote(name.group()))
                .append(",\"name\":").append(quote(name.name())).append(",\"tags\":{");
            boolean firstTag = true;
            for (var tag : name.tags().entrySet()) {
                out.append(firstTag ? "" : ",").append(quote(tag.getKey())).append(':').append(quote(tag.getValue()));
                firstTag = false;
            }
            out.append("},\"value\":");
            if (value instanceof Double d) {
                out.append(d.isNaN() || d.isInfinite() ? "null" : d.toString());
            } else if (value instanceof Number n) {
                out.append(n);
            } else {
                out.append(quote(String.valueOf(value)));
            }
            out.append('}');
            first = false;
        }
        return out.append("]}").toString();
    }

    static String quote(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
