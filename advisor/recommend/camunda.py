"""`recommend --camunda`: flow-control values for a Camunda 8 workload (the Camunda pack,
docs/camunda.md) — the write limit and its throttle, the throttle's acceptable backlog sized to the
disk, the request limiter's timeout for a latency target, the processing watermark far enough
above the replication one for the volume's peak fill — each with its formula, what it costs,
and the metric that proves it, spelled for the release's generation of keys, as application.yaml,
environment variables and camunda-platform chart values.

Every number the user does not give is assumed and said so; a value the tool cannot size (no disk
given) stays Camunda's default, named as such.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from advisor.analysis import camunda as view
from advisor.catalog import camunda as catalog
from advisor.model.changes import Change
from advisor.named_tuple import NamedTuple
from advisor.recommend.values import Recommendation

UNIFIED_WRITE = "camunda.processing.flow-control.write."
TIMEOUT = "camunda.processing.flow-control.request.aimd.request-timeout"
HEADROOM = 1.25  # the write limit over the peak: this tool's choice, said in every plan
DISK_SHARE = 0.5  # of the disk above the watermark, what the unexported backlog may take
DISK = "camunda.data.primary-storage.disk."
PROCESSING, REPLICATION, INTERVAL = (
    DISK + "free-space.processing",
    DISK + "free-space.replication",
    DISK + "monitoring-interval",
)
CHECKS = 10  # disk checks the step between the watermarks should last at the peak fill: this tool's rule
DOCS = "Camunda documentation: Self-Managed, flow control (write rate limit and throttling)"


class CamundaProfile(BaseModel):
    """A Camunda 8 workload, in the numbers that size its flow control. Every one is optional."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pi_per_second: float | None = Field(default=None, gt=0, le=1e7, description="process instances started a second")
    records_per_instance: float | None = Field(
        default=None, gt=0, le=1e6, description="log records one instance writes (commands, events)"
    )
    peak_factor: float | None = Field(default=None, ge=1, le=1000, description="peak rate over the average")
    partitions: int | None = Field(default=None, ge=1, le=10_000, description="partitions of the cluster")
    brokers: int | None = Field(default=None, ge=1, le=10_000, description="brokers in the cluster")
    replication_factor: int | None = Field(default=None, ge=1, le=32, description="copies of each partition")
    disk_gb: float | None = Field(default=None, gt=0, le=1e6, description="each broker's data volume, GB")
    record_bytes: int | None = Field(default=None, gt=0, le=100 * 1024 * 1024, description="a log record, average")
    p99_ms: float | None = Field(default=None, gt=0, le=3_600_000, description="command latency the limiter defends")
    client_wait_ms: float | None = Field(
        default=None, gt=0, le=3_600_000, description="how long a client may spend retrying one refused request"
    )
    release: str | None = Field(default=None, description="the Camunda release (default: the catalog's newest)")


# What an unstated number is taken as, and why (each said in the plan).
ASSUMED: dict[str, tuple[Any, str]] = {
    "peak_factor": (2.0, "peaks assumed at twice the average"),
    "partitions": (3, "the camunda-platform chart's partitionCount"),
    "brokers": (3, "the camunda-platform chart's clusterSize"),
    "replication_factor": (3, "the camunda-platform chart's replicationFactor"),
    "record_bytes": (1024, "a log record assumed at 1 KB (variables make them larger)"),
}


class Resolved(NamedTuple):
    values: dict[str, Any]
    assumed: dict[str, str]  # field → why it was assumed
    release: str  # the catalog release the keys are spelled for
    release_named: str  # the release as the user named it (or the newest)


def resolve(profile: CamundaProfile) -> Resolved:
    values = profile.model_dump(exclude_none=True)
    assumed = {}
    for name, (value, why) in ASSUMED.items():
        if name not in values:
            values[name], assumed[name] = value, why
    named = profile.release or catalog.releases()[-1]
    return Resolved(values, assumed, catalog.answering(named), named)


def _spelled(unified: str, release: str) -> str | None:
    """The key a release reads for a unified setting: itself from 8.9, its flowControl spelling in
    8.6–8.8, none before (no write limit)."""
    if catalog.generation(release) == catalog.UNIFIED:
        return unified
    facts = catalog.lookup(unified, catalog.releases()[-1])
    if facts is None or catalog.parse(release)[:2] < view.FLOW_CONTROL_GENERATION:
        return catalog.spelling(unified) if catalog.lookup(unified, release) else next(
            (k for k in (facts.legacy if facts else ()) if catalog.lookup(k, release)), None)  # fmt: skip
    flow = next((k for k in facts.legacy if catalog.uniform(k).startswith("zeebe.broker.flowcontrol.")), None)
    return flow or next((k for k in facts.legacy if catalog.lookup(k, release)), None)


def _recommendation(unified: str, release: str, value: str, **fields: Any) -> Recommendation | None:
    key = _spelled(unified, release)
    if key is None:
        return None
    if catalog.uniform(key).startswith("zeebe.broker.flowcontrol.request."):  # 8.6–8.8 (ZB005)
        fields["rationale"] += (" — in this release any zeebe.broker.flowControl.request key replaces "
                                "zeebe.broker.backpressure whole: move its other settings along")  # fmt: skip
    return Recommendation(component="zeebe-broker", key=key, value=value, **fields)


def recommend(resolved: Resolved) -> tuple[list[Recommendation], list[str]]:
    """The values, and what was not recommended and why (a release without a write limit)."""
    v, release = resolved.values, resolved.release
    notes: list[str] = []
    found: list[Recommendation | None] = []
    rate = v.get("pi_per_second")
    records = v.get("records_per_instance")
    if rate is not None and records is not None:
        per_partition = rate * records / v["partitions"]
        peak = per_partition * v["peak_factor"]
        limit = int(math.ceil(peak * HEADROOM / 100) * 100)
        inputs = {"pi_per_second": rate, "records_per_instance": records, "partitions": v["partitions"],
                  "peak_factor": v["peak_factor"], "headroom": HEADROOM}  # fmt: skip
        found.append(_recommendation(
            UNIFIED_WRITE + "enabled", release, "true", formula="on, with the limit below", inputs={},
            rationale="caps the records a partition writes a second, so a burst above what export and disk bear "
            "is refused at the door instead of piling up unexported on disk",
            source=DOCS, tradeoff="a burst above the limit is refused (RESOURCE_EXHAUSTED / 503): clients must retry",
            proof="zeebe_dropped_request_count_total against zeebe_received_request_count_total (ZM001)",
            expect="refusals stay a small share at normal peaks"))  # fmt: skip
        found.append(_recommendation(
            UNIFIED_WRITE + "limit", release, str(limit),
            formula="⌈pi/s × records/instance ÷ partitions × peak factor × 1.25 ÷ 100⌉ × 100", inputs=inputs,
            rationale=f"the peak a partition writes ({peak:,.0f} records/s) with 25 % headroom (this tool's rule: "
            "normal peaks never meet the cap, only bursts beyond them do)",
            source=DOCS, tradeoff="set too low, normal load is refused; too high, it protects nothing",
            proof="zeebe_dropped_request_count_total (ZM001) and the records written a second per partition",
            expect="no refusals at the stated peak; refusals only beyond it"))  # fmt: skip
    else:
        notes.append("the write limit needs --pi-per-second and --records-per-instance: not sized")
    found.append(_recommendation(
        UNIFIED_WRITE + "throttle.enabled", release, "true", formula="on", inputs={},
        rationale="lowers the write rate toward what the exporters take once the unexported backlog passes the "
        "acceptable backlog, so the partition runs at the exporters' pace instead of filling its disk (off by "
        "default in Self-Managed)",
        source=DOCS, tradeoff="when export is slow, commands are refused sooner: the engine slows to the exporters",
        proof="export lag: committed − exported position (ZM002)", expect="stays near or below the acceptable backlog",
    ))  # fmt: skip
    disk = _watermark(resolved)
    found.append(_backlog(resolved, disk.value if disk is not None else None))
    if v.get("p99_ms") is not None:
        default = view.default(TIMEOUT, release)
        found.append(_recommendation(
            TIMEOUT, release, f"{int(v['p99_ms'])}ms", formula="the latency target", inputs={"p99_ms": v["p99_ms"]},
            rationale=f"AIMD shrinks the in-flight limit when a command takes longer than this (default {default}): "
            "it is the latency the limiter defends",
            source="Camunda documentation: Self-Managed, backpressure (AIMD)",
            tradeoff="lower than the partition can do, the limit sinks to its floor and most commands are refused",
            proof="zeebe_backpressure_requests_limit (ZM003) and the processing latency",
            expect="the limit moves well above its floor at normal load"))  # fmt: skip
    if any(r is None for r in found):
        notes.append(f"Camunda {resolved.release_named} has no write limit or throttle (they arrived in 8.6): "
                     "only the request limiter is tuned")  # fmt: skip
    if disk is None:
        notes.append("the disk watermarks need --pi-per-second and --records-per-instance (the volume's fill rate): "
                     "kept at Camunda's defaults")  # fmt: skip
    elif v.get("disk_gb") is not None and (view.size_bytes(disk.value) or 0) >= v["disk_gb"] * 1024**3 / 2:
        notes.append(f"the processing watermark {disk.value} is half the {v['disk_gb']:g} GB volume or more: at this "
                     "fill the volume is too small for the load (a larger volume, or more brokers)")  # fmt: skip
    return [r for r in [*found, disk] if r is not None] + sdk(resolved), notes


# --- the clients: the TypeScript SDK's backpressure and HTTP retry ------------------------------

SDK_PROFILE, SDK_ATTEMPTS = "CAMUNDA_SDK_BACKPRESSURE_PROFILE", "CAMUNDA_SDK_HTTP_RETRY_MAX_ATTEMPTS"
SDK_BASE, SDK_CAP = "CAMUNDA_SDK_HTTP_RETRY_BASE_DELAY_MS", "CAMUNDA_SDK_HTTP_RETRY_MAX_DELAY_MS"
SDK_SOURCE = "@camunda8/orchestration-cluster-api: its configuration schema and createRetryExecutor (full jitter)"
MOST_ATTEMPTS = 20  # a bound on the attempts sized to a wait: past it, the wait is better spent elsewhere


def retry_span(attempts: int, base: float, cap: float) -> float:
    """The longest the SDK waits across its retries: before retry n it sleeps a random time below
    min(base × 2^(n−1), cap) (full jitter), so at most the sum of those bounds."""
    return float(sum(min(base * 2.0 ** (n - 1), cap) for n in range(1, attempts)))


def sdk(resolved: Resolved) -> list[Recommendation]:
    """The SDK's client values: gating on, and the attempts whose longest wait fits the client's
    wait (the SDK's default count where none is given), with the base and cap kept."""
    found = {name: (catalog.sdk_variable(name) or {}).get("default") for name in
             (SDK_PROFILE, SDK_ATTEMPTS, SDK_BASE, SDK_CAP)}  # fmt: skip
    if any(value is None for value in found.values()):
        return []  # a catalog without the SDK's schema: nothing to spell
    defaults: dict[str, Any] = found
    base, cap, wait = float(defaults[SDK_BASE]), float(defaults[SDK_CAP]), resolved.values.get("client_wait_ms")
    attempts = int(defaults[SDK_ATTEMPTS])
    if wait is not None:
        # At least one retry: a single attempt returns every refusal to the application (ZC002).
        attempts = max(n for n in range(2, MOST_ATTEMPTS + 1) if n == 2 or retry_span(n, base, cap) <= wait)
    span = retry_span(attempts, base, cap)
    return [
        Recommendation(
            key=SDK_PROFILE,
            value=str(defaults[SDK_PROFILE]),
            formula="the SDK's default: gating on",
            inputs={},
            rationale="the SDK lowers how many operations it has in flight when the cluster "
            "refuses (adaptive concurrency); LEGACY only observes (ZC001)",
            tradeoff="under refusals the client sends less, and its callers wait for a slot",
            proof="zeebe_dropped_request_count_total against zeebe_received_request_count_total (ZM001)",
            expect="refusals fall soon after they start, instead of holding",
            source=SDK_SOURCE,
            component="camunda-client",
        ),
        Recommendation(
            key=SDK_ATTEMPTS,
            value=str(attempts),
            formula="the most attempts whose longest wait, Σ min(base × 2^(n−1), cap) over the retries, "
            "fits the client's wait"
            if wait is not None
            else "the SDK's default (no --client-wait-ms)",
            inputs={"client_wait_ms": wait, "base_ms": base, "cap_ms": cap} if wait is not None else {},
            rationale=f"{attempts} attempts wait at most {span:,.0f} ms across their retries "
            f"(on average half): a refusal shorter than that is absorbed; one attempt retries nothing (ZC002)",
            tradeoff="more attempts hold a caller longer and keep load on a refusing cluster; fewer "
            "return the refusal to the application sooner",
            proof="the share of refused requests the application sees against ZM001's at the broker",
            expect="the application sees far fewer refusals than the broker sends",
            source=SDK_SOURCE,
            component="camunda-client",
        ),
        *(
            Recommendation(
                key=key,
                value=f"{value:g}",
                formula="the SDK's default",
                inputs={},
                rationale=why,
                tradeoff=cost,
                proof="ZM001: refusals do not come in bursts right after one another",
                expect="refusals spread out rather than spike",
                source=SDK_SOURCE,
                component="camunda-client",
            )
            for key, value, why, cost in (
                (
                    SDK_BASE,
                    base,
                    "the first retry waits a random time below it; 0 makes every retry immediate (ZC003)",
                    "larger: fewer retries land on a cluster still refusing, each waits longer",
                ),
                (
                    SDK_CAP,
                    cap,
                    "no retry waits longer than it, however many came before (0 as well: ZC003)",
                    "larger: later retries spread further and hold callers longer",
                ),
            )
        ),
    ]


def _backlog(resolved: Resolved, watermark: str | None = None) -> Recommendation | None:
    """The throttle's acceptable backlog, sized to the disk above the processing watermark (the one
    recommended, else the release's default)."""
    v, release = resolved.values, resolved.release
    key = UNIFIED_WRITE + "throttle.acceptable-backlog"
    default = view.default(key, release) or "100000"
    if v.get("disk_gb") is None:
        return _recommendation(
            key, release, str(default), formula="Camunda's default (no disk size given)", inputs={},
            rationale="the unexported records the throttle lets build up; give --disk-gb to size it to the disk",
            source="Camunda source: Throttle (acceptable backlog default)",
            tradeoff="a larger backlog takes more disk and more time to catch up", proof="export lag (ZM002)",
            expect="export lag settles around it under sustained load")  # fmt: skip
    stated = watermark or view.default(PROCESSING, release) or "2GB"
    processing = view.size_bytes(stated)
    replicas = math.ceil(v["partitions"] * v["replication_factor"] / v["brokers"])
    usable = v["disk_gb"] * 1024**3 - (processing or 2 * 1024**3)
    fits = max(0, int(usable * DISK_SHARE / replicas / v["record_bytes"]))
    value = min(int(default), fits)
    inputs = {"disk_gb": v["disk_gb"], "processing_watermark": stated, "replicas_per_broker": replicas,
              "record_bytes": v["record_bytes"], "disk_share": DISK_SHARE, "default": int(default)}  # fmt: skip
    return _recommendation(
        key, release, str(value),
        formula="min(default, (disk − processing watermark) × 0.5 ÷ partition replicas per broker ÷ record size)",
        inputs=inputs,
        rationale=f"half the disk above the processing watermark, shared by the {replicas} partition replicas a "
        f"broker holds, holds {fits:,} records each"
        + (": the default fits" if value == int(default) else ": below the default, which would not fit"),
        source="Camunda source: Throttle (acceptable backlog); the disk share is this tool's rule",
        tradeoff="smaller: throttling starts sooner; larger: a longer backlog to catch up and less disk spare",
        proof="export lag (ZM002) and the volume's free space",
        expect="free space never nears the watermark")  # fmt: skip


def _watermark(resolved: Resolved) -> Recommendation | None:
    """The processing watermark: far enough above the replication one that, at the peak fill, the
    volume takes CHECKS disk checks to fall between them (ZM005), so the broker pauses commands
    before the journal is refused segments. The defaults where they already leave that room."""
    v, release = resolved.values, resolved.release
    if v.get("pi_per_second") is None or v.get("records_per_instance") is None:
        return None
    processing_default = view.default(PROCESSING, release) or "2GB"
    replication_default = view.default(REPLICATION, release) or "1GB"
    interval = view.default(INTERVAL, release) or "1s"
    fill = (v["pi_per_second"] * v["records_per_instance"] * v["peak_factor"] * v["record_bytes"]
            * v["replication_factor"] / v["brokers"])  # fmt: skip
    needed = fill * (view.duration_ms(interval) or 1000) / 1000 * CHECKS
    replication = view.size_bytes(replication_default) or 1024**3
    gap = (view.size_bytes(processing_default) or 2 * 1024**3) - replication
    fits = gap >= needed
    value = processing_default if fits else f"{math.ceil((replication + needed) / 1024**2)}MB"
    inputs = {"pi_per_second": v["pi_per_second"], "records_per_instance": v["records_per_instance"],
              "peak_factor": v["peak_factor"], "record_bytes": v["record_bytes"],
              "replication_factor": v["replication_factor"], "brokers": v["brokers"], "interval": interval,
              "replication_watermark": replication_default, "checks": CHECKS}  # fmt: skip
    mb = needed / 1024**2
    return _recommendation(PROCESSING, release, value, **{
        "formula": "max(default, replication watermark + peak fill per broker × disk-check interval × 10), the fill "
        "being pi/s × records/instance × peak factor × record size × replication factor ÷ brokers",
        "inputs": inputs,
        "rationale": f"at the peak a broker's volume fills {fill / 1024**2:,.1f} MB/s: {mb:,.1f} MB in ten disk "
        f"checks ({interval} apart), "
        + (f"which the default gap of {gap / 1024**2:,.0f} MB between the watermarks holds: the default fits"
           if fits else "more than the default gap between the watermarks holds")
        + " — so a check sees the volume between them, and commands pause before the log is refused segments",
        "source": "Camunda source: DiskSpaceUsageMonitorActor and SegmentLoader (where each watermark is checked); "
        "the ten checks are this tool's rule",
        "tradeoff": "a higher processing watermark leaves less of the disk to the partitions before commands pause",
        "proof": "the volume's fall per disk-check interval against the gap between the watermarks (ZM005), and "
        "its time to the processing watermark (ZM004)",
        "expect": "ZM005 silent at peak load",
    })  # fmt: skip


class Now(NamedTuple):
    """A broker configuration's value now beside a recommended one (its file, what it runs with)."""

    path: str
    subject: str
    key: str
    now: str | None
    written: bool  # written in the file (else the release's default)
    recommended: str
    spelled: str | None = None  # the key as the file writes it, when another spelling (a legacy one)

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


class CamundaPlan(NamedTuple):
    resolved: Resolved
    recommendations: list[Recommendation]
    notes: list[str]
    against: tuple[Now, ...] = ()

    @property
    def KIND(self) -> str:
        return "camunda-recommend"

    @property
    def broker(self) -> list[Recommendation]:
        return [r for r in self.recommendations if r.component == "zeebe-broker"]

    def snippets(self) -> dict[str, str]:
        broker, clients = self.broker, [r for r in self.recommendations if r.component == "camunda-client"]
        return {"application": application_yaml(broker), "env": environment(broker),
                "helm": helm_values(broker, self.resolved.release),
                "client_env": "".join(f"{r.key}={r.value}\n" for r in clients)}  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return {
            "product": "camunda",
            "release": self.resolved.release_named,
            "keys_of_release": self.resolved.release,
            "profile": self.resolved.values,
            "assumed": self.resolved.assumed,
            "recommendations": [r.to_dict() for r in self.recommendations],
            "notes": self.notes,
            "against": [a.to_dict() for a in self.against],
            "snippets": self.snippets(),
        }


def changes(plan: CamundaPlan, only: set[str] | None = None) -> list[Change]:
    """The plan made in the broker configurations given: each value set where the file does not run
    with it, and a key of another generation that spells the same setting removed beside it (the
    release reads one of the two: ZB001, ZB002, ZB005). `only`: these keys alone."""
    wanted = {r.key: r for r in plan.recommendations if r.component == "zeebe-broker"}
    made: list[Change] = []
    for now in plan.against:
        r = wanted.get(now.key)
        if r is None or (only is not None and now.key not in only):
            continue
        if now.now is not None and now.now.strip().lower() == r.value.strip().lower() and not now.spelled:
            continue  # already so
        made.append(Change("set", now.key, r.value, "unsafe", now.path, now.subject))
        if now.spelled:
            made.append(Change("remove", now.spelled, None, "unsafe", now.path, now.subject))
    return made


def plan(profile: CamundaProfile, config_sets: list[Any] = ()) -> CamundaPlan:  # type: ignore[assignment]
    """The plan, and each broker configuration given judged against it: what its release runs with now."""
    resolved = resolve(profile)
    recommendations, notes = recommend(resolved)
    against = []
    for config_set in config_sets:
        if config_set.component != "zeebe-broker":
            continue
        judged = view.judged_release(config_set)
        for r in recommendations:
            if r.component != "zeebe-broker":
                continue
            concept = view.concept_of(r.key)
            value = view.in_force(config_set, concept, judged.release)
            written = [s.key for s in view.written_concepts(config_set).get(concept, [])]
            other = next((k for k in written if catalog.uniform(k) != catalog.uniform(r.key)), None)
            against.append(Now(config_set.path, config_set.name, r.key, value.value, value.setting is not None,
                               r.value, other))  # fmt: skip
    return CamundaPlan(resolved, recommendations, notes, tuple(against))


def application_yaml(recommendations: list[Recommendation]) -> str:
    """The values as one nested application.yaml tree."""
    tree: dict[str, Any] = {}
    for r in recommendations:
        node = tree
        *parents, leaf = r.key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = r.value
    lines: list[str] = []

    def write(node: dict[str, Any], depth: int) -> None:
        for name, value in node.items():
            if isinstance(value, dict):
                lines.append(f"{'  ' * depth}{name}:")
                write(value, depth + 1)
            else:
                lines.append(f"{'  ' * depth}{name}: {value}")

    write(tree, 0)
    return "\n".join(lines) + "\n"


variable = catalog.variable  # the environment variable Spring's relaxed binding reads for a key


def environment(recommendations: list[Recommendation]) -> str:
    return "".join(f"{variable(r.key)}={r.value}\n" for r in recommendations)


def helm_values(recommendations: list[Recommendation], release: str) -> str:
    """camunda-platform chart values: the broker's `env:` list (`zeebe:` up to 8.7, `orchestration:` on)."""
    section = "orchestration" if catalog.parse(release)[:2] >= (8, 8) else "zeebe"
    lines = [f"{section}:", "  env:"]
    for r in recommendations:
        lines += [f"    - name: {variable(r.key)}", f'      value: "{r.value}"']
    return "\n".join(lines) + "\n"
