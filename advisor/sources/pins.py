"""A release pinned beside a file judges it: a broker or topic .properties file that names no
release takes the one the Dockerfile or compose file in its folder runs (a base image's tag, a
Kafka download, a service's image) when that file names it (COPY server.properties, a volume
mounting ./server.properties) and the builds naming it agree on one release. Clients are not
judged so: a broker's release says nothing of the client library an application links."""

from __future__ import annotations

import os
from collections import defaultdict

from advisor.model.document import ConfigSet, Document

_RUNNERS = ("dockerfile", "compose")  # formats whose release is what runs the files they name
_SERVED = ("broker", "topic")


def apply(document: Document) -> None:
    files = {source.path: source for source in document.files}
    by_folder: dict[str, list[ConfigSet]] = defaultdict(list)
    for config_set in document.config_sets:
        by_folder[os.path.dirname(os.path.abspath(config_set.path))].append(config_set)
    for members in by_folder.values():
        runners = [cs for cs in members if cs.kafka_version and getattr(files.get(cs.path), "format", None) in _RUNNERS]
        if not runners:
            continue
        for config_set in members:
            source = files.get(config_set.path)
            if config_set.kafka_version is not None or config_set.component not in _SERVED or source is None:
                continue
            if source.format != "properties":
                continue
            name = os.path.basename(config_set.path)
            naming = {(r.kafka_version, r.path, r.kafka_version_from) for r in runners if name in files[r.path].text}
            if len({version for version, _, _ in naming}) == 1:
                version, path, how = min(naming)
                config_set.kafka_version = version
                config_set.kafka_version_from = f"{how} in {os.path.basename(path)}, which names {name}"
