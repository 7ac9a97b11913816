import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Properties;

/**
 * Builds broker configurations the way the broker does at startup —
 * kafka.server.KafkaConfig.fromProps — and prints one JSON line per case: {"ok":true} or
 * {"ok":false,"exception":...,"message":...}. Each stdin line is one case: tab-separated
 * key=value settings added to a KRaft combined node on loopback ("!key" removes one of its
 * settings). Nothing is started or written.
 *
 * Usage: java -cp <a Kafka release's broker jars> BrokerConfigOracle < cases.tsv
 */
public class BrokerConfigOracle {
    public static void main(String[] args) throws Exception {
        Method fromProps = Class.forName("kafka.server.KafkaConfig").getMethod("fromProps", Properties.class);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null) {
            Properties props = base();
            for (String setting : line.split("\t")) {
                int eq = setting.indexOf('=');
                if (setting.startsWith("!")) {
                    props.remove(setting.substring(1, eq > 0 ? eq : setting.length()));  // drop a base key
                } else if (eq > 0) {
                    props.put(setting.substring(0, eq), setting.substring(eq + 1));
                }
            }
            try {
                fromProps.invoke(null, props);
                System.out.println("{\"ok\":true}");
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                System.out.println("{\"ok\":false,\"exception\":\"" + cause.getClass().getName() + "\",\"message\":\""
                    + String.valueOf(cause.getMessage()).replace("\\", "\\\\").replace("\"", "\\\"")
                        .replace("\n", " ") + "\"}");
            }
        }
    }

    private static Properties base() {
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@127.0.0.1:1");
        props.put("listeners", "PLAINTEXT://127.0.0.1:0,CONTROLLER://127.0.0.1:1");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("controller.listener.names", "CONTROLLER");
        props.put("log.dirs", System.getProperty("java.io.tmpdir") + "/broker-config-oracle");
        return props;
    }
}
