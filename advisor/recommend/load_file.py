"""A load profile file: JSON or YAML, one mapping of the profile's fields (advisor/recommend/profile.py;
docs/recommend.md). Bounded like every input: a size limit, no aliases, a clear `path:line` error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MAX_BYTES = 1_000_000  # a profile is a dozen numbers


class ProfileError(Exception):
    pass


def read(path: str) -> dict[str, Any]:
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_BYTES:
            raise ProfileError(f"{path}:1: a load profile larger than {MAX_BYTES:,} bytes")
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ProfileError(f"{path}:1: cannot read it ({type(error).__name__})") from None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as error:
            raise ProfileError(
                f"{path}:{getattr(error, 'lineno', 1)}: not JSON: {getattr(error, 'msg', error)}"
            ) from None
        except RecursionError:
            raise ProfileError(f"{path}:1: nested too deeply for a load profile") from None
    else:
        data = _yaml(text, path)
    if not isinstance(data, dict):
        raise ProfileError(f"{path}:1: a load profile is a mapping of its fields (message_bytes_avg: 200, ...)")
    return data


def _yaml(text: str, path: str) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    if "&" in text or "*" in text or "<<" in text:
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.split("#", 1)[0]
            if "&" in stripped or "*" in stripped or "<<" in stripped:
                raise ProfileError(f"{path}:{number}: anchors and aliases are not read in a load profile")
    try:
        return YAML(typ="safe", pure=True).load(text)
    except YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise ProfileError(f"{path}:{line}: not YAML ({getattr(error, 'problem', None) or 'unreadable'})") from None
    except RecursionError:
        raise ProfileError(f"{path}:1: nested too deeply for a load profile") from None


def gather(load: str | None, flags: dict[str, Any], config: Any = None) -> tuple[dict[str, Any], dict[str, str]]:
    """The profile's fields from the project config's [load] table, then a --load file, then the
    flags (each later one wins), with where each came from (`path:line` for the project config),
    for errors that name the place."""
    fields: dict[str, Any] = {}
    where: dict[str, str] = {}
    if config is not None and config.load:
        for name, (value, line) in config.load.items():
            fields[name], where[name] = value, f"{config.path}:{line}"
    if load:
        for name, value in read(load).items():
            fields[name], where[name] = value, load
    for name, value in flags.items():
        fields[name], where[name] = value, f"--{name.replace('_', '-')}"
    return fields, where
