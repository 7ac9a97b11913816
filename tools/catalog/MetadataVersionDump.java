// Prints each KRaft metadata.version feature level with the version it names (e.g. "21 3.8-IV0"),
// from the MetadataVersion enum of the Kafka jars on the class path. Run by gen_metadata_versions.py.
import org.apache.kafka.server.common.MetadataVersion;

public class MetadataVersionDump {
    public static void main(String[] args) {
        for (MetadataVersion version : MetadataVersion.values()) {
            System.out.println(version.featureLevel() + " " + version.version());
        }
    }
}
