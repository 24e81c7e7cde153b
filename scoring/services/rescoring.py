"""Scoring a match's live rounds again after a change, and following the match's state (finished, reopened,
its winners) from the rules: what entering, editing, deleting and undoing a round, and changing a match's options,
share; also the history events and Score rows every round write keeps."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import takewhile
from typing import Any

from django.utils import timezone

from scoring.models import Match, Round, RoundEvent, Score
from scoring.rules import Ruleset
from scoring.services.common import (
    explanation_store,
    history_or_fail,
    match_snapshot,
    round_snapshot,
)
from scoring.services.locking import Played

# What every round write changes on its match: saving these columns (and those match_state_follow names) only keeps
# the UPDATE from rewriting the group, the ruleset, the options and the rest.
MATCH_WRITE_FIELDS = ["next_number", "version", "updated_at"]


def _scores_write(rnd: Round, seats: Sequence[int], *, new: bool = False) -> None:
    """Replace the round's Score rows (one per seat) with its current points (a ``new`` round has none yet)."""
    if not new:
        Score.objects.filter(round=rnd).delete()
    if rnd.deleted_at is None:
        Score.objects.bulk_create(
            Score(round=rnd, match_id=rnd.match_id, player_id=player_id, seat=seat, points=points)
            for seat, (player_id, points) in enumerate(zip(seats, rnd.points, strict=True))
        )


def _event(match: Match, rnd: Round | None, action: str, user: Any, before: Any, after: Any) -> RoundEvent:
    return RoundEvent.objects.create(
        match=match,
        round=rnd,
        round_number=rnd.number if rnd is not None else None,
        action=action,
        actor=user if user is not None and user.is_authenticated else None,
        before=before,
        after=after,
    )


def _labels(live: Sequence[Round | Played], focus: Round | None) -> list[str]:
    return ["facts" if rnd is focus else f"rounds.{rnd.number}" for rnd in live]


def _structure(explanation: Any) -> list[Any]:
    """An explanation without its rendered text (what the rules decided, not how it was worded)."""
    return [{k: v for k, v in ln.items() if k != "text"} if isinstance(ln, dict) else ln for ln in explanation or ()]


def rounds_rescore(
    *,
    match: Match,
    ruleset: Ruleset,
    seats: Sequence[int],
    live: Sequence[Round | Played],
    options: dict[str, Any],
    user: Any,
    focus: Round | None = None,
    focus_facts: Any = None,
    from_number: int = 1,
    names: Sequence[str] | None = None,
) -> list[tuple[Any, Any]]:
    """Score the live rounds in order and store every changed result from ``from_number`` on.

    ``focus`` is the round being entered or edited: the caller saves it and
    writes its history event; every other round whose points, explanation or
    ruleset version change gets a "rescore" event.  Returns the history.

    The rounds before ``from_number`` keep their stored points when this ruleset version scored them all: a
    change only ever rescores from the round it touches on, so those points are what a replay would give
    (entering the 100th round then costs one state, not a hundred). Results taken from storage have no lines.
    ``names`` (the players in seat order) name them in the stored English text and in refusals; a round whose
    only change is that text (new wording, a renamed player) is not rescored: pages render the text anew.
    ``focus_facts``: the focus round's facts as the ruleset parsed them when they were normalised (not parsed
    again).
    """
    before = list(takewhile(lambda rnd: rnd.number < from_number and rnd is not focus, live))
    stored = [rnd.points for rnd in before] if all(r.ruleset_version == ruleset.version for r in before) else []
    results = history_or_fail(
        ruleset,
        [focus_facts if rnd is focus and focus_facts is not None else rnd.facts for rnd in live],
        players=len(seats),
        options=options,
        labels=_labels(live, focus),
        stored=stored,
        names=names,
        numbers=[rnd.number for rnd in live],
    )
    for rnd, (_facts, result) in zip(live, results, strict=True):
        if rnd.number < from_number:
            continue
        points = list(result.scores)
        explanation = explanation_store(ruleset, result, names=names)
        if rnd is focus:
            rnd.points, rnd.explanation, rnd.ruleset_version = points, explanation, ruleset.version
            continue
        assert isinstance(rnd, Round)  # a Played round comes before a new round, so before from_number
        same = _structure(explanation) == _structure(rnd.explanation)
        if points == rnd.points and same and rnd.ruleset_version == ruleset.version:
            continue
        before = round_snapshot(rnd)
        rnd.points, rnd.explanation, rnd.ruleset_version = points, explanation, ruleset.version
        rnd.version += 1
        rnd.save(update_fields=["points", "explanation", "ruleset_version", "version", "updated_at"])
        _scores_write(rnd, seats)
        _event(match, rnd, RoundEvent.Action.RESCORE, user, before, round_snapshot(rnd))
    return results


def match_state_follow(
    *, match: Match, ruleset: Ruleset, results: Sequence[Any], players: int, options: dict[str, Any], user: Any
) -> list[str]:
    """Finish the match when the rules say it is over; reopen it when a change undid that.

    A match finished by hand stays finished.  Records the rules' winners on the match (none until the end
    condition is met), for the statistics.  Saves nothing: the caller saves ``match``; returns the fields
    this changed (for ``update_fields``).
    """
    state = ruleset.module.match_state(list(results), players=players, options=options)
    was = (match.winners, match.state)
    match.winners = state.final_winners()
    if state.finished and match.state == Match.State.OPEN:
        before = match_snapshot(match)
        match.state, match.finish_reason, match.finished_at = (
            Match.State.FINISHED,
            Match.FinishReason.RULES,
            timezone.now(),
        )
        _event(match, None, RoundEvent.Action.FINISH, user, before, match_snapshot(match))
    elif not state.finished and match.state == Match.State.FINISHED and match.finish_reason == Match.FinishReason.RULES:
        before = match_snapshot(match)
        match.state, match.finish_reason, match.finished_at = Match.State.OPEN, Match.FinishReason.NONE, None
        _event(match, None, RoundEvent.Action.REOPEN, user, before, match_snapshot(match))
    changed = ["winners"] if match.winners != was[0] else []
    return changed + (["state", "finish_reason", "finished_at"] if match.state != was[1] else [])
