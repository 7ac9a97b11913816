"""Wheel build hook: the wheel carries its rule set and catalog data already validated, and the
rules' predicates compiled, as the package advisor/_built (advisor/prebuilt.py says why). A rule
or data file the models reject fails the build. Editable installs are a checkout and get
nothing: they validate as they run."""

from __future__ import annotations

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
        self._folder = Path(tempfile.mkdtemp(prefix="kafka-advisor-prebuilt-"))
        sys.path.insert(0, self.root)  # the advisor package being built, not an installed one
        try:
            from advisor import prebuilt

            prebuilt.write(Path(self.root) / "rules", self._folder / prebuilt.PACKAGE)
        except BaseException:
            shutil.rmtree(self._folder, ignore_errors=True)
            raise
        finally:
            sys.path.remove(self.root)
        build_data["force_include"][str(self._folder / prebuilt.PACKAGE)] = f"advisor/{prebuilt.PACKAGE}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
