"""KX112 against the installed confluent-kafka (librdkafka): a TLS server with a self-signed
certificate no CA the client trusts signed. With the default the handshake fails ("certificate
verify failed"); with enable.ssl.certificate.verification=false it completes — the rule fires
exactly there."""

from __future__ import annotations

import socket
import ssl
import subprocess
import threading
from pathlib import Path

import pytest

from advisor.report.session import lint


@pytest.fixture(scope="module")
def self_signed_server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("tls")
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
         "-days", "2", "-subj", "/CN=localhost"],
        check=True, capture_output=True,
    )  # fmt: skip
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(cert), str(key))
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)  # so that the thread sees `stop`: a live thread would keep later tests from forking
    handshakes: list[bool] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            connection.settimeout(5)
            try:
                with context.wrap_socket(connection, server_side=True):
                    handshakes.append(True)
            except (ssl.SSLError, OSError):
                handshakes.append(False)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], handshakes
    stop.set()
    thread.join(timeout=10)
    server.close()
    assert not thread.is_alive()


def _client_handshakes(port: int, handshakes: list[bool], verify: str | None) -> list[bool]:
    import confluent_kafka

    handshakes.clear()
    config = {"bootstrap.servers": f"127.0.0.1:{port}", "security.protocol": "ssl", "log_level": 0,
              "ssl.endpoint.identification.algorithm": "none", "error_cb": lambda error: None}  # fmt: skip
    if verify is not None:
        config["enable.ssl.certificate.verification"] = verify
    producer = confluent_kafka.Producer(config)
    for _ in range(30):
        producer.poll(0.1)
        if handshakes:
            break
    return list(handshakes)


@pytest.mark.parametrize(("verify", "accepted"), [(None, False), ("true", False), ("false", True)])
def test_the_rule_fires_exactly_where_librdkafka_accepts_any_certificate(
    self_signed_server, tmp_path: Path, verify: str | None, accepted: bool
) -> None:
    port, handshakes = self_signed_server
    seen = _client_handshakes(port, handshakes, verify)
    assert seen and seen[0] is accepted, seen
    config = tmp_path / "app.producer.properties"
    lines = ["# kafka-advisor: client=librdkafka", f"bootstrap.servers=127.0.0.1:{port}", "security.protocol=ssl"]
    config.write_text(
        "\n".join([*lines, *([f"enable.ssl.certificate.verification={verify}"] if verify else [])]) + "\n"
    )
    fired = any(f.rule == "KX112" for f in lint([config]).findings)
    assert fired is accepted
