"""A release pinned beside a file judges it: a broker or topic .properties file that names no
release takes the one the Dockerfile or compose file in its folder runs (a base image's tag, a
Kafka download, a service's image), or a script there downloads (kafka_2.13-3.7.1.tgz), when that
file names it (COPY server.properties, a volume mounting ./server.properties, cp
server.properties /opt/kafka/config/) and the builds naming it agree on one release. Clients are not
judged so: a broker's release says nothing of the client library an application links."""

from __future__ import annotations

import os
from collections import defaultdict

from advisor.model.document import ConfigSet, Document

_RUNNERS = ("dockerfile", "compose")  # formats whose release is what runs the files they name
_SERVED = ("broker", "topic")
_DOWNLOADERS = ("install-script", "shell", "jvm-options")  # scripts whose Kafka downloads pin a release


def _downloads(document: Document) -> dict[str, list[tuple[str, str, str]]]:
    """Per folder: (release, script, how) of each script that downloads one Kafka release."""
    found: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for source in document.files:
        if source.format in _DOWNLOADERS and "kafka_" in source.text:
            from advisor.sources.install_script import downloads  # with the shell reader: only for scripts

            releases = downloads(source.text)
            if len({release for release, _ in releases}) == 1:  # one release, or none said
                release, line = releases[0]
                how = f"the Kafka {release} download at line {line}"
                found[os.path.dirname(os.path.abspath(source.path))].append((release, source.path, how))
    return found


def apply(document: Document) -> None:
    files = {source.path: source for source in document.files}
    by_folder: dict[str, list[ConfigSet]] = defaultdict(list)
    for config_set in document.config_sets:
        by_folder[os.path.dirname(os.path.abspath(config_set.path))].append(config_set)
    downloads = _downloads(document)
    for folder, members in by_folder.items():
        runners = [(cs.kafka_version, cs.path, cs.kafka_version_from) for cs in members
                   if cs.kafka_version and getattr(files.get(cs.path), "format", None) in _RUNNERS]  # fmt: skip
        runners += downloads.get(folder, [])
        if not runners:
            continue
        for config_set in members:
            source = files.get(config_set.path)
            if config_set.kafka_version is not None or config_set.component not in _SERVED or source is None:
                continue
            if source.format != "properties":
                continue
            name = os.path.basename(config_set.path)
            naming = {(version, path, how) for version, path, how in runners if name in files[path].text}
            if len({version for version, _, _ in naming}) == 1:
                version, path, how = min(naming)
                config_set.kafka_version = version
                config_set.kafka_version_from = f"{how} in {os.path.basename(path)}, which names {name}"
