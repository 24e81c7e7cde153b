"""What-if rescoring: what a change of options, or a rescore with the current rules, would do to a match.

A preview runs the very code that applying runs (``match_options_change`` / ``match_rescore``) inside a
savepoint that is always rolled back, and reads the outcome before the rollback: the numbers shown are the
numbers applying would store, and nothing is written. The statistics and live hooks that code registers with
``transaction.on_commit`` are discarded with the savepoint (Django drops the callbacks of a rolled-back
savepoint), and the "dirty" record it writes is rolled back with everything else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from scoring import selectors
from scoring.models import Match
from scoring.rules.types import best_seats
from scoring.services.access import member_require
from scoring.services.locking import match_lock
from scoring.services.matches import match_options_change
from scoring.services.round_changes import match_rescore


@dataclass(frozen=True)
class RoundChange:
    """One live round's points per seat before and after the change."""

    number: int
    points_before: list[int]
    points_after: list[int]
    changed: bool


@dataclass(frozen=True)
class Outcome:
    """A match as it stands (or would stand): its rounds' points, totals, winners and state."""

    version: int
    state: str
    finished: bool
    options: dict[str, Any]
    ruleset_version: str
    needs_rescore: bool
    players: list[str]
    points: dict[int, list[int]]
    totals: list[int]
    winners: list[str]
    house_rules: dict[str, Any] | None  # the house rules the match names (preset id, name, version), or None


@dataclass(frozen=True)
class Preview:
    """What applying would do: per round points before/after, totals, winners and the match state."""

    match_id: int
    version: int  # the match version the preview was made from: applying names it (a later change is refused)
    players: list[str]
    ruleset_version: str  # the rules' current version
    options_before: dict[str, Any]
    options_after: dict[str, Any]
    rounds: list[RoundChange]
    totals_before: list[int]
    totals_after: list[int]
    winners_before: list[str]
    winners_after: list[str]
    state_before: str
    state_after: str
    finished_before: bool
    finished_after: bool
    needs_rescore: bool  # some round was scored by an older version of the rules
    changed: bool = field(default=False)  # any round's points, the totals, the winners or the state change
    # the house rules the match names now and after applying (None: none); new options that leave them drop them
    house_rules_before: dict[str, Any] | None = None
    house_rules_after: dict[str, Any] | None = None

    @property
    def changed_rounds(self) -> int:
        return sum(1 for r in self.rounds if r.changed)


class _Discard(Exception):
    """Raised at the end of a preview's savepoint so that everything written inside it is rolled back."""


def _outcome(match_id: int) -> Outcome:
    """The match as the database holds it now (inside the savepoint: as applying left it)."""
    match = Match.objects.select_related("group", "preset_version").get(pk=match_id)
    board = selectors.match_scoreboard(match=match)
    names = [p["name"] for p in board["players"]]
    finished = match.state == Match.State.FINISHED
    winners = [w["seat"] for w in board["winners"]]
    if finished and not winners and board["rounds"]:
        # a match finished by hand before the rules' end: the statistics rank it by its totals
        winners = list(best_seats(board["totals"]))
    return Outcome(
        version=match.version,
        state=match.state,
        finished=finished,
        options=dict(match.options or {}),
        ruleset_version=board["ruleset_version"],
        needs_rescore=bool(board["needs_rescore"]),
        players=names,
        points={r["number"]: list(r["points"]) for r in board["rounds"]},
        totals=list(board["totals"]),
        winners=[names[seat] for seat in winners],
        house_rules=_house_rules(match),
    )


def _house_rules(match: Match) -> dict[str, Any] | None:
    version = match.preset_version
    if version is None:
        return None
    return {"id": version.preset_id, "name": version.name, "version": version.number}


def _preview(*, match: Match, user: Any, apply: Callable[[int], Any]) -> Preview:
    """Run ``apply(version)`` in a savepoint that is always rolled back; the outcome before and after it."""
    member_require(group=match.group, user=user)
    captured: list[Outcome] = []
    try:
        with transaction.atomic():
            locked = match_lock(match_id=match.pk)  # no change can slip in between the two readings
            captured.append(_outcome(locked.pk))
            apply(locked.version)
            captured.append(_outcome(locked.pk))
            raise _Discard
    except _Discard:
        pass
    before, after = captured
    rounds = [
        RoundChange(
            number=number,
            points_before=points,
            points_after=after.points.get(number, points),
            changed=after.points.get(number, points) != points,
        )
        for number, points in sorted(before.points.items())
    ]
    changed = (
        any(r.changed for r in rounds)
        or before.totals != after.totals
        or before.winners != after.winners
        or before.state != after.state
    )
    return Preview(
        match_id=match.pk,
        version=before.version,
        players=before.players,
        ruleset_version=before.ruleset_version,
        options_before=before.options,
        options_after=after.options,
        rounds=rounds,
        totals_before=before.totals,
        totals_after=after.totals,
        winners_before=before.winners,
        winners_after=after.winners,
        state_before=before.state,
        state_after=after.state,
        finished_before=before.finished,
        finished_after=after.finished,
        needs_rescore=before.needs_rescore,
        changed=changed,
        house_rules_before=before.house_rules,
        house_rules_after=after.house_rules,
    )


def match_options_preview(*, match: Match, options: dict[str, Any], user: Any) -> Preview:
    """What ``match_options_change`` with these ``options`` would store (every round rescored under them), or the
    rules' refusal (ValidationFailed naming the round and field) when a round breaks under them. Writes nothing.
    """
    return _preview(
        match=match,
        user=user,
        apply=lambda version: match_options_change(match=match, options=options, expected_version=version, user=user),
    )


def match_rescore_preview(*, match: Match, user: Any) -> Preview:
    """What ``match_rescore`` (every round scored again with the rules' current version) would store, or the
    rules' refusal naming the round. Writes nothing."""
    return _preview(
        match=match,
        user=user,
        apply=lambda version: match_rescore(match=match, user=user, expected_version=version),
    )
