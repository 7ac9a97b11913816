import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.TreeSet;

/** Prints what java.util.Properties reads from a file: one "key\tvalue" per line, escaped. */
public class PropertiesOracle {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (InputStreamReader in = new InputStreamReader(new FileInputStream(args[0]), StandardCharsets.UTF_8)) {
            props.load(in);
        }
        for (String key : new TreeSet<>(props.stringPropertyNames())) {
            System.out.println(escape(key) + "\t" + escape(props.getProperty(key)));
        }
    }

    static String escape(String s) {
        StringBuilder out = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c == '\\') out.append("\\\\");
            else if (c == '\t') out.append("\\t");
            else if (c == '\n') out.append("\\n");
            else if (c == '\r') out.append("\\r");
            else if (c < 0x20 || c > 0x7e) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.toString();
    }
}
