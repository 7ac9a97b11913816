"""Wheel build hook: the wheel carries its rule set and catalog data already validated, and the
rules' predicates compiled (advisor/prebuilt.py says why). A rule or data file the models reject
fails the build. Editable installs are a checkout and get nothing: they validate as they run."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        sys.path.insert(0, self.root)  # the advisor package being built, not an installed one
        try:
            from advisor import prebuilt

            built = prebuilt.build(Path(self.root) / "rules")
        finally:
            sys.path.remove(self.root)
        self._folder = Path(tempfile.mkdtemp(prefix="kafka-advisor-prebuilt-"))
        target = self._folder / "prebuilt.json"
        target.write_text(json.dumps(built, sort_keys=True, separators=(",", ":")), encoding="utf-8")
        build_data["force_include"][str(target)] = "advisor/prebuilt.json"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
