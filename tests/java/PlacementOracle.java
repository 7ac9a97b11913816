import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.placement.ClusterDescriber;
import org.apache.kafka.metadata.placement.PartitionAssignment;
import org.apache.kafka.metadata.placement.PlacementSpec;
import org.apache.kafka.metadata.placement.StripedReplicaPlacer;
import org.apache.kafka.metadata.placement.UsableBroker;

/**
 * Places a new topic's replicas with the KRaft controller's own placer (StripedReplicaPlacer)
 * and prints the replica lists as one JSON line, or {"error": ...} when it refuses.
 *
 * Usage: java -cp <kafka jars> PlacementOracle partitions replicas id:rack ...  (id: = no rack)
 */
public class PlacementOracle {
    public static void main(String[] args) {
        int partitions = Integer.parseInt(args[0]);
        short replicas = Short.parseShort(args[1]);
        List<UsableBroker> brokers = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            String[] parts = args[i].split(":", 2);
            String rack = parts.length > 1 ? parts[1] : "";
            brokers.add(new UsableBroker(Integer.parseInt(parts[0]), rack.isEmpty() ? Optional.empty() : Optional.of(rack), false));
        }
        ClusterDescriber cluster = new ClusterDescriber() {
            public java.util.Iterator<UsableBroker> usableBrokers() {
                return brokers.iterator();
            }

            public Uuid defaultDir(int brokerId) {
                return Uuid.ZERO_UUID;
            }
        };
        try {
            List<PartitionAssignment> placed = new StripedReplicaPlacer(new Random(7))
                .place(new PlacementSpec(0, partitions, replicas), cluster).assignments();
            StringBuilder out = new StringBuilder("[");
            for (int p = 0; p < placed.size(); p++) {
                out.append(p > 0 ? "," : "").append(placed.get(p).replicas());
            }
            System.out.println(out.append("]").toString().replace(" ", ""));
        } catch (RuntimeException e) {
            System.out.println("{\"error\":\"" + e.getClass().getSimpleName() + ": "
                + String.valueOf(e.getMessage()).replace("\"", "'") + "\"}");
        }
    }
}
