"""Scripts that download and unpack a Kafka release (`wget …/kafka_2.13-3.7.1.tgz`, with the
version in a variable of the script or written out): the release the broker and topic files they
install run (sources/pins.py). Such a script states no Kafka configuration of its own, so it is
read for its release only; a script that also calls the CLI tools is the shell reader's, and
its downloads count the same way."""

from __future__ import annotations

from pathlib import Path

from advisor import TYPE_CHECKING, lazy_re
from advisor.model.document import ConfigSet, SourceFile
from advisor.sources import directives as directive_syntax
from advisor.sources import shell

if TYPE_CHECKING:
    from typing import Any

FORMAT = "install-script"
# The release archives Apache publishes: kafka_<scala>-<release>.tgz (archive.apache.org, downloads.apache.org, mirrors)
_DOWNLOAD = lazy_re.compile(r"\bkafka_2\.\d+-(?P<release>\d+\.\d+(?:\.\d+)?)\.t(?:ar\.)?gz\b")
_SHELL = lazy_re.compile(r"#!.*\b(ba|z|da)?sh\b")


def downloads(text: str) -> list[tuple[str, int]]:
    """(release, line) of every Kafka archive the script names, its own variables put in."""
    if "kafka_" not in text:
        return []
    variables = shell._variables(text)  # the shell reader's own expansion
    found = []
    for first, _, logical in shell._logical_lines(text):
        if "kafka_" in logical:
            for match in _DOWNLOAD.finditer(shell._expanded(logical, variables)):
                found.append((match["release"], first))
    return found


def sniff(path: Path, text: str) -> Any:
    script = path.suffix in (".sh", ".bash") or (text.startswith("#!") and _SHELL.match(text))
    return True if script and downloads(text) else None


def load(path: str, text: str, _payload: Any, options) -> tuple[SourceFile, list[ConfigSet]]:  # type: ignore[no-untyped-def]
    found = directive_syntax.in_hash_comments(text, path)
    return SourceFile(path, text, FORMAT, found), []
