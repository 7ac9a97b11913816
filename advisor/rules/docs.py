"""Markdown for rules: one page per rule and the index. Used by `kafka-advisor explain`
and by tools/gen_rule_docs.py, which writes docs/rules/."""

from __future__ import annotations

from collections.abc import Sequence

from advisor.model.vocabulary import ID_PRODUCTS, Client
from advisor.rules.spec import Definition


def check_module(name: str) -> str:
    """The file that holds a registered check, for the rule's page."""
    from advisor.rules import checks
    from advisor.rules.registry import CLUSTER_CHECKS, METRIC_CHECKS, PYTHON_CHECKS

    checks.load_all()

    function = PYTHON_CHECKS.get(name) or CLUSTER_CHECKS.get(name) or METRIC_CHECKS.get(name)
    module = function.__module__ if function is not None else "advisor.rules.checks"
    return module.replace(".", "/") + ".py"


def _fence(text: str) -> str:
    return "```\n" + text.rstrip("\n") + "\n```"


def rule_page(rule: Definition) -> str:
    clients = ", ".join(rule.applies_to.clients)
    lines = [
        f"# {rule.id} {rule.name}",
        "",
        rule.summary,
        "",
        "| | |",
        "|---|---|",
        f"| severity | {rule.severity} |",
        f"| category | {rule.category} |",
        f"| applies to | {', '.join(rule.applies_to.components) or _measured(rule)} |",
        versions_row(rule),
        f"| source | {rule.source} |",
    ]
    if set(rule.applies_to.components) & {"producer", "consumer", "admin"} and not rule.live:  # a group, not a client
        lines.insert(
            lines.index(f"| applies to | {', '.join(rule.applies_to.components)} |") + 1, f"| clients | {clients} |"
        )
    if rule.watch is not None:
        lines.remove(versions_row(rule))  # a metric is judged whatever the release
    if rule.skip_in_dev:
        lines.append("| dev profile | silent |")
    if rule.assumes_brokers:
        lines.append("| broker count unknown | judged as several brokers, said in the finding |")
    if rule.scope != "config-set":
        lines.append(f"| scope | {rule.scope} |")
    if rule.live:
        judges = "a running cluster, read by `audit` (docs/audit.md)"
        if rule.beside:
            judges = "the files given against a running cluster: `audit` with PATHs, `lint --bootstrap-server`"
        lines.append(f"| judges | {judges} |")
    lines += ["", "## What it checks", ""]
    if rule.when:
        lines += ["JMESPath predicate over the rule context (see docs/architecture.md):", "", _fence(rule.when)]
    elif rule.watch is not None:
        lines += _watch(rule)
    elif rule.python:
        kind = "Cluster check" if rule.scope == "cluster" else "Python check"
        lines.append(f"{kind} `{rule.python}` ({check_module(rule.python)}).")
    else:
        lines.append("Built into the run session (advisor/report/suppress.py): it reads the files' directives.")
    if rule.params:
        lines += ["", f"Parameters (set them in the project config, `[params.{rule.id}]`):", ""]
        lines += [f"- `{name}` ({spec['type']}, default {spec['default']}): {spec['description']}"
                  for name, spec in rule.params.items()]  # fmt: skip
    lines += ["", "## Why", "", rule.rationale, "", "## Recommended", "", rule.recommended]
    if rule.fix is not None:
        key = rule.fix.key or rule.keys[0]
        action = f"remove `{key}`" if rule.fix.action == "remove" else f"set `{key}={rule.fix.value}`"
        lines += ["", f"Fix: {action} ({rule.fix.applicability})."]
    lines += [
        "",
        "## Example",
        "",
        *(
            ["Saved snapshots of a cluster (`audit --snapshot FILE`), each the state a live read gives:", ""]
            if rule.live
            else []
        ),
        "Flagged:",
        "",
        _fence(rule.example.bad),
        "",
        "Not flagged:",
        "",
        _fence(rule.example.good),
    ]
    if rule.example.alongside is not None:
        lines += ["", f"Both linted together with `{rule.example.alongside['name']}`:", ""]
        lines.append(_fence(rule.example.alongside["text"]))
    lines += ["", "## References", ""]
    lines += [f"- {reference}" for reference in rule.references]
    return "\n".join(lines) + "\n"


_READINGS = {
    "value": "its value",
    "count": "cumulative count: judged by its increase between samples",
    "rate": "a rate the meter already smooths (one-minute rate)",
    "lifetime": "an average since the broker started: not judged",
    "quantile": "percentiles (a quantile label)",
    "count-or-rate": "a one-minute rate when at most 1, else a cumulative count",
}


def _watch(rule: Definition) -> list[str]:
    """What a metric rule reads, every name it goes by, and how it is judged."""
    from advisor.analysis import flow
    from advisor.metrics import clients, vocabulary

    watch = rule.watch
    assert watch is not None, "an entity rule says what it watches (rules/definition.py)"
    if watch.metric in clients.BY_ID:
        lines = [f"Metric check `{rule.python}` ({check_module(rule.python or '')}) on the client metric "
                 f"`{watch.metric}`, per client (its client id), read from each client's own output "
                 "(docs/metrics.md):", "", "| client | written as |", "|---|---|"]  # fmt: skip
        lines += [f"| {library} | `{field}` |" for library, field in clients.FIELDS.get(watch.metric, ())]
        return lines
    if watch.metric in flow.QUANTITIES:
        return _flow_watch(rule)
    metric = vocabulary.by_mbean(watch.metric)
    comparison = "above" if watch.fires == "above" else "below"
    if watch.events and not watch.lifetime:
        how = (
            "Fires when more than `threshold` events were counted between the first and last sample observed; a"
            " count seen once is not judged (it grows in normal life: it says nothing about now)."
        )
    elif watch.events:
        how = (
            "Fires when more than `threshold` events were counted in everything observed (a count seen once says"
            " how many since the broker started, with the confidence lowered)."
        )
    else:
        over = {"cluster": "summed across the cluster's nodes at each time",
                "cluster-max": "the largest across the cluster's nodes at each time (every controller reports it)",
                }.get(watch.over, "per node")  # fmt: skip
        how = (
            f"Fires when the metric, {over}, has stayed {comparison} `threshold` for `sustained_seconds` at the end of"
            " what was observed; one snapshot is judged as it stands, with the confidence lowered."
        )
    lines = [f"Metric check `{rule.python}` ({check_module(rule.python or '')}) on `{metric.mbean}`.", "", how, "",
             "| series name | read as | dialects |", "|---|---|---|"]  # fmt: skip
    known = (*vocabulary.DIALECTS, vocabulary.JMX_DEFAULT, vocabulary.JMX_DEFAULT_CASE)
    for name, reading, dialects in vocabulary.names(metric):
        shown = ", ".join(d for d in known if d in dialects)
        lines.append(f"| `{name}` | {_READINGS[reading]} | {shown} |")
    # The exporter's default format: names shared by a bean type, told apart by the bean's `name` key.
    for (name, key), found in vocabulary.DEFAULT_NAMES.items():
        if found.metric is metric:
            reading = vocabulary.Reading.QUANTILE if found.attribute in vocabulary.PERCENTILES else (
                vocabulary.counted(metric, _ATTRIBUTE_READING[found.attribute]))  # fmt: skip
            lines.append(f'| `{name}{{name="{key}"}}` | {_READINGS[reading]} | {found.dialect} |')
    return lines


_ATTRIBUTE_READING = {"Value": "value", "Count": "count", "OneMinuteRate": "rate", "MeanRate": "lifetime"}


def _measured(rule: Definition) -> str:
    """What an entity rule reads: the brokers' metrics, a client's own, or the flow view's offsets."""
    from advisor.analysis import flow
    from advisor.metrics import clients

    metric = rule.watch.metric if rule.watch is not None else ""
    if metric in clients.BY_ID:
        return f"{clients.BY_ID[metric].role} metrics (the client's own)"
    if metric == flow.DISK_FILL:
        return "hosts' free disk space"
    if metric in flow.QUANTITIES:
        return "consumer groups' offsets over time"
    return "broker and controller metrics"


def _flow_watch(rule: Definition) -> list[str]:
    """A flow rule: the quantity it judges and every series it is built from."""
    from advisor.analysis import flow
    from advisor.metrics import clients, vocabulary

    assert rule.watch is not None, "an entity rule says what it watches (rules/definition.py)"
    what, metrics, client_metrics = flow.QUANTITIES[rule.watch.metric]
    lines = [f"Flow check `{rule.python}` ({check_module(rule.python or '')}) on {what}, from the flow-control view "
             "(advisor/analysis/flow.py, docs/metrics.md \"Flow control\"), built from:", "",
             "| series name | what it is | written by |", "|---|---|---|"]  # fmt: skip
    for metric in metrics:
        for name, _, dialects in vocabulary.names(metric):
            lines.append(f"| `{name}` | {metric.short} | {', '.join(sorted(dialects))} |")
    for client_metric in client_metrics:
        for library, field in clients.FIELDS.get(client_metric.id, ()):
            lines.append(f"| `{field}` | {client_metric.id} | {library} |")
    return lines


def versions_cell(rule: Definition) -> str:
    """The releases a rule judges: Kafka's, or (a product pack's rule) its product's."""
    if rule.releases is not None or rule.id[0] != "K":
        return f"{product_name(rule)} `{rule.releases or 'all'}`"
    return f"`{rule.kafka_versions}`"


def versions_row(rule: Definition) -> str:
    if rule.id[0] != "K":
        return f"| {product_name(rule)} releases | `{rule.releases or 'all'}` |"
    return f"| Kafka versions | `{rule.kafka_versions}` |"


def product_name(rule: Definition) -> str:
    return ID_PRODUCTS[rule.id[0]].capitalize()


def _generated(title: str) -> list[str]:
    return [f"# {title}", "", "Generated from rules/*.yaml by tools/gen_rule_docs.py; do not edit.", ""]


def index_page(rules: Sequence[Definition]) -> str:
    lines = [
        *_generated("Rules"),
        "| id | name | severity | category | applies to | Kafka versions | source |",
        "|---|---|---|---|---|---|---|",
    ]
    for rule in rules:
        applies = ", ".join(rule.applies_to.components)
        if list(rule.applies_to.clients) != list(Client.values()):
            applies += f" ({', '.join(rule.applies_to.clients)})"
        lines.append(
            f"| [{rule.id}]({rule.id}.md) | {rule.name} | {rule.severity} | {rule.category} | {applies} "
            f"| {versions_cell(rule)} | {rule.source} |"
        )
    return "\n".join(lines) + "\n"


def fix_page(rules: Sequence[Definition]) -> str:
    """docs/fix.md: which rules fix what, and how (`lint --fix`, `--unsafe-fixes`, `--diff`)."""
    from advisor.rules.checks import keys, throttles

    lines = [
        *_generated("Fixes"),
        "`lint --diff` shows the safe fixes; `lint --fix` writes them into the files, lints again and fixes",
        "again until nothing changes, and reports what is left. `--unsafe-fixes` adds the unsafe ones: they",
        "change how the software behaves, so review them. Everything but the fixed value stays byte for",
        "byte as it was (comments, order, quoting, indentation, line endings, encoding and byte-order mark,",
        "the final newline or its absence). A value that is a secret, a template (`${VAR}`, `{{ }}`) or",
        "shared through a YAML anchor, alias or merge key is never written: the report says so, with the",
        "line. A file that is a symbolic link, not a regular file, outside the paths given, read-only or",
        "changed since it was read is not written either (exit 2, with the reason); the others still are.",
        "A file whose fixes do not settle within four passes is put back as it was, and said. In a shell",
        "script a fix changes a flag's value where it is written as a literal (`--throttle 40000000`); a",
        "value built from a variable is said, not written. A format no writer edits (a Dockerfile, JVM",
        "options, a Terraform file, a reassignment plan) gets no fix, and the report says so for each.",
        "`recommend --apply` writes a load profile's values with the same writers, one step at a time",
        "(docs/recommend.md); the pre-commit hook `kafka-advisor-fix` runs `lint --fix` (docs/ci.md).",
        "",
        "| rule | name | fix | applicability |",
        "|---|---|---|---|",
    ]
    fixes = (*keys.COMPUTED_FIXES, *throttles.COMPUTED_FIXES)
    computed = {check: (action, applicability, when) for check, action, applicability, when in fixes}
    for rule in rules:
        if rule.fix is not None:
            key = rule.fix.key or rule.keys[0]
            what = f"remove `{key}`" if rule.fix.action == "remove" else f"`{key}={rule.fix.value}`"
            lines.append(f"| [{rule.id}](rules/{rule.id}.md) | {rule.name} | {what} | {rule.fix.applicability} |")
        elif rule.python in computed:
            action, applicability, when = computed[rule.python]
            what = f"remove the key: {when}" if action == "remove" else when
            lines.append(f"| [{rule.id}](rules/{rule.id}.md) | {rule.name} | {what} | {applicability} |")
    return "\n".join(lines) + "\n"
