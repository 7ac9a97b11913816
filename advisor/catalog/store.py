"""Loads each generated data file once, on first use.

Every data file is validated by its pydantic model (advisor/catalog/model.py) before use.
Validation costs ~100 ms (mostly importing pydantic and building its schemas). An installed
package's data was validated by the wheel's build (advisor/prebuilt.py) and is read as it is. In
a checkout a successful validation is remembered by the SHA-256 of the file and of the models in
the user cache ($KAFKA_ADVISOR_CACHE_DIR, else $XDG_CACHE_HOME/kafka-advisor, else
~/.cache/kafka-advisor): later runs with byte-identical data skip straight to the plain records.
Without a writable cache every run validates.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from advisor import TYPE_CHECKING
from advisor.catalog import records

if TYPE_CHECKING:
    from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"


def cache_dir() -> Path:
    explicit = os.environ.get("KAFKA_ADVISOR_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kafka-advisor"


def model_digest(*modules: Path) -> bytes:
    """The source of the models that validate a piece of data: a validation remembered for
    one version of a model is not trusted by another (a new field, a new enum member)."""
    import hashlib  # a checkout's concern: an installed run never hashes (~3 ms of OpenSSL to import)

    digest = hashlib.sha256()
    for module in modules:
        digest.update(module.read_bytes())
    return digest.digest()


_VOCABULARY = Path(__file__).resolve().parent.parent / "model" / "vocabulary.py"
_CATALOG_MODELS = (Path(__file__).resolve().parent / "model.py", _VOCABULARY)


# Each validated data file and the model (advisor/catalog/model.py) that validates it.
MODELS = {"kafka.json": "KafkaCatalogData", "librdkafka.json": "LibrdkafkaData", "kafka_python.json": "KafkaPythonData"}


def validate(name: str, raw: Any = None) -> dict[str, Any]:
    """The data file's content (`raw` if already parsed), once its model accepted it (raises
    ValidationError otherwise)."""
    from advisor.catalog import model  # pydantic: only when this exact data was never validated here

    if raw is None:
        import json

        raw = json.loads((DATA_DIR / name).read_bytes())
    getattr(model, MODELS[name]).model_validate(raw)
    return raw


def read(name: str) -> Any:
    """A data file no model validates (its reader checks what it uses): the wheel's copy
    (advisor/prebuilt.py), else the JSON."""
    from advisor import prebuilt

    built = prebuilt.catalog_data(name)
    if built is not None:
        return built
    import json

    return json.loads((DATA_DIR / name).read_bytes())


def _validated_json(name: str) -> dict[str, Any]:
    from advisor import prebuilt

    built = prebuilt.catalog_data(name)
    if built is not None:
        return built
    import hashlib  # a checkout's concern: an installed run reads what its build validated
    import json

    data = (DATA_DIR / name).read_bytes()
    raw = json.loads(data)

    key = hashlib.sha256(data + model_digest(*_CATALOG_MODELS)).hexdigest()[:32]
    marker = cache_dir() / "validated" / f"{name}.{key}"
    if marker.exists():
        return raw
    validate(name, raw)
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # no writable cache: validate again next time
    return raw


@cache
def kafka() -> records.KafkaCatalog:
    return records.KafkaCatalog.from_json(_validated_json("kafka.json"))


@cache
def librdkafka() -> records.LibrdkafkaCatalog:
    return records.LibrdkafkaCatalog.from_json(_validated_json("librdkafka.json"))


@cache
def kafka_python() -> records.KafkaPythonCatalog:
    return records.KafkaPythonCatalog.from_json(_validated_json("kafka_python.json"))
