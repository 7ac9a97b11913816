import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A real Java producer and consumer with Micrometer's Kafka binder (KafkaClientMetrics) bound to
 * Micrometer's Prometheus registry, as a Spring or plain Java application binds them: the producer
 * sends <records> records of <size> bytes, the consumer (group <group>) reads them back, and the
 * registry's scrape is printed — what an application's /actuator/prometheus or /metrics serves.
 * The binder takes the clients' metrics as they are when it binds (it looks again every minute),
 * so it binds once each client has worked.
 *
 * Usage: java -cp <kafka-clients, Micrometer and their deps>:. MicrometerScrape bootstrap topic group records size
 */
public class MicrometerScrape {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], topic = args[1], group = args[2];
        int records = Integer.parseInt(args[3]);
        byte[] value = new byte[Integer.parseInt(args[4])];
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

        Properties producerProps = new Properties();
        producerProps.put("bootstrap.servers", bootstrap);
        producerProps.put("client.id", "micrometer-producer");
        producerProps.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        producerProps.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        Properties consumerProps = new Properties();
        consumerProps.put("bootstrap.servers", bootstrap);
        consumerProps.put("client.id", "micrometer-consumer");
        consumerProps.put("group.id", group);
        consumerProps.put("auto.offset.reset", "earliest");
        consumerProps.put("max.poll.records", "50");  // several polls: the lag is seen while it falls
        // Small fetches: the consumer records a fetch's size once it has handed out all of it, and
        // one fetch of everything, half read, would leave fetch-size-avg without a value (NaN).
        consumerProps.put("max.partition.fetch.bytes", "4096");
        consumerProps.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        consumerProps.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");

        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps);
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps)) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, value));
            }
            producer.flush();
            consumer.subscribe(List.of(topic));
            int read = 0;
            long end = System.currentTimeMillis() + 60_000;
            while (read < records / 2 && System.currentTimeMillis() < end) {  // half: a lag is left to see
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(500));
                read += polled.count();
            }
            consumer.commitSync();
            try (KafkaClientMetrics producerMetrics = new KafkaClientMetrics(producer);
                 KafkaClientMetrics consumerMetrics = new KafkaClientMetrics(consumer)) {
                producerMetrics.bindTo(registry);
                consumerMetrics.bindTo(registry);
                System.out.print(registry.scrape());
            }
        }
    }
}
