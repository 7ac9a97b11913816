"""`# kafka-advisor: ...` comment directives, the same in .properties, YAML and shell.

# kafka-advisor: disable-next-line KP101,KB102 -- reason
# kafka-advisor: disable KP101 -- reason      ... # kafka-advisor: enable KP101
# kafka-advisor: disable-file KB101 -- reason
# kafka-advisor: profile=dev
# kafka-advisor: kafka-version=3.9
# kafka-advisor: camunda-version=8.9   (the Camunda pack's sets)
# kafka-advisor: as=producer client=librdkafka
"""

from __future__ import annotations

from collections.abc import Iterable

from advisor import lazy_re
from advisor.model.document import ConfigSet, Directive, LoadError
from advisor.model.vocabulary import SERVER_COMPONENTS, Client, Component, Product, Profile, product_of

_MARKER = lazy_re.compile(r"^\s*[#!]\s*kafka-advisor:\s*(?P<body>.*)$")
SUPPRESSIONS = ("disable-next-line", "disable", "enable", "disable-file")
SETTINGS = ("profile", "kafka-version", "camunda-version", "as", "client")


def parse_comment(line_number: int, text: str, path: str) -> list[Directive]:
    """Directives in one whole-line comment (empty if it is an ordinary comment)."""
    match = _MARKER.match(text)
    if not match:
        return []
    body, _, reason = match["body"].partition(" -- ")
    words = body.split()
    if not words:
        raise LoadError(path, line_number, "empty kafka-advisor directive")
    if words[0] in SUPPRESSIONS:
        codes = ",".join(words[1:]).replace(" ", "")
        return [Directive(line_number, words[0], codes or "all", reason.strip())]
    directives = []
    for word in words:
        name, sep, value = word.partition("=")
        if not sep or name not in SETTINGS or not value:
            expected = ", ".join(SUPPRESSIONS) + " or " + ", ".join(f"{s}=..." for s in SETTINGS)
            shown = f"{name}=…" if sep else name  # the name only: a value in a comment may be a secret
            raise LoadError(path, line_number, f"unknown kafka-advisor directive {shown!r} (expected {expected})")
        if name in _CHOICES and value not in _CHOICES[name]:
            choices = ", ".join(_CHOICES[name])
            raise LoadError(path, line_number, f"kafka-advisor directive {name}= takes one of {choices}")
        directives.append(Directive(line_number, name, value))
    stated = {d.verb: d.argument for d in directives}
    if stated.get("client", Client.JAVA) != Client.JAVA and stated.get("as") in SERVER_COMPONENTS:
        message = f"a {stated['as']} configuration is read by Kafka itself: client={stated['client']} does not apply"
        raise LoadError(path, line_number, message)
    return directives


_CHOICES = {"as": Component.values(), "client": Client.values(), "profile": Profile.values()}


def setting(directives: list[Directive], name: str) -> str | None:
    values = [d.argument for d in directives if d.verb == name]
    return values[-1] if values else None


def in_hash_comments(text: str, path: str) -> list[Directive]:
    """Directives in the whole-line `#` comments of a YAML, TOML, shell or .env file."""
    found: list[Directive] = []
    if "kafka-advisor:" not in text:  # the marker every directive is written with
        return found
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#"):
            found.extend(parse_comment(number, line, path))
    return found


def apply_file_settings(config_sets: Iterable[ConfigSet], found: list[Directive]) -> None:
    """A file's `profile=` and `kafka-version=` apply to every config set it yields (a Camunda
    set's release: `camunda-version=`); an explicit version wins over one inferred from the input
    (an image tag, say)."""
    profile = setting(found, "profile")
    versions = {Product.KAFKA: setting(found, "kafka-version"), Product.CAMUNDA: setting(found, "camunda-version")}
    for config_set in config_sets:
        if profile:
            config_set.facts["profile"] = profile
        product = product_of(config_set.component)
        version = versions[product]
        if version:
            config_set.kafka_version = version
            config_set.kafka_version_from = f"a '# kafka-advisor: {product}-version' line"
