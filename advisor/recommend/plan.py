"""A recommendation run: the resolved profile, the values per component in the client's spelling,
and the sizing — as one plain record the formatters render (text, JSON)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from advisor.named_tuple import NamedTuple
from advisor.recommend import sizing, spelling, values
from advisor.recommend.against import Against, Kept
from advisor.recommend.profile import LoadProfile, Resolved, resolve, with_configs

CLIENT_ROLES = ("producer", "consumer")


class Plan(NamedTuple):
    profile: Resolved
    client: str
    recommendations: list[values.Recommendation]
    sizes: list[sizing.Sized]
    against: tuple[Against, ...] = ()  # the user's configurations, when given: now vs recommended
    kept: tuple[Kept, ...] = ()  # their settings no recommendation concerns: kept as written, and why
    snippets: tuple[str, ...] = ()  # extra snippet formats the text shows (advisor/recommend/snippets.py)

    @property
    def KIND(self) -> str:  # its renderers: output/__init__.py RENDERERS
        return "recommend"

    def spelled(self, recommendation: values.Recommendation) -> spelling.Spelled:
        if recommendation.component not in CLIENT_ROLES:
            return spelling.Spelled(recommendation.key, recommendation.value)
        return spelling.spell(recommendation.key, recommendation.value, self.client, recommendation.component)

    def measured(self, recommendation: values.Recommendation) -> Any:
        """What the proof table says of a client value (proofs.Proof), None for broker and topic ones."""
        if recommendation.component not in CLIENT_ROLES:
            return None
        from advisor.recommend import proofs

        spelled = self.spelled(recommendation)
        default, since = _client_default(spelled, recommendation.component, self.client)
        return proofs.judge(recommendation.component, recommendation.key, recommendation.value, self.profile.goal,
                            self.profile["message_bytes_avg"], default, default_since=since)  # fmt: skip

    def defaults_fit(self, component: str) -> list[str]:
        """The component's speed values, when every one of them is already the client's default
        (the plan then says the defaults fit this profile); else nothing."""
        speed = [(r.key, self.measured(r)) for r in self.recommendations if r.component == component]
        speed = [(key, proof) for key, proof in speed if proof is not None and proof.status != "not-speed"]
        return [key for key, _ in speed] if speed and all(p.status == "default" for _, p in speed) else []

    def to_dict(self) -> dict[str, Any]:
        profile = self.profile
        return {
            "goal": profile.goal,
            "client": self.client,
            "profile": {
                name: {"value": value, "origin": profile.origin(name)}
                for name, value in sorted(profile.values.items())
                if name != "goal"
            },
            "assumed": dict(sorted(profile.assumed.items())),
            "recommendations": [self._recommendation(r) for r in self.recommendations],
            "sizing": [s.to_dict() for s in self.sizes],
            "snippets": {name: _snippet(name, self.recommendations) for name in SNIPPETS},
            "against": [
                {**a.to_dict(), "recommendation": f"{a.recommendation.component} {a.recommendation.key}"}
                for a in self.against
            ],
            "kept": [k.to_dict() for k in self.kept],
            "defaults_fit": {role: keys for role in CLIENT_ROLES if (keys := self.defaults_fit(role))},
        }

    def _recommendation(self, recommendation: values.Recommendation) -> dict[str, Any]:
        """Its record, with its key and value spelled for the client and its proof's metrics too."""
        spelled = self.spelled(recommendation)._asdict()
        measured = self.measured(recommendation)
        return {**recommendation.to_dict(), "spelled": spelled,
                "proof_spelled": spelling.proof(recommendation.proof, self.client),
                "measured": measured.to_dict() if measured is not None else None}  # fmt: skip


def _client_default(spelled: spelling.Spelled, component: str, client: str) -> tuple[Any, str]:
    """The library's default for the spelled key in the catalog's newest release, and the oldest
    release of the unbroken run that has it (an older client defaults otherwise: Java's linger.ms
    was 0 before 4.0); (None, "") when it has none."""
    return (None, "") if spelled.key is None else _default_since(spelled.key, component, client)


@lru_cache(maxsize=256)
def _default_since(key: str, component: str, client: str) -> tuple[Any, str]:
    from advisor import catalog

    try:
        newest = catalog.default(key, component, client=client)
    except KeyError:
        return None, ""
    since = ""
    for release in reversed(catalog.releases() if client == "java" else []):
        try:
            if catalog.default(key, component, client=client, kafka_version=release) != newest:
                break
        except KeyError:
            break
        since = release
    return newest, since


def _snippet(name: str, recommendations: list[values.Recommendation]) -> str:
    from advisor.recommend import snippets

    return snippets.render(name, recommendations)


SNIPPETS = ("spring", "compose", "strimzi", "helm")


def plan(profile: LoadProfile, client: str = "java", seen: dict[str, tuple[Any, str]] | None = None) -> Plan:
    """`seen`: what the user's configurations show of the profile (field → (value, where))."""
    return of_resolved(with_configs(resolve(profile), seen or {}), client)


def of_resolved(resolved: Resolved, client: str = "java") -> Plan:
    """The plan of a profile already resolved (advise: some numbers read from the inputs)."""
    return Plan(resolved, client, values.recommend(resolved), sizing.all_sizes(resolved))
