"""Whether each config set is judged as a development setup or as production.

A file's or declared cluster's profile, else the run's, else what the cluster's addresses imply
(loopback only: a laptop), else production. Pure: the notes saying a cluster was judged as
development by its addresses are returned, once per cluster, for the session to report.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.model.document import ConfigSet, Problem
from advisor.named_tuple import NamedTuple


class Profiles(NamedTuple):
    of: list[str]  # each config set's profile, in the order given
    notes: list[Problem]  # a cluster judged as dev by its addresses, said once


def _inferred_note(config_set: ConfigSet, profile: str, evidence: str) -> Problem:
    if profile == "prod":
        message = (
            f'judged as production: {evidence}; --profile dev or environment = "dev" in [clusters.NAME]'
            " judges it as a development setup"
        )
    else:
        message = (
            "judged as a development setup: clients reach its broker(s) only on loopback or compose-network"
            f" names ({evidence}),"
            ' so the rules the dev profile quiets were not run; --profile prod or environment = "prod" in'
            " [clusters.NAME] judges it as production"
        )
    return Problem(config_set.path, config_set.anchor.line, message, "note")


def inferred_production(config_set: ConfigSet, run_profile: str | None) -> str | None:
    """Why a set nobody stated a profile for is judged as production, when its files say why."""
    inferred = config_set.facts.get("profile_inferred")
    if stated(config_set, run_profile) or not inferred or inferred[0] != "prod":
        return None
    return f"judged as production: {inferred[1]}"


def profiles(config_sets: Sequence[ConfigSet], run_profile: str | None) -> Profiles:
    """`run_profile`: --profile or the project config's; None when the run states none."""
    found: list[str] = []
    notes: list[Problem] = []
    noted: set[str | None] = set()
    for config_set in config_sets:
        stated = config_set.facts.get("profile") or run_profile
        inferred = None if stated else config_set.facts.get("profile_inferred")
        found.append(stated or (inferred[0] if inferred else "prod"))
        if inferred is not None and config_set.cluster not in noted:
            noted.add(config_set.cluster)
            notes.append(_inferred_note(config_set, *inferred))
    return Profiles(found, notes)


def stated(config_set: ConfigSet, run_profile: str | None) -> bool:
    """Did anybody say which profile this set is (the run, its file, its declared cluster)?"""
    return bool(run_profile or config_set.facts.get("profile"))
