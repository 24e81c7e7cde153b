"""Changing rounds already entered: edit, delete (undoable), undo (a round's newest change, or the match's), and
rescoring a whole match with the current rules. Each locks the match row, rescores from the round it touches on
and records the change in the round's history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import Match, Round, RoundEvent
from scoring.selectors import round_next_number
from scoring.services.common import (
    normalise_or_fail,
    options_or_fail,
    round_snapshot,
    ruleset_get,
    stats_match_changed,
    totals_only_refuse,
    version_check,
)
from scoring.services.errors import AlreadyUndone, Conflict
from scoring.services.locking import live_rounds, match_lock_member, seating
from scoring.services.rescoring import (
    MATCH_WRITE_FIELDS,
    _event,
    _scores_write,
    match_state_follow,
    rounds_rescore,
)


def _change(
    *,
    rnd: Round,
    user: Any,
    action: str,
    facts: Any = None,
    deleted: bool | None = None,
    undoes: RoundEvent | None = None,
) -> Round:
    """Apply one change to a locked round (new facts and/or deleted flag), re-score from it on, record it."""
    match = rnd.match
    if match.state == Match.State.ABANDONED:  # it must stay empty: a restored round would count nowhere
        raise Conflict(gettext("This match was abandoned; reopen it first."))
    ruleset = ruleset_get(match.ruleset)
    seats, names = seating(match)
    options = options_or_fail(ruleset, match.options, players=len(seats))
    before = round_snapshot(rnd)
    if facts is not None:
        rnd.facts = normalise_or_fail(ruleset, facts, players=len(seats), options=options, names=names)
    live = [r for r in live_rounds(match) if r.pk != rnd.pk]
    if deleted is False and rnd.deleted_at is not None and any(r.number == rnd.number for r in live):
        # its number was given to a round entered after it was deleted: two live rounds cannot share it
        raise Conflict(
            gettext(
                "Round %(n)s cannot be restored: another round %(n)s was entered after it was deleted. "
                "Delete that round first if this one should take its place."
            )
            % {"n": rnd.number}
        )
    if deleted is not None:
        rnd.deleted_at = timezone.now() if deleted else None
    if rnd.deleted_at is None:
        live = sorted([*live, rnd], key=lambda r: r.number)
    results = rounds_rescore(
        match=match,
        ruleset=ruleset,
        seats=seats,
        live=live,
        options=options,
        user=user,
        focus=rnd,
        from_number=rnd.number,
        names=names,
    )
    unchanged = (
        rnd.deleted_at is None
        and not before["deleted"]
        and before["facts"] == rnd.facts
        and before["points"] == rnd.points
        and before["ruleset_version"] == rnd.ruleset_version
    )
    if unchanged and undoes is None:
        return rnd  # nothing changed: no new version, no history line
    rnd.version += 1
    rnd.save()
    _scores_write(rnd, seats)
    match.next_number = round_next_number(live=live)
    match.version += 1
    changed = match_state_follow(
        match=match, ruleset=ruleset, results=results, players=len(seats), options=options, user=user
    )
    match.save(update_fields=[*MATCH_WRITE_FIELDS, *changed])
    after = round_snapshot(rnd)
    if undoes is not None:
        after = {**after, "undoes": undoes.pk, "undid": undoes.action}
    _event(match, rnd, action, user, before, after)
    stats_match_changed(match=match, players=seats)
    return rnd


def _lock_round(rnd: Round, user: Any) -> Round:
    match = match_lock_member(match_id=rnd.match_id, user=user)
    locked = Round.objects.select_related("entered_by").get(pk=rnd.pk)
    locked.match = match
    return locked


def round_edit(*, round: Round, facts: Any, expected_version: int | None, user: Any) -> Round:
    """Replace a round's facts; re-score it and every later round (their state may depend on it).

    Raises StaleVersion when ``expected_version`` is not the round's current version.
    """
    with transaction.atomic():
        rnd = _lock_round(round, user)
        version_check(rnd, expected_version)
        if rnd.deleted_at is not None:
            raise Conflict(gettext("This round was deleted; restore it before editing it."))
        return _change(rnd=rnd, user=user, action=RoundEvent.Action.EDIT, facts=facts)


def round_delete(*, round: Round, expected_version: int | None, user: Any) -> Round:
    """Soft-delete a round (undoable); later rounds are re-scored without it."""
    with transaction.atomic():
        rnd = _lock_round(round, user)
        version_check(rnd, expected_version)
        if rnd.deleted_at is not None:
            raise Conflict(gettext("This round is already deleted."))
        return _change(rnd=rnd, user=user, action=RoundEvent.Action.DELETE, deleted=True)


UNDOABLE = (RoundEvent.Action.CREATE, RoundEvent.Action.EDIT, RoundEvent.Action.DELETE)


def _undoable(events: Sequence[RoundEvent]) -> RoundEvent | None:
    """The newest create/edit/delete event that no undo has reverted yet (events newest first)."""
    undone = {e.after.get("undoes") for e in events if e.action == RoundEvent.Action.UNDO and e.after}
    for event in events:
        if event.action in UNDOABLE and event.pk not in undone:
            return event
    return None


def _undo(*, rnd: Round, target: RoundEvent, user: Any) -> Round:
    if target.action == RoundEvent.Action.DELETE:
        return _change(rnd=rnd, user=user, action=RoundEvent.Action.UNDO, deleted=False, undoes=target)
    if target.action == RoundEvent.Action.CREATE:
        return _change(rnd=rnd, user=user, action=RoundEvent.Action.UNDO, deleted=True, undoes=target)
    # an edit: put the facts back as they were before it
    if rnd.deleted_at is not None:
        raise Conflict(gettext("This round was deleted; restore it first."))
    return _change(rnd=rnd, user=user, action=RoundEvent.Action.UNDO, facts=target.before["facts"], undoes=target)


def round_undo(*, round: Round, user: Any, expected_version: int | None = None) -> Round:
    """Revert the newest not-yet-undone change of this round.

    A deletion is restored, an edit is reverted to the facts before it, a
    creation is undone by deleting the round.  Repeated undos walk back through
    the round's history.  ``expected_version`` is checked when given.
    """
    with transaction.atomic():
        rnd = _lock_round(round, user)
        if expected_version is not None:
            version_check(rnd, expected_version)
        target = _undoable(list(RoundEvent.objects.filter(round=rnd).order_by("-id")))
        if target is None:
            raise Conflict(gettext("There is nothing to undo for this round."))
        return _undo(rnd=rnd, target=target, user=user)


def match_undo_last(*, match: Match, user: Any, expected_version: int | None = None) -> Round:
    """Undo the newest not-yet-undone round change anywhere in the match (the "oops" button).

    ``expected_version`` is the match version the caller saw: a repeated or parallel tap sent with the same
    version undoes one change, and every other one raises AlreadyUndone (the version moved on with the first).
    """
    with transaction.atomic():
        locked = match_lock_member(match_id=match.pk, user=user)
        if expected_version is not None and expected_version != locked.version:
            raise AlreadyUndone(expected=expected_version, current=locked.version, obj=locked)
        events = list(RoundEvent.objects.filter(match=locked, round__isnull=False).order_by("-id"))
        target = _undoable(events)
        if target is None:
            raise Conflict(gettext("There is nothing to undo in this match."))
        rnd = Round.objects.get(pk=target.round_id)
        rnd.match = locked
        return _undo(rnd=rnd, target=target, user=user)


def match_rescore(*, match: Match, user: Any, expected_version: int | None = None) -> Match:
    """Re-score every live round with the current ruleset version (after a rules fix).

    Rounds whose result changes get a new version and a "rescore" event; the
    match finishes or reopens as the rules now say. ``expected_version`` (the match version a preview showed)
    is checked when given: a match changed since then is refused with StaleVersion.
    """
    with transaction.atomic():
        locked = match_lock_member(match_id=match.pk, user=user)
        if expected_version is not None:
            version_check(locked, expected_version)
        totals_only_refuse(locked)
        ruleset = ruleset_get(locked.ruleset)
        seats, names = seating(locked)
        options = options_or_fail(ruleset, locked.options, players=len(seats))
        live = live_rounds(locked)
        results = rounds_rescore(
            match=locked, ruleset=ruleset, seats=seats, live=live, options=options, user=user, names=names
        )
        locked.version += 1
        changed = match_state_follow(
            match=locked, ruleset=ruleset, results=results, players=len(seats), options=options, user=user
        )
        locked.save(update_fields=[*MATCH_WRITE_FIELDS, *changed])
        stats_match_changed(match=locked, players=seats)
        return locked
