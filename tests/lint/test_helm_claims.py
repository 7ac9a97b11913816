"""Which values files the Bitnami Kafka chart reader claims: a key every Bitnami chart has
(extraConfig) or ingress-nginx's (controller) is no Kafka chart by itself; with a second chart key,
a Kafka image, or a file that names Kafka or sets a broker property, it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.sources import helm


def _claimed(tmp_path: Path, text: str, name: str = "values.yaml") -> bool:
    path = tmp_path / name
    path.write_text(text)
    return helm.sniff(path, text) is not None


@pytest.mark.parametrize(
    "text",
    [
        # another Bitnami chart: its extraConfig is its own
        "clusterName: elastic\nimage:\n  repository: bitnami/elasticsearch\nextraConfig: {}\n"
        "master:\n  replicaCount: 3\n",
        # ingress-nginx's values
        "controller:\n  replicaCount: 2\n  service:\n    type: LoadBalancer\ndefaultBackend:\n  enabled: true\n",
    ],
)
def test_one_shared_key_is_not_a_kafka_chart(tmp_path: Path, text: str) -> None:
    assert not _claimed(tmp_path, text)


@pytest.mark.parametrize(
    "text",
    [
        "# kafka brokers for the payments team\ncontroller:\n  replicaCount: 3\n",  # names Kafka
        "controller:\n  replicaCount: 3\noverrideConfiguration:\n  min.insync.replicas: 2\n",  # a broker property
        "image:\n  repository: bitnami/kafka\nextraConfig: |\n  foo=bar\n",  # a Kafka image
        "controller:\n  replicaCount: 3\nlisteners:\n  client:\n    protocol: PLAINTEXT\n",  # two chart keys
    ],
)
def test_a_kafka_signal_beside_a_chart_key_is_claimed(tmp_path: Path, text: str) -> None:
    assert _claimed(tmp_path, text)
