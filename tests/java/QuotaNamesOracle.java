/**
 * Prints, one per line, the client quota names Kafka defines for users and client ids:
 * QuotaConfig.userAndClientQuotaConfigs(), the definition kafka-configs checks them against.
 *
 * Usage: java -cp <kafka jars> QuotaNamesOracle
 */
public class QuotaNamesOracle {
    public static void main(String[] args) throws Exception {
        Object definition = Class.forName("org.apache.kafka.server.config.QuotaConfig")
            .getMethod("userAndClientQuotaConfigs").invoke(null);
        for (Object name : (java.util.Set<?>) definition.getClass().getMethod("names").invoke(definition)) {
            System.out.println(name);
        }
    }
}
