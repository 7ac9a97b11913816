import com.sun.net.httpserver.HttpServer;
import io.camunda.client.CamundaClient;
import io.camunda.client.annotation.AnnotationUtil;
import io.camunda.client.annotation.JobWorker;
import io.camunda.client.annotation.value.JobWorkerValue;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.worker.BackoffSupplier;
import io.camunda.client.bean.BeanInfo;
import io.camunda.client.jobhandling.CommandWrapper;
import io.camunda.client.jobhandling.DefaultCommandExceptionHandlingStrategy;
import io.camunda.client.metrics.DefaultNoopMetricsRecorder;
import io.camunda.client.spring.configuration.SpringCamundaClientConfiguration;
import io.camunda.client.spring.properties.CamundaClientProperties;
import io.camunda.client.spring.properties.CamundaClientPropertiesPostProcessor;
import io.camunda.client.spring.properties.PropertyBasedJobWorkerValueCustomizer;
import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CompleteJobRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CompleteJobResponse;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.logging.DeferredLog;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.PropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.FileSystemResource;

/**
 * What the Camunda Spring Boot starter does when the cluster refuses a job's auto-complete under
 * backpressure, asked of its own classes: the worker's settings come from an application.yaml or
 * .properties bound as Spring binds them (its loaders, the starter's environment post-processor,
 * Spring's Binder; a .env file's NAME=value lines as Spring binds the environment), the worker value of a method annotated @JobWorker built with the
 * annotation's defaults (AnnotationUtil) and the starter's property customizer applied, the client built with the
 * transport and retry policy the starter's client configuration gives, and the complete command is
 * sent through the starter's CommandWrapper and DefaultCommandExceptionHandlingStrategy — the path a
 * worker's auto-complete takes. The gateway is a stand-in on localhost that refuses every completion
 * as a Zeebe gateway does under backpressure (REST: 503 with a problem body; gRPC:
 * RESOURCE_EXHAUSTED), because the Zeebe broker itself is under the vendor's licence and is not run
 * here. Prints one JSON line: what the worker runs with (auto-complete, max-retries, job timeout,
 * transport, gRPC retry policy) and how many completions reached the gateway.
 *
 * Usage: java -cp <the starter's jars> CamundaCompleteRetryProbe.java FILE
 */
public class CamundaCompleteRetryProbe {
    public static class Worker {
        @JobWorker(type = "probe")
        public void handle() {}
    }

    static final AtomicInteger REST_COMPLETIONS = new AtomicInteger();
    static final AtomicInteger GRPC_COMPLETIONS = new AtomicInteger();

    public static void main(String[] args) throws Exception {
        List<PropertySource<?>> sources = new ArrayList<>();
        if (args[0].endsWith(".env")) {  // NAME=value lines, bound as Spring binds the environment
            Map<String, Object> variables = new HashMap<>();
            for (String line : Files.readAllLines(Path.of(args[0]))) {
                int equals = line.indexOf('=');
                if (!line.startsWith("#") && equals > 0) {
                    variables.put(line.substring(0, equals).trim(), line.substring(equals + 1).trim());
                }
            }
            sources.add(new SystemEnvironmentPropertySource("systemEnvironment", variables));
        } else {
            PropertySourceLoader loader = args[0].endsWith(".properties")
                ? new PropertiesPropertySourceLoader() : new YamlPropertySourceLoader();
            sources.addAll(loader.load("application", new FileSystemResource(args[0])));
        }
        // The environment as the application sees it: the file, then the starter's own post-processor
        // (legacy names mapped onto camunda.client.*, the client mode's defaults added).
        StandardEnvironment environment = new StandardEnvironment();
        environment.setConversionService(new ApplicationConversionService());  // as SpringApplication does
        MutablePropertySources present = environment.getPropertySources();
        present.remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        present.remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        sources.forEach(present::addLast);
        new CamundaClientPropertiesPostProcessor(destination -> new DeferredLog())
            .postProcessEnvironment(environment, new SpringApplication());
        CamundaClientProperties properties = Binder.get(environment)
            .bind("camunda.client", Bindable.of(CamundaClientProperties.class)).orElseGet(CamundaClientProperties::new);
        BeanInfo bean = BeanInfo.builder().beanName("worker").bean(new Worker()).targetClass(Worker.class).build();
        JobWorkerValue value = AnnotationUtil.getJobWorkerValue(bean.toMethodInfo(Worker.class.getMethod("handle"))).orElseThrow();
        new PropertyBasedJobWorkerValueCustomizer(properties).customize(value);
        SpringCamundaClientConfiguration starter =
            new SpringCamundaClientConfiguration(properties, null, List.of(), List.of(), null, null);

        HttpServer rest = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        rest.createContext("/", exchange -> {
            if (exchange.getRequestURI().getPath().endsWith("/completion")) {
                REST_COMPLETIONS.incrementAndGet();
            }
            byte[] body = ("{\"type\":\"about:blank\",\"title\":\"RESOURCE_EXHAUSTED\",\"status\":503,"
                + "\"detail\":\"Expected to handle REST API request, but request was rejected due to backpressure\"}")
                .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
            exchange.sendResponseHeaders(503, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        rest.start();
        Server grpc = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(new GatewayGrpc.GatewayImplBase() {
                @Override
                public void completeJob(CompleteJobRequest request, StreamObserver<CompleteJobResponse> observer) {
                    GRPC_COMPLETIONS.incrementAndGet();
                    observer.onError(Status.RESOURCE_EXHAUSTED
                        .withDescription("Expected to execute the command on one of the partitions, but all failed")
                        .asRuntimeException());
                }
            }).build().start();

        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (CamundaClient client = CamundaClient.newClientBuilder()
                .restAddress(URI.create("http://127.0.0.1:" + rest.getAddress().getPort()))
                .grpcAddress(URI.create("http://127.0.0.1:" + grpc.getPort()))
                .preferRestOverGrpc(starter.preferRestOverGrpc())
                .useDefaultRetryPolicy(starter.useDefaultRetryPolicy())
                .build()) {
            ActivatedJob job = (ActivatedJob) Proxy.newProxyInstance(ActivatedJob.class.getClassLoader(),
                new Class<?>[] {ActivatedJob.class}, (proxy, method, arguments) -> switch (method.getName()) {
                    case "getKey" -> 2251799813685249L;
                    case "getDeadline" -> System.currentTimeMillis() + 60_000L;
                    case "toString" -> "job 2251799813685249";
                    case "hashCode" -> 1;
                    case "equals" -> proxy == arguments[0];
                    default -> null;
                });
            DefaultCommandExceptionHandlingStrategy strategy =
                new DefaultCommandExceptionHandlingStrategy(BackoffSupplier.newBackoffBuilder().build(), scheduler);
            new CommandWrapper(client.newCompleteCommand(job.getKey()), job, strategy,
                new DefaultNoopMetricsRecorder(), value.getMaxRetries()).executeAsync();
            // The starter's backoff starts at 50 ms and grows; a few seconds hold every retry it makes.
            Thread.sleep(Long.parseLong(System.getProperty("probe.wait.ms", "4000")));
        } finally {
            scheduler.shutdownNow();
            rest.stop(0);
            grpc.shutdownNow();
        }
        // A worker's own timeout where valid, else the client's default job timeout (JobWorkerManager).
        java.time.Duration timeout = value.getTimeout() != null && !value.getTimeout().isNegative()
            ? value.getTimeout() : starter.getDefaultJobTimeout();
        System.out.println("{\"transport\":\"" + (starter.preferRestOverGrpc() ? "rest" : "grpc") + "\""
            + ",\"useDefaultRetryPolicy\":" + starter.useDefaultRetryPolicy()
            + ",\"autoComplete\":" + value.getAutoComplete()
            + ",\"timeout\":\"" + timeout + "\""
            + ",\"maxRetries\":" + value.getMaxRetries()
            + ",\"restCompletions\":" + REST_COMPLETIONS.get()
            + ",\"grpcCompletions\":" + GRPC_COMPLETIONS.get() + "}");
        System.exit(0);
    }
}
