"""The wheel's build results (advisor/prebuilt.py): Python literals that read back as the data."""

from __future__ import annotations

import importlib
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

from advisor import prebuilt
from advisor.catalog import store

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "value",
    [{"a": [1, 2.5, None, True, "x\n'\"y"], "b": {}}, (), ("one",), ("a", "b"), -0.0, 10**30, float("inf"), -math.inf],
)
def test_a_literal_reads_back_equal(value: Any) -> None:
    assert eval(prebuilt._literal(value), {"__builtins__": {}}) == value  # our own literal


@pytest.mark.parametrize("value", [float("nan"), {1, 2}, object()])
def test_a_value_without_a_literal_fails_the_build(value: Any) -> None:
    with pytest.raises(ValueError, match="literal"):
        prebuilt._module(Path("unused.py"), "doc", {"DATA": value})


def test_the_written_package_is_what_an_installed_run_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written as the build writes it and imported as the package advisor/_built would be: the
    rule set is the checkout's, every data file equals its JSON, the store reads them there, and
    every Java component's defaults at every release are what the checkout computes."""
    from advisor import catalog
    from advisor.analysis import effective

    lookup = importlib.import_module("advisor.catalog.lookup")  # the module, not the function the package exports

    pairs = [(c, r) for c in catalog.COMPONENTS for r in catalog.releases()]
    computed = {
        pair: (effective.defaults.__wrapped__(pair[0], "java", pair[1]), lookup._accepted.__wrapped__(*pair, "java"),
               catalog.known_keys(pair[0], kafka_version=pair[1]))
        for pair in pairs
    }  # fmt: skip
    prebuilt.write(REPO_ROOT / "rules", tmp_path / prebuilt.PACKAGE)
    import advisor

    monkeypatch.setattr(advisor, "__path__", [*advisor.__path__, str(tmp_path)])
    prebuilt.load.cache_clear()
    try:
        index = prebuilt.load()
        assert index is not None and index.__file__.startswith(str(tmp_path))
        rules, _trees = prebuilt.rule_set()  # type: ignore[misc]
        assert sorted(rules) == sorted(p.name for p in (REPO_ROOT / "rules").glob("*.yaml"))
        for path in sorted(store.DATA_DIR.glob("*.json")):
            assert store.read(path.name) == json.loads(path.read_bytes()), path.name
        assert store._validated_json("kafka.json") is prebuilt.catalog_data("kafka.json")
        for (component, release), (defaults, accepted, known) in computed.items():
            assert effective.defaults.__wrapped__(component, "java", release) == defaults, (component, release)
            assert list(effective.defaults.__wrapped__(component, "java", release)) == list(defaults)  # same order
            assert lookup._accepted.__wrapped__(component, release, "java") == accepted
            assert catalog.known_keys(component, kafka_version=release) == known
            assert prebuilt.java_keys("known", component, release) is not None  # read from the package
        assert prebuilt.java_keys("defaults", "broker", "0.8.0") is None  # not a catalog release: computed
    finally:
        prebuilt.load.cache_clear()
        for name in [m for m in sys.modules if m.startswith(f"advisor.{prebuilt.PACKAGE}")]:
            del sys.modules[name]
        importlib.invalidate_caches()
