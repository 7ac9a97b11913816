// kafka-advisor bench: end-to-end latency of a live stream, read with the Java consumer and the
// consumer settings under test. Run by `java -cp <Kafka's jars> StreamLatency.java` (source-file
// mode, JDK 11+), so it needs no build step and uses the cluster's own client jars.
//
// Args: bootstrap topic records config-file timeout-ms
// Each record's latency is the consumer's clock at poll() minus the record's CreateTime, which
// the producer stamps at send(): from the send to the application holding the record. Both
// clocks are this host's when the producer runs here (kafka-producer-perf-test does, in bench).
// Prints "ready" once the partitions are assigned and positioned at their end (the stream may start), then
// "e2e records=N p50=.. p95=.. p99=.. p999=.. max=.." (ms) and the consumer's fetch metrics.

import java.io.FileInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;

public class StreamLatency {
    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: StreamLatency bootstrap topic records config-file timeout-ms");
            System.exit(2);
        }
        int wanted = Integer.parseInt(args[2]);
        long timeoutMs = Long.parseLong(args[4]);
        Properties props = new Properties();
        try (InputStream in = new FileInputStream(args[3])) {
            props.load(in);
        }
        props.put("bootstrap.servers", args[0]);
        props.put("group.id", "kafka-advisor-bench-e2e-" + UUID.randomUUID());
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        props.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        long[] latencies = new long[wanted];
        int count = 0;
        int notCreateTime = 0;
        double fetchesBefore = -1;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(args[1], Duration.ofSeconds(60))) {
                partitions.add(new TopicPartition(info.topic(), info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);  // the stream starts after "ready": every record read is a live one
            for (TopicPartition partition : partitions) {
                consumer.position(partition, Duration.ofSeconds(60));
            }
            System.out.println("ready");
            System.out.flush();
            long lastRecord = System.currentTimeMillis();
            while (count < wanted) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                long now = System.currentTimeMillis();
                if (records.isEmpty()) {
                    if (now - lastRecord > timeoutMs) {
                        break;
                    }
                    continue;
                }
                lastRecord = now;
                if (fetchesBefore < 0) {
                    fetchesBefore = fetchTotal(consumer) - 1;  // the fetch that brought these records counts
                }
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    if (count == wanted) {
                        break;
                    }
                    if (record.timestampType() != TimestampType.CREATE_TIME) {
                        notCreateTime++;
                    }
                    latencies[count++] = Math.max(0, now - record.timestamp());
                }
            }
            long[] seen = Arrays.copyOf(latencies, count);
            Arrays.sort(seen);
            System.out.printf("e2e records=%d not-create-time=%d p50=%d p95=%d p99=%d p999=%d max=%d%n", count,
                    notCreateTime, at(seen, 0.5), at(seen, 0.95), at(seen, 0.99), at(seen, 0.999),
                    count == 0 ? 0 : seen[count - 1]);
            System.out.println("metric stream-fetch-total " + (fetchTotal(consumer) - Math.max(0, fetchesBefore)));
            for (Map.Entry<MetricName, ? extends Metric> entry : consumer.metrics().entrySet()) {
                MetricName name = entry.getKey();
                if (name.group().equals("consumer-fetch-manager-metrics") && !name.tags().containsKey("topic")
                        && !name.tags().containsKey("partition")) {
                    System.out.println("metric " + name.name() + " " + entry.getValue().metricValue());
                }
            }
        }
        if (count < wanted) {
            System.err.println("read " + count + " of " + wanted + " records before the timeout");
            System.exit(1);
        }
    }

    // Fetch requests sent so far (idle fetches before the stream started are not the settings' cost).
    private static double fetchTotal(KafkaConsumer<byte[], byte[]> consumer) {
        for (Map.Entry<MetricName, ? extends Metric> entry : consumer.metrics().entrySet()) {
            MetricName name = entry.getKey();
            if (name.group().equals("consumer-fetch-manager-metrics") && name.name().equals("fetch-total")
                    && !name.tags().containsKey("topic")) {
                return ((Number) entry.getValue().metricValue()).doubleValue();
            }
        }
        return 0;
    }

    // The same index rule as kafka-producer-perf-test's percentiles: floor(p * n) on the sorted sample.
    private static long at(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (p * sorted.length))];
    }
}
