"""`lint --fix`: the safe fixes written into the files, byte for byte the same but for the values
fixed (fixtures/fix/CASE/before → after, one case per format and shape: CRLF, ISO-8859-1, a BOM,
no final newline, quoted compose entries, JSON with a key inserted); the report is what is left;
hostile files are refused one by one, with the reason, and the others still fixed."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.fix import FilePlan, writing
from advisor.model.changes import Edit
from advisor.report.session import lint as lint_files

CASES = Path(__file__).resolve().parents[2] / "fixtures" / "fix"
PRODUCER = "bootstrap.servers=k:9092\nenable.idempotence=true\nmax.in.flight.requests.per.connection=9\nacks=1\n"


def _safe_fixes_left(folder: Path) -> set[str]:
    files = sorted(p for p in folder.iterdir() if p.is_file())
    return {f.rule for f in lint_files(files).findings
            if not f.suppressed and any(c.applicability == "safe" for c in f.changes)}  # fmt: skip


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir()), ids=str)
def test_fix_writes_the_after_file_byte_for_byte(case: str, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    work = tmp_path / case
    shutil.copytree(CASES / case / "before", work)
    assert _safe_fixes_left(work)  # the case has something to fix
    main(["lint", str(work), "--fix"])
    assert "kafka-advisor: fixed " in capsys.readouterr().err
    for expected in sorted((CASES / case / "after").iterdir()):
        assert (work / expected.name).read_bytes() == expected.read_bytes(), expected.name
    assert _safe_fixes_left(work) == set()  # linting the fixed files finds none of what was fixed


def test_the_report_is_what_is_left_and_says_what_unsafe_fixes_would_add(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    producer = tmp_path / "orders.producer.properties"
    producer.write_text(PRODUCER)
    assert main(["lint", str(producer), "--fix", "--output-format", "json"]) == 1  # acks=1 is left: unsafe
    captured = capsys.readouterr()
    assert "max.in.flight.requests.per.connection=5" in producer.read_text() and "acks=1" in producer.read_text()
    assert "fixed 1 finding(s) in 1 file(s)" in captured.err and "more fix(es) with --unsafe-fixes" in captured.err
    left = {f["rule"] for f in json.loads(captured.out)["findings"]}
    assert "KP103" not in left and "KP101" in left
    main(["lint", str(producer), "--fix", "--unsafe-fixes"])
    assert "acks=all" in producer.read_text()
    assert "--unsafe-fixes" not in capsys.readouterr().err


def test_fix_with_diff_only_shows(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    producer = tmp_path / "orders.producer.properties"
    producer.write_text(PRODUCER)
    assert main(["lint", str(producer), "--fix", "--diff", "--unsafe-fixes"]) == 1
    shown = capsys.readouterr().out
    assert "+max.in.flight.requests.per.connection=5" in shown and "+acks=all" in shown
    assert producer.read_text() == PRODUCER
    assert main(["lint", str(producer), "--unsafe-fixes"]) == 2
    assert "--unsafe-fixes needs --fix or --diff" in capsys.readouterr().err


def test_a_link_and_a_read_only_file_are_refused_and_the_others_still_fixed(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    outside = tmp_path / "outside" / "shared.producer.properties"
    outside.parent.mkdir()
    outside.write_text(PRODUCER)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "linked.producer.properties").symlink_to(outside)
    locked = tree / "locked.producer.properties"
    locked.write_text(PRODUCER)
    locked.chmod(0o444)
    plain = tree / "plain.producer.properties"
    plain.write_text(PRODUCER)
    try:
        code = main(["lint", str(tree), "--follow-links", "--fix"])
        err = capsys.readouterr().err
    finally:
        locked.chmod(0o644)
    assert code == 2
    assert outside.read_text() == PRODUCER and locked.read_text() == PRODUCER
    assert "max.in.flight.requests.per.connection=5" in plain.read_text()
    assert "linked.producer.properties: fixes not written: a symbolic link" in err, err
    assert "locked.producer.properties: fixes not written: read-only" in err, err


def test_a_file_changed_since_it_was_read_or_outside_the_paths_is_not_written(tmp_path: Path) -> None:
    producer = tmp_path / "orders.producer.properties"
    producer.write_text(PRODUCER)
    plan = FilePlan(str(producer), (Edit(str(producer), 0, 9, "bootstrap"),), ())
    assert writing.write(plan, PRODUCER.replace("9092", "9093"), [tmp_path]).refused == "changed since it was read"
    assert writing.write(plan, PRODUCER, [tmp_path / "elsewhere"]).refused == "outside the paths given"
    folder = tmp_path / "server.properties"
    folder.mkdir()
    assert writing.write(FilePlan(str(folder), (), ()), "", [tmp_path]).refused == "not a regular file"
    assert producer.read_text() == PRODUCER


@pytest.mark.parametrize(
    ("name", "original"),
    [
        ("a.yaml", "\ufeffkey: 1\n".encode()),  # UTF-8 with its BOM
        ("a.yaml", "key: 1\r\n".encode("utf-16")),  # UTF-16, its BOM first
        ("a.properties", "# caf\u00e9\nkey=1".encode("latin-1")),  # what Java assumes of a .properties
        ("a.properties", "\ufeffkey=1\n".encode()),  # Java reads the BOM as part of the first key
    ],
)
def test_the_encoding_read_is_the_encoding_written(tmp_path: Path, name: str, original: bytes) -> None:
    from advisor.sources.text import decode

    path = tmp_path / name
    text = decode(path, original)
    assert writing.encoded_like(path, original, text) == original
    written = writing.encoded_like(path, original, text.replace("1", "2"))
    assert written is not None and decode(path, written) == text.replace("1", "2")
    assert len(written) == len(original)


def test_a_character_the_encoding_lacks_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.properties"
    original = "# caf\u00e9\nkey=1".encode("latin-1")
    assert writing.encoded_like(path, original, "key=\u20ac") is None  # no euro sign in ISO-8859-1


def test_fixes_that_do_not_settle_are_undone_and_said(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """No rule of the set fixes back and forth (the per-format cases prove they settle); a writer that
    reports a write without making it stands in for one, to prove the loop ends and undoes."""
    producer = tmp_path / "orders.producer.properties"
    producer.write_text(PRODUCER)
    writes = []

    def pretend(plan, read_text, given):  # type: ignore[no-untyped-def]
        writes.append(plan.path)
        producer.write_text(PRODUCER + "# touched\n")  # what a real write would leave, undone later
        return writing.Outcome(plan.path, len(plan.edits), before=PRODUCER.encode())

    monkeypatch.setattr(writing, "write", pretend)
    monkeypatch.setattr(writing, "restore", lambda outcome: producer.write_bytes(outcome.before) and None)
    assert main(["lint", str(producer), "--fix"]) == 2
    err = capsys.readouterr().err
    assert "its fixes do not settle after 4 passes; undone" in err, err
    assert producer.read_text() == PRODUCER and len(writes) == 4


ALIASED = """\
x-cleaner: &cleaner "false"
services:
  kafka-1:
    image: apache/kafka:4.1.0
    environment:
      KAFKA_LOG_CLEANER_ENABLE: *cleaner
  kafka-2:
    image: apache/kafka:4.1.0
    environment:
      KAFKA_LOG_CLEANER_ENABLE: *cleaner
"""
TEMPLATED = """\
services:
  kafka:
    image: apache/kafka:4.1.0
    environment:
      KAFKA_NODE_ID: 1
      KAFKA_LOG_CLEANER_ENABLE: ${CLEANER:-false}
      KAFKA_NUM_RECOVERY_THREADS_PER_DATA_DIR: 1
"""


@pytest.mark.parametrize(
    ("text", "line", "why", "fixed"),
    [
        (ALIASED, 6, "shared by 2 settings through a YAML anchor, alias or merge key", None),
        (TEMPLATED, 6, "a template: a fix would replace the expression", "KAFKA_NUM_RECOVERY_THREADS_PER_DATA_DIR: 2"),
    ],
    ids=["anchor", "template"],
)
def test_a_shared_or_templated_value_is_never_written_and_the_report_says_why(  # type: ignore[no-untyped-def]
    tmp_path: Path, capsys, text: str, line: int, why: str, fixed: str | None
) -> None:
    compose = tmp_path / "docker-compose.yml"
    compose.write_text(text)
    main(["lint", str(compose), "--fix", "--output-format", "json"])
    captured = capsys.readouterr()
    notes = [n for n in json.loads(captured.out)["skipped"] if n["kind"] == "fix-held"]
    assert [(n["line"], why in n["message"]) for n in notes][:1] == [(line, True)], notes
    after = compose.read_text()
    assert after.splitlines()[line - 1] == text.splitlines()[line - 1]  # the held value is as written
    if fixed is None:
        assert after == text
    else:  # the other fix of the file is still written
        assert after == text.replace("KAFKA_NUM_RECOVERY_THREADS_PER_DATA_DIR: 1", fixed)


def test_a_secret_value_is_held_back_by_the_planner() -> None:
    from advisor.fix import held_back
    from advisor.model.document import Setting
    from advisor.model.provenance import Location

    place = Location("client.properties", 3)
    secret = Setting("ssl.key.password", "hunter2", "ssl.key.password", place, secret=True)
    assert held_back(secret, 1) == "its value is a secret"
    plain = Setting("linger.ms", "5", "linger.ms", place)
    assert held_back(plain, 1) is None and held_back(plain, 2) is not None


# What the real parsers must see change in each case (a compose list entry "K=V" is named by K),
# and nothing else: the fixed file is read the same for every key the fix did not touch.
CHANGED = {
    "compose-env-list": {"KAFKA_LOG_CLEANER_ENABLE", "KAFKA_NUM_RECOVERY_THREADS_PER_DATA_DIR"},
    "compose-env-map": {"KAFKA_LOG_CLEANER_ENABLE"},
    "dotenv-crlf": {"KAFKA_LOG_CLEANER_ENABLE"},
    "helm-extraconfig": {"extraConfig"},  # a block of properties text: the block is the YAML value
    "spring-properties-crlf": {"spring.kafka.producer.properties.max.in.flight.requests.per.connection"},
    "toml-librdkafka": {"max.in.flight.requests.per.connection"},
    "kafka-python-yaml": {"max_in_flight_requests_per_connection"},
    "kcat-insert-crlf": {"enable.idempotence"},
    "librdkafka-json": {"enable.idempotence"},
    "properties-crlf-latin1": {"max.in.flight.requests.per.connection"},
    "spring-yaml": {"max.in.flight.requests.per.connection"},
    "strimzi-bom": {"log.cleaner.enable", "num.recovery.threads.per.data.dir"},
}


def _leaves(value, path=()):  # type: ignore[no-untyped-def]
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _leaves(inner, (*path, str(key)))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            named = str(inner).split("=", 1)[0] if isinstance(inner, str) and "=" in inner else str(index)
            yield from _leaves(inner, (*path, named))
    else:
        yield path, value


def _read_by_the_real_parser(path: Path) -> dict:  # type: ignore[type-arg]
    if path.suffix in (".properties", ".conf") or path.name == ".env":  # key=value lines, as Properties reads them
        import subprocess

        oracle = Path(__file__).resolve().parents[1] / "java" / "PropertiesOracle.java"
        java = subprocess.run(["java", str(oracle), str(path)], capture_output=True, text=True, check=True, timeout=120)
        return {(line.split("\t")[0],): line.split("\t", 1)[1] for line in java.stdout.splitlines()}
    text = path.read_bytes().decode("utf-8-sig")
    if path.suffix == ".json":
        return dict(_leaves(json.loads(text)))
    if path.suffix == ".toml":
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # Python 3.10: tomli, the same parser
            import tomli as tomllib

        return dict(_leaves(tomllib.loads(text)))
    from ruamel.yaml import YAML

    return dict(_leaves(YAML(typ="safe", pure=True).load(text)))


@pytest.mark.skipif(shutil.which("java") is None, reason="needs Java to run java.util.Properties")
@pytest.mark.parametrize("case", sorted(CHANGED), ids=str)
def test_the_real_parsers_read_the_fixed_file_the_same_but_for_the_fixed_keys(case: str) -> None:
    assert set(CHANGED) == {p.name for p in CASES.iterdir()}  # every case is read by its parser
    for before in sorted((CASES / case / "before").iterdir()):
        was, now = _read_by_the_real_parser(before), _read_by_the_real_parser(CASES / case / "after" / before.name)
        moved = {path[-1] for path in set(was) | set(now) if was.get(path) != now.get(path)}
        assert moved == CHANGED[case], moved


def test_a_fix_no_edit_can_make_is_said_with_where_the_value_is(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A compose service's env_file: the value lives in the .env read through the compose file, which
    no writer edits through it yet — the report says so, and nothing is written."""
    compose = tmp_path / "docker-compose.yml"
    compose.write_text("services:\n  kafka:\n    image: bitnami/kafka:3.9\n    env_file:\n      - kafka.env\n")
    env = tmp_path / "kafka.env"
    env.write_text(
        "KAFKA_CFG_NODE_ID=1\nKAFKA_CFG_PROCESS_ROLES=broker,controller\nKAFKA_CFG_LOG_CLEANER_ENABLE=false\n"
    )
    before = env.read_text(), compose.read_text()
    main(["lint", str(tmp_path), "--fix", "--output-format", "json"])
    notes = [n["message"] for n in json.loads(capsys.readouterr().out)["skipped"] if n["kind"] == "fix-held"]
    assert any("log.cleaner.enable: its fix is not written" in n and f"{env}:3" in n for n in notes), notes
    assert (env.read_text(), compose.read_text()) == before


LIVE = CASES.parent / "live"


@pytest.mark.parametrize(
    ("written", "fixed"),
    [
        ("--execute --throttle 40000000\n", "--execute --throttle 55000000\n"),
        ("--execute --throttle=40000000\n", "--execute --throttle=55000000\n"),
        ('--execute --throttle "$RATE"\n', None),  # a variable: no edit, said
    ],
    ids=["flag-space", "flag-equals", "variable"],
)
def test_a_scripts_throttle_is_raised_to_the_measured_bound(tmp_path: Path, capsys, written: str, fixed) -> None:  # type: ignore[no-untyped-def]
    """KO121's fix (unsafe): the script's --throttle raised to the busiest broker's peak write rate
    (54 MB/s in fixtures/live/orders-move/brokers.prom, so 55000000), the rest of the script as it was."""
    work = tmp_path / "orders-move"
    shutil.copytree(LIVE / "orders-move", work)
    script = work / "rebalance.sh"
    text = script.read_text().replace("--execute --throttle 40000000\n", written)
    if fixed is None:
        text = "RATE=40000000\n" + text
    script.write_text(text)
    main(["lint", str(script), str(work / "rebalance-plan.json"), "--snapshot", str(LIVE / "orders-move.snapshot.json"),
          "--metrics", str(work / "brokers.prom"), "--fix", "--unsafe-fixes", "--output-format", "json"])  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    if fixed is None:
        assert script.read_text() == text
        assert any("--throttle: its fix is not written" in n["message"] for n in report["skipped"]), report["skipped"]
        return
    assert script.read_text() == text.replace(written, fixed)
    assert "KO121" not in {f["rule"] for f in report["findings"]}


def test_fixes_of_one_key_by_several_rules_are_written_once_and_the_mode_is_kept(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """acks=all is the fix of KP101 and of KP105: two changes of one value, made by one edit; in-flight 5
    is KP103's. The file keeps its permissions."""
    producer = tmp_path / "orders.producer.properties"
    producer.write_text(PRODUCER)
    producer.chmod(0o640)
    assert {"KP101", "KP103", "KP105"} <= {f.rule for f in lint_files([producer]).findings}
    main(["lint", str(producer), "--fix", "--unsafe-fixes"])
    capsys.readouterr()
    assert producer.read_text() == PRODUCER.replace("connection=9", "connection=5").replace("acks=1", "acks=all")
    assert producer.stat().st_mode & 0o777 == 0o640


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root may give a file away")
def test_a_file_fixed_by_root_stays_its_owners(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    producer = tmp_path / "orders.producer.properties"
    producer.write_text(PRODUCER)
    os.chown(producer, 65534, 65534)  # nobody's, as a user's file under a root-run hook
    main(["lint", str(producer), "--fix"])
    capsys.readouterr()
    assert "connection=5" in producer.read_text()
    assert (producer.stat().st_uid, producer.stat().st_gid) == (65534, 65534)


MIXED = """services:
  kafka:
    image: apache/kafka:3.8.0
    environment:
      KAFKA_NODE_ID: 1
      KAFKA_PROCESS_ROLES: broker,controller
      KAFKA_LOG_CLEANER_ENABLE: "false"
  zeebe:
    image: camunda/zeebe:8.7.4
    environment:
      ZEEBE_BROKER_CLUSTER_CLUSTERSIZE: "1"
"""


def test_kafka_fixes_in_a_file_the_camunda_reader_owns_are_written(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    compose = tmp_path / "docker-compose.yml"  # a Kafka broker beside a Zeebe broker: the Camunda reader's file
    compose.write_text(MIXED)
    main(["lint", str(compose), "--fix"])
    assert compose.read_text() == MIXED.replace('KAFKA_LOG_CLEANER_ENABLE: "false"', 'KAFKA_LOG_CLEANER_ENABLE: "true"')
    assert "fixed 1 finding(s) in 1 file(s)" in capsys.readouterr().err


def test_a_fix_no_writer_of_its_format_makes_is_said_not_written(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    dockerfile = tmp_path / "Dockerfile"
    text = (
        "FROM apache/kafka:3.8.0\nENV KAFKA_NODE_ID=1 KAFKA_PROCESS_ROLES=broker,controller\n"
        "ENV KAFKA_LOG_CLEANER_ENABLE=false\n"
    )
    dockerfile.write_text(text)
    main(["lint", str(dockerfile), "--diff"])
    said = capsys.readouterr().err
    assert f"{dockerfile}:3: log.cleaner.enable: its fix is not written" in said and "change it by hand" in said
    assert dockerfile.read_text() == text
