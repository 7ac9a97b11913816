"""A saved snapshot (`audit --save-snapshot`) read offline (`audit --snapshot`): judged like the
running cluster it was taken from, every field checked — a file that is not one is `path:line`,
exit 2, never an internal error — and nothing secret kept."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.live import client, saved
from advisor.model.document import LoadError

REPO = Path(__file__).resolve().parents[2]
SNAPSHOT = REPO / "fixtures" / "live" / "orders-cluster.snapshot.json"


def audit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", "audit", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=120)  # fmt: skip


def test_a_saved_snapshot_is_judged_where_each_value_lives() -> None:
    result = audit("--snapshot", str(SNAPSHOT), "--output-format", "json")
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)["findings"]
    unclean = next(f for f in findings if f["rule"] == "KB103")
    assert unclean["path"] == "live://OrdersClusterId0000001/broker:2"
    assert unclean["locations"][0]["source"] == "DYNAMIC_BROKER_CONFIG"
    # how to change it where it lives: the dynamic update of that broker
    assert ("kafka-configs.sh --bootstrap-server kafka-1.orders.internal:9092 --alter --entity-type brokers "
            "--entity-name 2 --add-config unclean.leader.election.enable=false") in unclean["recommended"]  # fmt: skip
    auto = next(f for f in findings if f["rule"] == "KB117")  # a default: the brokers' files
    assert "set auto.create.topics.enable=false in each broker's server.properties" in auto["recommended"]
    single = [f["path"] for f in findings if f["rule"] == "KT105"]
    assert single == ["live://OrdersClusterId0000001/topic:orders-audit-scratch"]  # orders has RF 3: not judged
    assert not [f for f in findings if f["rule"] == "KB102"]  # default.replication.factor=3 is read
    text = audit("--snapshot", str(SNAPSHOT)).stdout
    assert "broker:2 (DYNAMIC_BROKER_CONFIG)" in text


@pytest.mark.parametrize("fixture", sorted((REPO / "fixtures" / "live").glob("*.snapshot.json")), ids=lambda p: p.name)
def test_every_field_survives_a_save_and_a_load(fixture: Path) -> None:
    first = saved.load(str(fixture), fixture.read_text())
    assert saved.load("again", saved.dump(first)) == first


def test_save_and_load_give_the_same_snapshot() -> None:
    first = saved.load(str(SNAPSHOT), SNAPSHOT.read_text())
    again = saved.load("again", saved.dump(first))
    assert again == first
    assert first.groups[0].committed == {("orders", 0): 118000, ("orders", 1): 119000}
    assert first.broker_configs[1]["ssl.keystore.password"].value is None


def test_a_value_of_a_secret_key_is_never_saved() -> None:
    snapshot = client.Snapshot("b:9092", "c", 1, {1: None},
                               {1: {"sasl.jaas.config": client.Entry("x password=CANARY-s01;", "STATIC_BROKER_CONFIG"),
                                    "num.io.threads": client.Entry("8", "DEFAULT_CONFIG")}})  # fmt: skip
    text = saved.dump(snapshot)
    assert "CANARY" not in text and '"[hidden]"' in text
    assert "num.io.threads" not in text  # a default is no news
    assert saved.load("s", text).broker_configs[1]["sasl.jaas.config"].sensitive


@pytest.mark.parametrize(
    ("text", "said"),
    [("{not json", "1: not JSON"), ('{"format": "other"}', "not a saved snapshot"),
     (SNAPSHOT.read_text().replace('"controller": 1', '"controller": "one"'), "controller"),
     (SNAPSHOT.read_text().replace('"id": 0, "leader": 1', '"id": -4, "leader": 1'), "topics.0.partitions.0.id"),
     ("[" * 100_000, "not JSON")],
)  # fmt: skip
def test_a_file_that_is_not_a_snapshot_is_said_with_its_place(text: str, said: str, tmp_path: Path) -> None:
    with pytest.raises(LoadError) as error:
        saved.load("snap.json", text)
    assert said in str(error.value) and str(error.value).startswith("snap.json:")
    path = tmp_path / "snap.json"
    path.write_text(text)
    result = audit("--snapshot", str(path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{path}:" in result.stderr


def test_snapshot_options_that_need_a_cluster_are_refused() -> None:
    result = audit("--snapshot", str(SNAPSHOT), "--save-snapshot", "/tmp/x.json")
    assert result.returncode == 2 and "need --bootstrap-server" in result.stderr


def test_reassignments_feature_levels_and_failures_survive_the_round_trip() -> None:
    """What was read of a move in progress, the feature levels and what failed to be read are kept;
    reassignments that were never read stay unread (null), never an empty list that looks healthy."""
    moving = saved.load("moving", (REPO / "fixtures" / "live" / "shop-nightly.snapshot.json").read_text())
    assert moving.reassignments is not None and moving.reassignments[0].adding == [4]
    snapshot = client.Snapshot("b:9092", "c", 1, {1: None}, features={"metadata.version": 27},
                               failed=["broker 2: holds replicas of 3 partition(s) but is not among ..."])  # fmt: skip
    again = saved.load("again", saved.dump(snapshot))
    assert again.reassignments is None and again.features == {"metadata.version": 27}
    assert again.failed == snapshot.failed
    assert saved.load("again", saved.dump(moving)) == moving


def test_a_partial_snapshot_audited_later_is_still_partial() -> None:
    """A live read that failed in part (a broker down) saved and audited offline: the same
    failure, exit 2, in every output format."""
    snapshot = client.Snapshot("b:9092", "c", 1, {1: None}, {1: {}},
                               failed=["broker 2: holds replicas of 3 partition(s) but is not among the cluster's "
                                       "running brokers (stopped or fenced): not read"])  # fmt: skip
    path = REPO / ".cache" / "partial.snapshot.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(saved.dump(snapshot))
    try:
        result = audit("--snapshot", str(path), "--output-format", "json")
    finally:
        path.unlink()
    assert result.returncode == 2
    errors = json.loads(result.stdout)["errors"]
    assert [e["kind"] for e in errors] == ["live"] and "broker 2" in errors[0]["message"]


def test_github_annotations_name_a_live_place_in_the_message_and_a_file_place_as_the_file() -> None:
    """A live finding has no file for GitHub to annotate: it is a general annotation naming its
    place; a drift finding annotates the repository's line, and names the running place too."""
    folder = REPO / "fixtures" / "live" / "payments-drift"
    result = audit("--snapshot", str(REPO / "fixtures" / "live" / "payments-drift.snapshot.json"), str(folder),
                   "--output-format", "github")  # fmt: skip
    lines = result.stdout.splitlines()
    live = [line for line in lines if "title=KX117" in line]
    assert live and "file=" not in live[0] and "live://PaymentsProd000000001/cluster" in live[0]
    drift = next(line for line in lines if "title=KX114" in line and "log.retention.hours" in line)
    assert "file=" in drift and "server.properties,line=6," in drift and "broker:3 (DYNAMIC_BROKER_CONFIG)" in drift


def test_a_baseline_holds_live_findings_by_cluster_resource_and_rule(tmp_path: Path) -> None:
    """Live findings have no line: a baseline keeps them by their place (cluster, resource) and
    rule, so the next audit reports only what is new — here a topic that became under-replicated."""
    source = REPO / "fixtures" / "live" / "shop-nightly.snapshot.json"
    baseline = tmp_path / "baseline.json"
    written = audit("--snapshot", str(source), "--write-baseline", str(baseline))
    assert written.returncode == 0, written.stderr
    data = json.loads(source.read_text())
    carts = next(t for t in data["topics"] if t["name"] == "carts")
    carts["partitions"][0]["isr"] = carts["partitions"][0]["replicas"][:1]
    later = tmp_path / "later.snapshot.json"
    later.write_text(json.dumps(data))
    result = audit("--snapshot", str(later), "--baseline", str(baseline), "--output-format", "json")
    shown = [(f["rule"], f["path"].rsplit("/", 1)[-1]) for f in json.loads(result.stdout)["findings"]
             if not f["suppressed"]]  # fmt: skip
    assert shown == [("KT109", "topic:carts")]


def test_per_file_ignores_match_live_places(tmp_path: Path) -> None:
    """A project config quiets a rule on live places by glob, as on files."""
    (tmp_path / ".kafka-advisor.toml").write_text('[per-file-ignores]\n"live://*/topic:orders-audit-*" = ["KT105"]\n')
    result = subprocess.run([sys.executable, "-m", "advisor", "audit", "--snapshot", str(SNAPSHOT), "--output-format",
                             "json"], capture_output=True, text=True, cwd=tmp_path, timeout=120)  # fmt: skip
    rules = {f["rule"] for f in json.loads(result.stdout)["findings"]}
    assert "KB103" in rules and "KT105" not in rules
