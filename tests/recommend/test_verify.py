"""`verify`: each proof judged from both sides' samples — improved or regressed only beyond the
noise of repeated samples, inconclusive within it or from one sample, and the brokers' counters
read as ratios of their increases."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from advisor.metrics.files import observed
from advisor.sources.limits import DEFAULTS
from advisor.verify.compare import judge, values
from advisor.verify.proofs import PROOFS

T0 = 1764600000000


def dump(path: Path, points: list[dict[str, float]], client: str = "orders") -> Path:
    lines = [json.dumps({"format": "kafka-client-metrics", "time_ms": T0 + 10_000 * i, "client_type": "producer",
                         "client_id": client, "metrics": [{"group": "producer-metrics", "name": name,
                                                           "tags": {"client-id": client}, "value": value}
                                                          for name, value in metrics.items()]})
             for i, metrics in enumerate(points)]  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    return path


def batches(records: list[float]) -> list[dict[str, float]]:
    return [{"batch-size-avg": r * 100, "record-size-avg": 100.0} for r in records]


def verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "advisor", "verify", *args], capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def test_fuller_batches_beyond_the_noise_are_an_improvement_and_the_reverse_a_regression(tmp_path: Path) -> None:
    before = dump(tmp_path / "before.json", batches([1.2, 1.5, 1.1, 1.4]))
    after = dump(tmp_path / "after.json", batches([38, 41, 40, 44]))
    (records, size) = [judge(p, *(observed([f], DEFAULTS).observations for f in (before, after)))
                       for p in PROOFS["linger.ms"][:2]]  # fmt: skip
    assert records.verdict == "improved" and records.before.samples == 4 and records.after.median == 40.5
    assert size.verdict == "improved"
    result = verify("--before", str(after), "--after", str(before), "--expect", "linger.ms")
    assert result.returncode == 1 and "regressed" in result.stdout


def test_a_difference_within_the_noise_or_from_one_sample_is_inconclusive(tmp_path: Path) -> None:
    noisy_before = dump(tmp_path / "a.json", batches([10, 30, 12, 28]))
    noisy_after = dump(tmp_path / "b.json", batches([14, 26, 20, 25]))
    result = json.loads(verify("--before", str(noisy_before), "--after", str(noisy_after), "--expect", "batch.size",
                               "--output-format", "json").stdout)  # fmt: skip
    assert {v["metric"]: v["verdict"] for v in result["verdicts"]}["records per batch"] == "inconclusive"
    once = dump(tmp_path / "once.json", batches([2]))
    lots = dump(tmp_path / "lots.json", batches([50, 51, 52]))
    single = json.loads(verify("--before", str(once), "--after", str(lots), "--expect", "linger.ms",
                               "--output-format", "json").stdout)  # fmt: skip
    verdict = {v["metric"]: v for v in single["verdicts"]}["records per batch"]
    assert verdict["verdict"] == "inconclusive" and "fewer than two samples" in verdict["why"]


def test_broker_counters_become_ratios_of_their_increases(tmp_path: Path) -> None:
    def scrape(path: Path, bytes_in: list[float], messages: list[float]) -> Path:
        lines = ["# TYPE kafka_server_brokertopicmetrics_bytesin_total counter",
                 "# TYPE kafka_server_brokertopicmetrics_messagesin_total counter"]  # fmt: skip
        for i, (b, m) in enumerate(zip(bytes_in, messages, strict=True)):
            stamp = T0 + 15_000 * i
            lines += [f"kafka_server_brokertopicmetrics_bytesin_total {b} {stamp}",
                      f"kafka_server_brokertopicmetrics_messagesin_total {m} {stamp}",
                      f'kafka_server_brokertopicmetrics_bytesin_total{{topic="orders"}} {b} {stamp}']  # fmt: skip
        path.write_text("\n".join(lines) + "\n")
        return path

    plain = scrape(tmp_path / "plain.prom", [0, 1_000_000, 2_050_000, 3_000_000, 4_010_000],
                   [0, 1000, 2000, 3000, 4000])  # fmt: skip
    packed = scrape(tmp_path / "packed.prom", [0, 400_000, 820_000, 1_210_000, 1_615_000],
                    [0, 1000, 2000, 3000, 4000])  # fmt: skip
    proof = PROOFS["compression.type"][1]
    assert values(observed([plain], DEFAULTS).observations, proof) == [1000.0, 1050.0, 950.0, 1010.0]  # a message
    verdict = judge(proof, observed([plain], DEFAULTS).observations, observed([packed], DEFAULTS).observations)
    assert verdict.verdict == "improved" and verdict.after.median == 402.5  # 400, 420, 390, 405 bytes a message


def test_unknown_settings_and_unreadable_files_are_errors(tmp_path: Path) -> None:
    good = dump(tmp_path / "g.json", batches([1, 2]))
    assert verify("--before", str(good), "--after", str(good), "--expect", "acks").returncode == 2
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "kafka-client-metrics", "metrics": 3}\n')
    result = verify("--before", str(broken), "--after", str(good))
    assert result.returncode == 2 and "broken.json:1" in result.stderr and "Traceback" not in result.stderr


def test_verify_reads_its_metrics_as_analyze_does_with_the_project_configs_limits(tmp_path: Path) -> None:
    """Both sides go through the run session's read stage: a project config's [limits] bound them too."""
    before = dump(tmp_path / "before.json", batches([1.2, 1.5, 1.1, 1.4]))
    after = dump(tmp_path / "after.json", batches([38, 41, 40, 44]))
    assert verify("--before", str(before), "--after", str(after), "--expect", "linger.ms").returncode == 0
    (tmp_path / ".kafka-advisor.toml").write_text("[limits]\nmetric-bytes = 400\n")
    bounded = subprocess.run([sys.executable, "-m", "advisor", "verify", "--before", "before.json", "--after",
                              "after.json", "--expect", "linger.ms"], capture_output=True, text=True, timeout=120,
                             cwd=tmp_path)  # fmt: skip
    assert bounded.returncode == 2 and "limits.metric-bytes" in bounded.stderr, bounded.stderr
