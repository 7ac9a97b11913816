"""tools/camunda/gen_camunda_catalog.py: Camunda's configuration classes read into the pack's
catalog. Camunda's own source is not in this repository (its licence, and its size): these tests
run the reader and the generator on classes written here in the same shape — fields with
initializers, constants, Duration/DataSize factories, enums, nested classes, setters that check,
unified classes with a PREFIX and legacy getters — in a real git repository with release tags."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools" / "camunda"))

import gen_camunda_catalog as generator  # noqa: E402
import java_config as java  # noqa: E402

LIMIT = """package io.example.configuration.backpressure;

public final class LimitCfg {
  private static final int FLOOR = 2;
  /** Whether the limit applies. */
  private boolean enabled = true;
  private LimitAlgorithm algorithm = LimitAlgorithm.GENTLE;
  private final SteadyCfg steady = new SteadyCfg();
  private int unbound = 7;
  private Double oldRatio;

  public boolean isEnabled() { return enabled; }
  public void setEnabled(final boolean enabled) { this.enabled = enabled; }
  public LimitAlgorithm getAlgorithm() { return algorithm; }
  public void setAlgorithm(final String algorithm) { this.algorithm = LimitAlgorithm.valueOf(algorithm); }
  public SteadyCfg getSteady() { return steady; }
  public void setOldRatio(final double oldRatio) { this.oldRatio = oldRatio; }

  public enum LimitAlgorithm {
    GENTLE,
    FIRM
  }
}
"""
STEADY = """package io.example.configuration.backpressure;

import java.time.Duration;

public class SteadyCfg {
  private static final Duration WAIT = Duration.ofMillis(250);
  private Duration wait = WAIT;
  private double ratio = 0.75;
  private int ceiling = 1_000;
  private String label = "steady; { not a brace }";

  public Duration getWait() { return wait; }
  public void setWait(final Duration wait) { this.wait = wait; }
  public double getRatio() { return ratio; }
  public void setRatio(final double ratio) {
    checkArgument(ratio < 1.0 && ratio >= 0.5, "ratio in [0.5, 1)", ratio);
    this.ratio = ratio;
  }
  public int getCeiling() { return ceiling; }
  public void setCeiling(final int ceiling) {
    checkPositive(ceiling, "ceiling");
    this.ceiling = ceiling;
  }
  public String getLabel() { return label; }
}
"""
DISK = """package io.example.configuration;

import org.springframework.util.unit.DataSize;

public class DataCfg {
  private DiskCfg disk = new DiskCfg();
  public DiskCfg getDisk() { return disk; }

  public static class DiskCfg {
    private DataSize reserve = DataSize.ofMegabytes(512);
    private int sizeInRelease = 1;
    public DataSize getReserve() { return reserve; }
    public int getSizeInRelease() { return sizeInRelease; }
  }
}
"""
ROOT = """package io.example.configuration;

import io.example.configuration.backpressure.LimitCfg;

public final class BrokerCfg {
  private LimitCfg backpressure = new LimitCfg();
  private DataCfg data = new DataCfg();
  private NetworkCfg network = new NetworkCfg();
  public LimitCfg getBackpressure() { return backpressure; }
  public DataCfg getData() { return data; }
  public NetworkCfg getNetwork() { return network; }
}
"""
UNIFIED = """package io.example.configuration;

import java.util.Set;

public class Steady {
  private static final String PREFIX = "camunda.processing.flow-control.request.steady";
  private static final Set<String> LEGACY_WAIT =
      Set.of("zeebe.broker.backpressure.steady.wait", "zeebe.broker.flowControl.request.steady.wait");

  /** How long a command may wait. */
  private Duration wait = Duration.ofMillis(300);

  public Duration getWait() {
    return UnifiedConfigurationHelper.validateLegacyConfiguration(
        PREFIX + ".wait",
        wait,
        Duration.class,
        BackwardsCompatibilityMode.SUPPORTED_ONLY_IF_VALUES_MATCH,
        LEGACY_WAIT);
  }
}
"""


GATEWAY_DEFAULTS = """package io.example.gateway.configuration;

import java.time.Duration;

public final class ConfigurationDefaults {
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(20);
  public static final boolean DEFAULT_POLLING = true;
}
"""
GATEWAY = """package io.example.gateway.configuration;

import static io.example.gateway.configuration.ConfigurationDefaults.DEFAULT_REQUEST_TIMEOUT;

public class GatewayCfg {
  private RouteCfg route = new RouteCfg();

  public RouteCfg getRoute() { return route; }
  public GatewayCfg setRoute(final RouteCfg route) { this.route = route; return this; }
}
"""
ROUTE = """package io.example.gateway.configuration;

import static io.example.gateway.configuration.ConfigurationDefaults.DEFAULT_REQUEST_TIMEOUT;

public class RouteCfg {
  private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
  private boolean polling = ConfigurationDefaults.DEFAULT_POLLING;

  public Duration getRequestTimeout() { return requestTimeout; }

  @Deprecated(since = "8.1.0", forRemoval = true)
  public RouteCfg setOldTimeout(final Duration timeout) { return setRequestTimeout(timeout); }

  public RouteCfg setRequestTimeout(final Duration requestTimeout) {
    this.requestTimeout = requestTimeout;
    return this;
  }
  public boolean isPolling() { return polling; }
  public RouteCfg setPolling(final boolean polling) { this.polling = polling; return this; }
}
"""
# A private constant of the same name elsewhere is no static import's: it leaves the default read.
SHADOW = """package io.example.configuration;

public class RaftCfg {
  private static final java.time.Duration DEFAULT_REQUEST_TIMEOUT = java.time.Duration.ofSeconds(5);
}
"""


def test_the_reader_takes_fields_defaults_enums_and_checks_from_the_source() -> None:
    classes = {**java.parse(LIMIT), **java.parse(STEADY), **java.parse(DISK)}
    limit, steady, disk = classes["LimitCfg"], classes["SteadyCfg"], classes["DiskCfg"]
    assert [f.name for f in java.bound_fields(limit)] == ["enabled", "algorithm", "steady", "oldRatio"]  # not `unbound`
    assert java.write_only(limit, java.bound_fields(limit)[-1])  # Spring binds it through its setter alone
    assert classes["LimitAlgorithm"].enum_values == ["GENTLE", "FIRM"]
    assert java.bound_fields(limit)[0].doc == "Whether the limit applies."
    values = {f.name: java.evaluate(f.init, f.type, steady, classes) for f in java.bound_fields(steady)}
    assert values == {"wait": "250ms", "ratio": "0.75", "ceiling": "1000", "label": "steady; { not a brace }"}
    assert java.checks(steady) == {"ratio": ["< 1.0", ">= 0.5"], "ceiling": ["> 0"]}
    assert java.evaluate("DataSize.ofMegabytes(512)", "DataSize", disk, classes) == "512MB"
    assert java.evaluate("LimitAlgorithm.FIRM", "LimitAlgorithm", limit, classes) == "FIRM"
    assert isinstance(java.evaluate("compute()", "int", limit, classes), java.Unparsed)  # never guessed
    assert disk.outer == "DataCfg"


def test_the_unified_reader_takes_prefixes_and_legacy_reads() -> None:
    classes = java.parse(UNIFIED)
    (read,) = java.legacy_reads(classes["Steady"])
    assert read == {
        "suffix": ".wait",
        "mode": "SUPPORTED_ONLY_IF_VALUES_MATCH",
        "type": "Duration",
        "legacy": ["zeebe.broker.backpressure.steady.wait", "zeebe.broker.flowControl.request.steady.wait"],
    }
    assert java.kebab("requestTimeout") == "request-timeout"


def _git(repository: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repository), *args], check=True, capture_output=True)


def _release(repository: Path, tag: str, files: dict[str, str]) -> None:
    folder = repository / "zeebe/broker/src/main/java/io/camunda/zeebe/broker/system/configuration"
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    _git(repository, "add", "-A")
    _git(repository, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--allow-empty", "-qm", tag)
    _git(repository, "tag", tag)


def test_the_generator_reads_each_minor_at_its_newest_final_tag(tmp_path: Path) -> None:
    repository = tmp_path / "engine"
    repository.mkdir()
    _git(repository, "init", "-q")
    base = {
        "BrokerCfg.java": ROOT,
        "backpressure/LimitCfg.java": LIMIT,
        "backpressure/SteadyCfg.java": STEADY,
        "DataCfg.java": DISK,
    }
    _release(repository, "8.4.0", base)
    _release(repository, "8.4.2", {**base, "DataCfg.java": DISK.replace("sizeInRelease = 1", "sizeInRelease = 2")})
    _release(repository, "8.5.0-alpha1", {**base, "backpressure/SteadyCfg.java": STEADY.replace("250", "400")})
    _release(repository, "8.5.0-alpha1-extra", base)  # a build variant, not a release
    _release(repository, "7.9.0", base)  # older than the catalog's first minor
    gateway = repository / "zeebe/gateway/src/main/java/io/camunda/zeebe/gateway/impl/configuration"
    gateway.mkdir(parents=True)
    for name, text in (("ConfigurationDefaults.java", GATEWAY_DEFAULTS), ("GatewayCfg.java", GATEWAY),
                       ("RouteCfg.java", ROUTE)):  # fmt: skip
        (gateway / name).write_text(text)
    _release(repository, "8.5.1", {**base, "RaftCfg.java": SHADOW})
    unified = tmp_path / "unified"
    unified.mkdir()
    (unified / "Steady.java").write_text(UNIFIED)
    (unified / "SOURCES.json").write_text(
        json.dumps(
            {"release": "8.9", "repository": "example/engine", "line": "main", "path": "configuration/", "files": {}}
        )
    )
    catalog = generator.build([repository], unified)

    assert [(r["release"], r.get("tag"), r["prerelease"], r["tagged"]) for r in catalog["releases"]] == [
        ("8.4", "8.4.2", False, True),
        ("8.5", "8.5.1", False, True),
        ("8.9", None, False, False),
    ]
    keys = catalog["keys"]
    assert keys["zeebe.broker.data.disk.sizeInRelease"]["8.4"]["default"] == "2"  # 8.4.2, not 8.4.0
    assert keys["zeebe.broker.backpressure.steady.wait"]["8.5"]["default"] == "250ms"  # 8.5.1 over its alpha
    # The gateway's classes, read where a tag has them: defaults through a static import and another
    # class's constant; a method after an annotation with `=` in its arguments still read.
    assert keys["zeebe.gateway.route.requestTimeout"] == {"8.5": {"type": "Duration", "default": "20s"}}
    assert keys["zeebe.gateway.route.polling"]["8.5"]["default"] == "true"
    assert "8.4" not in keys["zeebe.gateway.route.polling"]  # 8.4.2 has no gateway classes
    assert catalog["releases"][0]["gateway_folder"] is None
    assert keys["zeebe.gateway.route.oldTimeout"]["8.5"] == {"type": "Duration", "write_only": True}  # a setter alone
    assert keys["zeebe.broker.backpressure.steady.ratio"]["8.4"]["refuses_unless"] == ["< 1.0", ">= 0.5"]
    assert keys["zeebe.broker.backpressure.algorithm"]["8.4"] == {
        "type": "enum",
        "default": "GENTLE",
        "choices": ["GENTLE", "FIRM"],
    }
    assert not any(k.startswith("zeebe.broker.network") for k in keys)  # a subtree the pack does not judge
    assert keys["zeebe.broker.backpressure.oldRatio"]["8.4"] == {"type": "double", "write_only": True}
    assert keys["camunda.processing.flow-control.request.steady.wait"]["8.9"] == {
        "type": "Duration",
        "default": "300ms",
        "doc": "How long a command may wait.",
        "legacy": ["zeebe.broker.backpressure.steady.wait", "zeebe.broker.flowControl.request.steady.wait"],
        "legacy_mode": "SUPPORTED_ONLY_IF_VALUES_MATCH",
    }
    assert catalog["generator"] == generator.generator_digest()


def test_the_committed_catalog_is_this_generator_s() -> None:
    """Camunda's source is not here to regenerate from (docs/camunda.md): the committed catalog
    must at least be the output of the generator as it is now, and parse as the pack reads it."""
    result = subprocess.run([sys.executable, str(REPO_ROOT / "tools/camunda/gen_camunda_catalog.py"), "--check"],
                            capture_output=True, text=True)  # fmt: skip
    assert result.returncode == 0, result.stderr
    from advisor.catalog import camunda

    assert camunda.releases()[0] == "8.4" and camunda.generation(camunda.releases()[-1]) == camunda.UNIFIED
