import java.nio.charset.StandardCharsets;

/**
 * Prints, as one JSON list, the partition the Java producer's built-in partitioner chooses for
 * each key (UTF-8 bytes, as StringSerializer writes them) — BuiltInPartitioner.partitionForKey,
 * the code path KafkaProducer takes for a keyed record without an explicit partition.
 *
 * Usage: java -cp <kafka-clients> PartitionOracle.java <partitions> key ...
 */
public class PartitionOracle {
    public static void main(String[] args) throws Exception {
        int partitions = Integer.parseInt(args[0]);
        java.lang.reflect.Method partitionForKey = Class
            .forName("org.apache.kafka.clients.producer.internals.BuiltInPartitioner")
            .getMethod("partitionForKey", byte[].class, int.class);
        StringBuilder out = new StringBuilder("[");
        for (int i = 1; i < args.length; i++) {
            byte[] key = args[i].getBytes(StandardCharsets.UTF_8);
            out.append(i > 1 ? "," : "").append(partitionForKey.invoke(null, key, partitions));
        }
        System.out.println(out.append("]"));
    }
}
